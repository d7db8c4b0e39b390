// want package:"analyzed"

// Package factsdep retries; package facts imports it.
package factsdep

import (
	"context"
	"time"
)

type Client struct{}

func (c *Client) call(ctx context.Context) error { return nil }

// Fetch tries 3 times.
func (c *Client) Fetch(ctx context.Context) error { // want Fetch:`amp\(3: factsdep.\(\*Client\).Fetch\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Once does not retry: no fact.
func (c *Client) Once(ctx context.Context) error {
	return c.call(ctx)
}
