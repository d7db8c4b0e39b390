package fix

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }

func constant(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(250 * time.Millisecond) // want `retry waits a fixed 250ms`
	}
	return errors.New("gave up")
}

func exponential(ctx context.Context, c *Client) error {
	base := 100 * time.Millisecond
	for attempt := 0; attempt < 4; attempt++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(min(time.Duration(1<<attempt)*base, 2*time.Second)) // want `grow with the attempt`
	}
	return errors.New("gave up")
}

// linear's wait has blanks around its operators, as gofmt lays it out in
// a call of one argument; inside max(..., 1) gofmt drops them.
func linear(ctx context.Context, c *Client) error {
	for attempt := 0; attempt < 4; attempt++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt) * 100 * time.Millisecond) // want `grow with the attempt`
	}
	return errors.New("gave up")
}

func untyped(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(1e9) // want `retry waits a fixed 1s`
	}
	return errors.New("gave up")
}

func waits(ctx context.Context, c *Client, d time.Duration, busy bool) error {
	t := time.NewTimer(d)
	defer t.Stop()
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if busy {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(d): // want `retry waits the same d`
			}
			continue
		}
		t.Reset(d)
		<-t.C
	}
	return errors.New("gave up")
}
