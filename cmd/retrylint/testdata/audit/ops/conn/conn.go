// Package conn dials a broker with retries; a reconnect loop runs beside
// the requests, started once per connection.
package conn

import (
	"context"
	"time"
)

type Broker struct{}

func (b *Broker) Dial(ctx context.Context) error { return nil }

type Conn struct {
	broker *Broker
}

// reconnect retries for as long as the process lives: unbounded, but not
// on the request path.
func (c *Conn) reconnect(ctx context.Context) {
	for {
		if err := c.broker.Dial(ctx); err == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// connect starts the reconnect loop and dials once.
func (c *Conn) connect(ctx context.Context) error {
	go c.reconnect(ctx)
	return c.broker.Dial(ctx)
}

// Open retries connect three times: 3 calls, not 3 × unbounded.
func (c *Conn) Open(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.connect(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
