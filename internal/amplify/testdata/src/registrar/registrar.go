// want package:"analyzed"

// Package registrar keeps callbacks for later, or calls them at once.
package registrar

type Conn struct {
	onClose []func()
	hook    func() error
}

// OnClose stores f: it runs when the connection closes.
func (c *Conn) OnClose(f func()) { // want OnClose:`later\(0\)`
	c.onClose = append(c.onClose, f)
}

// Hook stores f in a field.
func (c *Conn) Hook(f func() error) { // want Hook:`later\(0\)`
	c.hook = f
}

// Spawn starts f as a goroutine.
func Spawn(f func()) { // want Spawn:`later\(0\)`
	go f()
}

// SpawnLit starts a goroutine that calls f.
func SpawnLit(f func()) { // want SpawnLit:`later\(0\)`
	go func() { f() }()
}

// Now calls f before it returns: f is part of the call.
func Now(f func() error) error {
	return f()
}

// Both calls f now and keeps it: it runs now, so it is not later.
func (c *Conn) Both(f func() error) error {
	c.hook = f
	return f()
}

// Pass hands f to Spawn, which keeps it.
func Pass(f func()) { // want Pass:`later\(0\)`
	Spawn(f)
}

// Through hands f to Now, which calls it.
func Through(f func() error) error {
	return Now(f)
}
