package negative

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }
func (c *Client) Ping() error                                { return nil }

// The wait watches the context.
func watched(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return errors.New("gave up")
}

// A shutdown channel interrupts the wait too.
func shutdown(ctx context.Context, c *Client, quit <-chan struct{}) error {
	t := time.NewTimer(time.Second)
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		t.Reset(time.Second)
		select {
		case <-quit:
			return errors.New("closing")
		case <-t.C:
		}
	}
	return errors.New("gave up")
}

// No context was inherited: nothing to watch.
func noContext(c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Ping(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A goroutine runs detached from the caller.
func detached(ctx context.Context, c *Client) {
	go func() {
		for i := 0; i < 3; i++ {
			if err := c.Ping(); err == nil {
				return
			}
			time.Sleep(time.Second)
		}
	}()
}

// Waits before the first attempt and on the way out are not between
// attempts.
func outside(ctx context.Context, c *Client) error {
	time.Sleep(time.Millisecond) // warm-up
	for i := 0; i < 3; i++ {
		err := c.Send(ctx, "x")
		if err == nil {
			time.Sleep(time.Millisecond) // settle
			return nil
		}
		if errors.Is(err, context.Canceled) {
			time.Sleep(time.Millisecond)
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	time.Sleep(time.Millisecond)
	return errors.New("gave up")
}

// A loop that is no retry (it leaves on every error) is not judged.
func poll(ctx context.Context, c *Client) error {
	for {
		if err := c.Send(ctx, "tick"); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
}

// A select with a default does not wait.
func nonBlocking(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		select {
		case <-time.After(time.Second):
		default:
		}
	}
	return errors.New("gave up")
}

// A sleep in a goroutine the loop starts is not the loop's wait.
func spawned(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		go func() { time.Sleep(time.Second) }()
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	return errors.New("gave up")
}

// A deferred function runs after the caller: not inherited.
func deferred(ctx context.Context, c *Client) {
	defer func() {
		for i := 0; i < 3; i++ {
			if err := c.Ping(); err == nil {
				return
			}
			time.Sleep(time.Second)
		}
	}()
}

// A timer sent on, not waited on.
func handed(ctx context.Context, c *Client, out chan<- <-chan time.Time) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		out <- time.After(time.Second)
		<-ctx.Done()
		return ctx.Err()
	}
	return nil
}

// A select of timers, a wait and an overall timeout of its own, is a
// designed wait.
func timers(ctx context.Context, c *Client) error {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		select {
		case <-tick.C:
		case <-time.After(2 * time.Second):
		}
	}
	return errors.New("gave up")
}
