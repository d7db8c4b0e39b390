package ranges

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

// A directive on its own line above a loop covers the whole loop: the
// for (fixedattempts) and the wait inside it (nojitter, blindsleep).
func above(ctx context.Context, c *Client) error {
	//nolint:retrylint // startup probe, bounded by the deploy
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	// nolint:retrylint // with a space, as golangci-lint allows
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	//lint:ignore retrylint the ignore forms cover the same lines
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A directive above a declaration covers the whole function.
//
//nolint:retrylint // a warm-up, run once
func declaration(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A directive that names one pass covers only that pass's diagnostics in
// the loop.
func onePass(ctx context.Context, c *Client) error {
	//nolint:fixedattempts,nojitter // blindsleep still reports the wait
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
	}
	return errors.New("gave up")
}

// A directive at the end of a line covers that line only: the for, not
// the wait inside the loop.
func trailing(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ { //nolint:retrylint // covers the for only
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed 1s` `retry loop waits with time.Sleep`
	}
	return errors.New("gave up")
}

// Look-alikes: a directive above the statement before the loop covers
// that statement; one with a blank line below it covers the blank line;
// one that does not start in the column of the line below covers that
// line only.
func lookalikes(ctx context.Context, c *Client) error {
	//nolint:retrylint // covers the assignment only
	d := time.Second
	for i := 0; i < 3; i++ { // want `retry loop makes up to 3 attempts`
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(d) // want `retry waits the same d` `retry loop waits with time.Sleep`
	}
	//nolint:retrylint // too far from the loop

	for i := 0; i < 3; i++ { // want `retry loop makes up to 3 attempts`
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(d) // want `retry waits the same d` `retry loop waits with time.Sleep`
	}
	/* a comment first */ //nolint:retrylint // not in the loop's column: covers the line below only
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(d) // want `retry waits the same d` `retry loop waits with time.Sleep`
	}
	return errors.New("gave up")
}

// Unused ignore directives are reported in both positions, with what they
// covered.
func unused(ctx context.Context, c *Client) error {
	//lint:ignore nojitter the loop below has no wait // want `//lint:ignore nojitter silences nothing: no nojitter diagnostic in the line or statement below it; remove it`
	for i := 0; i < 3; i++ { // want `retry loop makes up to 3 attempts`
		if c.Get(ctx) == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ { //lint:ignore nojitter the wait is two lines down // want `retry loop makes up to 3 attempts` `//lint:ignore nojitter silences nothing: no nojitter diagnostic on its line; remove it`
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed 1s` `retry loop waits with time.Sleep`
	}
	return errors.New("gave up")
}
