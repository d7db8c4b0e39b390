package loops

import (
	"context"
	"math/rand"
	"sync"
	"time"
)

// Reconnect loops (issue 30): one that leaves on the first connection
// that is made is a retry; one that goes on to serve is not.

type poolServer struct {
	reconnects int
}

type poolConn struct {
	mu      sync.Mutex
	pool    []*poolServer
	closed  bool
	wait    time.Duration
	jitter  time.Duration
	lastErr error
	cl      *Client
}

func (c *poolConn) nextServer() (*poolServer, error) { return nil, nil }
func (c *poolConn) dial() error                      { return c.cl.Put(context.Background(), "dial", "") }
func (c *poolConn) handshake() error                 { return c.cl.Put(context.Background(), "connect", "") }
func (c *poolConn) serve() error                     { return c.cl.Put(context.Background(), "serve", "") }

// Picks the next server of the pool, waits after each full pass, and
// tries to connect until one connection is made: its success returns.
func (c *poolConn) reconnect() {
	c.mu.Lock()
	for i := 0; len(c.pool) > 0; { // want `loop \[unknown bound\] delay=fixed\+jitter dep=c`
		cur, err := c.nextServer()
		if err != nil {
			c.lastErr = err
			break
		}
		doSleep := i+1 >= len(c.pool)
		c.mu.Unlock()
		if !doSleep {
			i++
		} else {
			i = 0
			time.Sleep(c.wait + time.Duration(rand.Int63n(int64(c.jitter))))
		}
		c.mu.Lock()
		if c.closed {
			break
		}
		cur.reconnects++
		if err = c.dial(); err != nil {
			continue
		}
		if c.lastErr = c.handshake(); c.lastErr != nil {
			continue
		}
		cur.reconnects = 0
		c.mu.Unlock()
		return
	}
	c.mu.Unlock()
}

// Look-alike: a connection that is made serves until it breaks, then the
// loop connects again; only a stop leaves.
func (c *poolConn) keepConnected(stop <-chan struct{}) {
	for {
		if err := c.dial(); err == nil {
			if c.lastErr = c.handshake(); c.lastErr == nil {
				c.lastErr = c.serve()
			}
		}
		select {
		case <-stop:
			return
		case <-time.After(c.wait):
		}
	}
}

// Look-alike: the error is kept in the field of one connection and the
// field of another is tested: that is no test of the attempt's outcome,
// which goes round whatever it was.
func (c *poolConn) mirror(other *poolConn) {
	for {
		c.lastErr = c.dial()
		if other.lastErr != nil {
			time.Sleep(c.wait)
			continue
		}
		return
	}
}
