package oldgo

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }

// Go 1.20 has math/rand and no max: a positive constant is jittered.
func constant(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(250 * time.Millisecond) // want `retry waits a fixed 250ms`
	}
	return errors.New("gave up")
}

// A wait that may be zero needs max: no fix.
func linear(ctx context.Context, c *Client) error {
	for attempt := 0; attempt < 3; attempt++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt) * time.Second) // want `grow with the attempt`
	}
	return errors.New("gave up")
}
