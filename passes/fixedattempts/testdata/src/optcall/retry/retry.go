// Package retry holds retry helpers that take a budget: Do an optional
// one (as the fix of an exported helper leaves it), With a required one.
package retry

import (
	"context"
	"time"

	"github.com/retrylint/retrylint/budget"
)

func Do(ctx context.Context, op func(context.Context) error, retryBudget ...*budget.Budget) error {
	var err error
	if len(retryBudget) > 0 {
		retryBudget[0].OnRequest()
	}
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		if i+1 < 3 && len(retryBudget) > 0 && !retryBudget[0].TryRetry() {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

func With(ctx context.Context, b *budget.Budget, op func(context.Context) error) error {
	var err error
	b.OnRequest()
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		if i+1 < 3 && !b.TryRetry() {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return err
}
