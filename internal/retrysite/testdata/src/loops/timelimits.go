package loops

import (
	"context"
	"math"
	"time"
)

// An attempt that takes a context and a time limit is an attempt, not a
// wait: a function of the package says which it is by what it does with
// the duration.

// getWithin makes one request, limited to d.
func (c *Client) getWithin(ctx context.Context, d time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	_, err := c.Get(ctx, "k")
	return err
}

// pause waits for d or until ctx ends.
func pause(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// The attempt takes a context and a duration, and makes a request.
func (c *Client) withLimit(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		if err = c.getWithin(ctx, 2*time.Second); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// The time limit grows with the attempt, worked out by a call: a longer
// limit for the same operation.
func (c *Client) growingLimit(ctx context.Context) error {
	var err error
	for attempt := 1; attempt <= 3; attempt++ { // want `loop \[3 attempts\]`
		err = c.getWithin(ctx, time.Duration(math.Pow(5, float64(attempt-1)))*time.Second)
		if err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: the only call that can fail takes a context and a duration
// and waits for it: a ticker, no attempt.
func tick(ctx context.Context, work func()) error {
	for {
		if err := pause(ctx, time.Second); err != nil {
			return err
		}
		work()
	}
}

// getPage fetches the page at offset.
func (c *Client) getPage(ctx context.Context, offset int) error {
	_, err := c.Get(ctx, "page")
	return err
}

// Look-alike: an integer worked out from the counter is the next page,
// other work.
func (c *Client) pagesFrom(ctx context.Context) error {
	for i := 1; i <= 3; i++ {
		if err := c.getPage(ctx, int(math.Pow(2, float64(i)))); err != nil {
			return err
		}
	}
	return nil
}
