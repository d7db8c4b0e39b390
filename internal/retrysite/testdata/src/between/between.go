package between

import (
	"context"
	"errors"
	"time"
)

type client struct{}

func (client) Get(ctx context.Context) error { return nil }

func note(string) {}

// The wait after a failure is between attempts.
func afterFailure(ctx context.Context, c client) error {
	for i := 0; i < 3; i++ { // want `loop`
		if err := c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `between attempts: time.Sleep`
	}
	return errors.New("gave up")
}

// A wait at the top of the body runs before each next attempt.
func beforeAttempt(ctx context.Context, c client) error {
	for i := 0; i < 3; i++ { // want `loop`
		if i > 0 {
			time.Sleep(time.Second) // want `between attempts: time.Sleep`
		}
		if err := c.Get(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// Waits before the loop and on the way out are not between attempts.
func outside(ctx context.Context, c client) error {
	time.Sleep(time.Millisecond)
	for i := 0; i < 3; i++ { // want `loop`
		err := c.Get(ctx)
		if err == nil {
			time.Sleep(time.Millisecond)
			note("done")
			return nil
		}
		if errors.Is(err, context.Canceled) {
			time.Sleep(time.Millisecond)
			return err
		}
		note("retrying") // want `between attempts: note`
	}
	time.Sleep(time.Millisecond)
	return errors.New("gave up")
}

// The post statement runs between attempts too.
func post(ctx context.Context, c client) error {
	for i := 0; i < 3; i, _ = i+1, wait() { // want `loop` `between attempts: wait`
		if err := c.Get(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func wait() int { time.Sleep(time.Millisecond); return 0 }
