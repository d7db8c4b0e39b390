package delayuse

import (
	"context"
	"errors"
	"time"

	"delays"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }

func viaExp(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(delays.Exp(i)) // want `grow with the attempt`
	}
	return errors.New("gave up")
}

func viaPolicy(ctx context.Context, c *Client, p delays.Policy) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(p.Next(i)) // want `grow with the attempt`
	}
	return errors.New("gave up")
}

// Not reported: waits with a random term from another package.
func viaFull(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(delays.Full(i))
	}
	return errors.New("gave up")
}

func viaJitter(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(delays.Jitter(delays.Exp(i)))
	}
	return errors.New("gave up")
}

func viaMillis(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(delays.Millis(1000)) * time.Millisecond)
	}
	return errors.New("gave up")
}

// Not reported: what the pass cannot see into.
func viaCapped(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(delays.Capped(i)) * time.Second)
		time.Sleep(delays.Now())
	}
	return errors.New("gave up")
}
