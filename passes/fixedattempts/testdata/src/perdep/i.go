package perdep

import (
	"context"
	"net"
	"time"
)

// Agent dials the address it holds, with a dialer all agents share: what
// a dial depends on is its address, not the dialer, so each agent's
// address gets its own budget, from a registry keyed by it.
type Agent struct {
	addr   string
	dialer *net.Dialer
}

// Connect redials the agent's address.
func (a *Agent) Connect(ctx context.Context) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var c net.Conn
		if c, err = a.dialer.DialContext(ctx, "tcp", a.addr); err == nil {
			return c, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// DialAny redials the address its caller gives: known only when the call
// is made, it keys the registry.
func DialAny(d *net.Dialer, addr string) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var c net.Conn
		if c, err = d.Dial("tcp", addr); err == nil {
			return c, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// DialResolved redials an address resolved before the loop: its String()
// keys the registry.
func DialResolved(d *net.Dialer, addr *net.TCPAddr) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var c net.Conn
		if c, err = d.Dial(addr.Network(), addr.String()); err == nil {
			return c, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}
