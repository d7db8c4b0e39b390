// Package retryhelp holds retry helpers that take a budget.
package retryhelp

import (
	"context"
	"time"

	"github.com/retrylint/retrylint/budget"
	"golang.org/x/time/rate"
)

// Do retries op while the budget allows it.
func Do(ctx context.Context, b *budget.Budget, op func(context.Context) error) error {
	b.OnRequest()
	for {
		err := op(ctx)
		if err == nil {
			return nil
		}
		if !b.TryRetry() {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Limited retries op, waiting on lim after each failure.
func Limited(ctx context.Context, lim *rate.Limiter, op func(context.Context) error) error {
	for {
		err := op(ctx)
		if err == nil {
			return nil
		}
		if werr := lim.Wait(ctx); werr != nil {
			return err
		}
	}
}
