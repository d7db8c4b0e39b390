package loops

import (
	"context"
	"errors"
	"time"
)

type Client struct {
	retryDelay time.Duration
}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }

// A constant wait.
func constant(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(250 * time.Millisecond) // want `retry waits a fixed 250ms between attempts: clients that failed together retry together; add jitter`
	}
	return errors.New("gave up")
}

// A parameter is the same on every attempt.
func param(ctx context.Context, c *Client, d time.Duration) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(d): // want `retry waits the same d between attempts`
		}
	}
	return errors.New("gave up")
}

// So is a setting.
func (c *Client) field(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(c.retryDelay) // want `retry waits the same c.retryDelay between attempts`
	}
	return errors.New("gave up")
}

// Exponential backoff with no random term.
func exponential(ctx context.Context, c *Client) error {
	base := 100 * time.Millisecond
	for attempt := 0; attempt < 4; attempt++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(1<<attempt) * base) // want `retry waits grow with the attempt but have no random term`
	}
	return errors.New("gave up")
}

// Linear backoff.
func linear(ctx context.Context, c *Client) error {
	for attempt := range 4 {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(attempt) * 200 * time.Millisecond) // want `grow with the attempt`
	}
	return errors.New("gave up")
}

// Doubling in the loop, with a cap.
func doubling(ctx context.Context, c *Client) error {
	d := 50 * time.Millisecond
	for {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(min(d, 5*time.Second)) // want `grow with the attempt`
		d *= 2
	}
}

// A table of delays indexed by the attempt.
var delays = []time.Duration{100 * time.Millisecond, time.Second, 5 * time.Second}

func table(ctx context.Context, c *Client) error {
	for i := 0; i < len(delays); i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(delays[i]) // want `grow with the attempt`
	}
	return errors.New("gave up")
}

// A helper of the package computes the wait.
func backoff(attempt int) time.Duration {
	d := 100 * time.Millisecond
	for i := 0; i < attempt; i++ {
		d = d * 3 / 2
	}
	return d
}

func helper(ctx context.Context, c *Client) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = c.Send(ctx, "x"); err == nil {
			return nil
		}
		t := time.NewTimer(backoff(attempt)) // want `grow with the attempt`
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
	return err
}

// A ticker made once waits its period.
func ticker(ctx context.Context, c *Client) error {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C: // want `retry waits a fixed 1s between attempts`
		}
	}
}

// A timer reset between attempts.
func timer(ctx context.Context, c *Client) error {
	t := time.NewTimer(0)
	<-t.C
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		t.Reset(2 * time.Second) // want `retry waits a fixed 2s between attempts`
		<-t.C
	}
	return errors.New("gave up")
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(d):
		return nil
	}
}

// A sleep function taking the context and the duration.
func viaSleep(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if err := sleepCtx(ctx, time.Second); err != nil { // want `retry waits a fixed 1s`
			return err
		}
	}
	return errors.New("gave up")
}

// Two fixed waits of one loop.
func twoWaits(ctx context.Context, c *Client, busy bool) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if busy {
			time.Sleep(time.Second) // want `retry waits a fixed time between attempts`
			continue
		}
		time.Sleep(100 * time.Millisecond)
	}
	return errors.New("gave up")
}

// A wait before each retry, at the top of the body.
func top(ctx context.Context, c *Client) error {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			time.Sleep(time.Second) // want `retry waits a fixed 1s`
		}
		if err = c.Send(ctx, "x"); err == nil {
			return nil
		}
	}
	return err
}
