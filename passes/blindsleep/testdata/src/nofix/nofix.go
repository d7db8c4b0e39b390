package nofix

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }

func nap(d time.Duration) { time.Sleep(d) }

// The results cannot carry the cancellation.
func count(ctx context.Context, c *Client) int {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return i
		}
		time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
	}
	return -1
}

// ctx names a fresh root where the wait is.
func shadowed(ctx context.Context, c *Client) error {
	{
		ctx := context.Background()
		for i := 0; i < 3; i++ {
			if err := c.Send(ctx, "x"); err == nil {
				return nil
			}
			time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
		}
	}
	return errors.New("gave up")
}

// A sleep helper has no select to add.
func helper(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		nap(time.Second) // want `retry loop waits in nap`
	}
	return errors.New("gave up")
}

// A receive whose value is kept.
func kept(ctx context.Context, c *Client) (time.Time, error) {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return time.Time{}, nil
		}
		at := <-time.After(time.Second) // want `retry loop waits with <-time.After`
		_ = at
	}
	return time.Time{}, errors.New("gave up")
}

// An unnamed context cannot be watched.
func unnamed(_ context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(context.TODO(), "x"); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
	}
	return errors.New("gave up")
}

// A zero value of a generic struct is not written.
type result[T any] struct{ v T }

func generic[T any](ctx context.Context, f func(context.Context) (T, error)) (result[T], *T, error) {
	for i := 0; i < 3; i++ {
		v, err := f(ctx)
		if err == nil {
			return result[T]{v}, &v, nil
		}
		time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
	}
	return result[T]{}, nil, errors.New("gave up")
}

// One of the waits cannot be fixed: no fix for the others either.
func mixed(ctx context.Context, c *Client, busy bool) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if busy {
			time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
			continue
		}
		nap(time.Second)
	}
	return errors.New("gave up")
}
