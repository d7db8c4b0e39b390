package nofix

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }

// A ticker's period cannot be jittered per wait.
func ticker(ctx context.Context, c *Client) error {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		<-t.C // want `retry waits a fixed 1s`
	}
}

// max is not the builtin here.
func shadowed(ctx context.Context, c *Client, d time.Duration) error {
	max := func(a, b time.Duration) time.Duration { return a }
	_ = max
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(d) // want `retry waits the same d`
	}
	return errors.New("gave up")
}

// time.Sleep(0) waits nothing: not reported.
func sleepZero(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(0)
	}
	return errors.New("gave up")
}
