// want package:"analyzed"

// Package goroutines checks that work a function starts but does not do
// (a goroutine, a callback registered for later) does not multiply it,
// and that a goroutine it waits for does.
package goroutines

import (
	"context"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"registrar"
)

type Client struct {
	conn  *registrar.Conn
	onErr func() error
	mu    sync.Mutex
}

func (c *Client) call(ctx context.Context) error { return nil }

// reconnect retries forever: a loop meant to run beside the requests.
func (c *Client) reconnect(ctx context.Context) { // want reconnect:`amp\(unbounded: `
	for {
		if err := c.call(ctx); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// probe retries three times.
func (c *Client) probe(ctx context.Context) error { // want probe:`amp\(3: goroutines.\(\*Client\).probe\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Connect starts the reconnect loop once: it does not retry itself.
func (c *Client) Connect(ctx context.Context) error {
	go c.reconnect(ctx)
	return c.call(ctx)
}

// ConnectLit starts a literal goroutine that probes: not part of the call.
func (c *Client) ConnectLit(ctx context.Context) error {
	go func() {
		_ = c.probe(ctx)
	}()
	return c.call(ctx)
}

// A retry loop inside a goroutine does not multiply the starter.
func (c *Client) ConnectLoop(ctx context.Context) error {
	go func() {
		for i := 0; i < 3; i++ { // a site of its own, not of ConnectLoop's total
			if err := c.call(ctx); err == nil {
				return
			}
			time.Sleep(time.Second)
		}
	}()
	return c.call(ctx)
}

// Dial retries Connect: 3 attempts, not 3 × unbounded.
func (c *Client) Dial(ctx context.Context) error { // want Dial:`amp\(3: goroutines.\(\*Client\).Dial\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Connect(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// DialLit retries ConnectLit and ConnectLoop: 3 attempts.
func (c *Client) DialLit(ctx context.Context) error { // want DialLit:`amp\(3: goroutines.\(\*Client\).DialLit\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = c.ConnectLit(ctx); err == nil {
			err = c.ConnectLoop(ctx)
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A goroutine per attempt that is not waited for: 3.
func (c *Client) Hedge(ctx context.Context) error { // want Hedge:`amp\(3: goroutines.\(\*Client\).Hedge\)`
	var err error
	for i := 0; i < 3; i++ {
		go c.probe(ctx)
		if err = c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A goroutine waited for with a WaitGroup is part of the call: 3 × 3.
func (c *Client) Fanout(ctx context.Context) error { // want Fanout:`amp\(9: goroutines.\(\*Client\).Fanout, goroutines.\(\*Client\).probe\)`
	var err error
	for i := 0; i < 3; i++ {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.probe(ctx)
		}()
		wg.Wait()
		if err = c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A goroutine whose result is received is waited for: 3 × 3.
func (c *Client) Channel(ctx context.Context) error { // want Channel:`amp\(9: goroutines.\(\*Client\).Channel, goroutines.\(\*Client\).probe\)`
	var err error
	for i := 0; i < 3; i++ {
		done := make(chan error, 1)
		go func() { done <- c.probe(ctx) }()
		<-done
		if err = c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// errgroup with Wait: part of the call, 2 × 3.
func (c *Client) Group(ctx context.Context) error { // want Group:`amp\(6: goroutines.\(\*Client\).Group, goroutines.\(\*Client\).probe\)`
	var err error
	for i := 0; i < 2; i++ {
		g, gctx := errgroup.WithContext(ctx)
		g.Go(func() error { return c.probe(gctx) })
		if err = g.Wait(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// errgroup without Wait, and WaitGroup.Go without Wait: not part of it.
func (c *Client) GroupNoWait(ctx context.Context) error {
	var g errgroup.Group
	g.Go(func() error { return c.probe(ctx) })
	var wg sync.WaitGroup
	wg.Go(func() { c.reconnect(ctx) })
	return c.call(ctx)
}

// A mutex's Unlock is no Wait: the goroutine stays detached.
func (c *Client) Locked(ctx context.Context) error {
	c.mu.Lock()
	go c.reconnect(ctx)
	c.mu.Unlock()
	return c.call(ctx)
}

// Callbacks registered for later are not part of the call.
func (c *Client) Register(ctx context.Context) error {
	c.conn.OnClose(func() { c.reconnect(ctx) })
	c.conn.Hook(func() error { return c.probe(ctx) })
	registrar.Spawn(func() { c.reconnect(ctx) })
	registrar.Pass(func() { c.reconnect(ctx) })
	time.AfterFunc(time.Second, func() { c.reconnect(ctx) })
	context.AfterFunc(ctx, func() { c.reconnect(ctx) })
	http.HandleFunc("/probe", func(w http.ResponseWriter, r *http.Request) { _ = c.probe(r.Context()) })
	c.onErr = func() error { return c.probe(ctx) }
	return c.call(ctx)
}

// Retrying Register: 3 attempts, none of the callbacks.
func (c *Client) RetryRegister(ctx context.Context) error { // want RetryRegister:`amp\(3: goroutines.\(\*Client\).RetryRegister\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Register(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A handler-shaped literal runs per request of its own, wherever it goes.
func (c *Client) Mux(ctx context.Context) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/x", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { c.reconnect(r.Context()) }))
	return mux
}

// Returning a literal hands it to the caller for later.
func (c *Client) Deferred(ctx context.Context) func() {
	return func() { c.reconnect(ctx) }
}

// Callbacks that run now are part of the call: 3 × 3 each.
func (c *Client) RunNow(ctx context.Context) error { // want RunNow:`amp\(9: goroutines.\(\*Client\).RunNow, goroutines.\(\*Client\).probe\)`
	var err error
	for i := 0; i < 3; i++ {
		err = registrar.Now(func() error { return c.probe(ctx) })
		if err == nil {
			err = registrar.Through(func() error { return c.probe(ctx) })
		}
		if err == nil {
			err = c.conn.Both(func() error { return c.probe(ctx) })
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A deferred call runs before the function returns: part of it.
func (c *Client) Deferring(ctx context.Context) (err error) { // want Deferring:`amp\(3: goroutines.\(\*Client\).probe\)`
	defer func() { err = c.probe(ctx) }()
	return c.call(ctx)
}

// An immediately called literal is part of the call.
func (c *Client) Immediate(ctx context.Context) error { // want Immediate:`amp\(3: goroutines.\(\*Client\).probe\)`
	return func() error { return c.probe(ctx) }()
}

// sync.Once.Do runs its function now.
func (c *Client) Once(ctx context.Context, once *sync.Once) (err error) { // want Once:`amp\(3: goroutines.\(\*Client\).probe\)`
	once.Do(func() { err = c.probe(ctx) })
	return err
}
