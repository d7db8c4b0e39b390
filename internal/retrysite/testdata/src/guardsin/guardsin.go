package guardsin

import (
	"context"

	"github.com/retrylint/retrylint/budget"
	"golang.org/x/time/rate"
)

type Client struct{}

func (c *Client) Call(ctx context.Context) error { return nil }

var (
	lim = rate.NewLimiter(1, 1)
	b   = budget.New()
)

func both(ctx context.Context, c *Client) error {
	for { // want `guards: lim.Wait b.TryRetry`
		if err := lim.Wait(ctx); err != nil {
			return err
		}
		err := c.Call(ctx)
		if err == nil || !b.TryRetry() {
			return err
		}
		func() { b.TryRetry() }() // inside a function literal: not counted
	}
}
