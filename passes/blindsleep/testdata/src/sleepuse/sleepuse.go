package sleepuse

import (
	"context"
	"errors"
	"time"

	"sleeper"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }

func viaPause(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		sleeper.Pause(time.Second) // want `retry loop waits in Pause, which sleeps without watching ctx`
	}
	return errors.New("gave up")
}

func viaIgnores(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		sleeper.Ignores(ctx, time.Second) // want `retry loop waits in Ignores`
	}
	return errors.New("gave up")
}

func viaJittered(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		sleeper.Jittered(time.Second, i) // want `retry loop waits in Jittered`
	}
	return errors.New("gave up")
}

// A local helper counts too.
func nap(d time.Duration) { time.Sleep(d) }

func viaLocal(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		nap(time.Second) // want `retry loop waits in nap`
	}
	return errors.New("gave up")
}

// Not reported: helpers that watch the context, and functions that do more
// than wait.
func viaSleep(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if err := sleeper.Sleep(ctx, time.Second); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

func viaBackoff(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if err := sleeper.Backoff(ctx, i); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

func viaDial(ctx context.Context, c *Client, d *sleeper.Dialer) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		d.Dial()
		sleeper.Spawn(0)
		_ = sleeper.Compute(i)
		if err := sleeper.Sleep(ctx, time.Second); err != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// No context: a blind helper is fine.
func noContext(c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(context.Background(), "x"); err == nil {
			return nil
		}
		sleeper.Pause(time.Second)
	}
	return errors.New("gave up")
}
