package negative

import (
	"context"

	"example.com/retryhelp"
	"golang.org/x/time/rate"
)

// A retry helper that waits on its limiter before every attempt: the
// limiter is a rate limit shared on purpose.
func limited(ctx context.Context, lim *rate.Limiter, op func() error) error {
	for i := 0; i < 3; i++ {
		if err := lim.Wait(ctx); err != nil {
			return err
		}
		if err := op(); err == nil {
			return nil
		}
	}
	return nil
}

var callQuota = rate.NewLimiter(10, 1)

func (s *Service) limitedCalls(ctx context.Context) {
	limited(ctx, callQuota, func() error { return s.inventory.Reserve(ctx) })
	limited(ctx, callQuota, func() error { return s.payments.Charge(ctx) })
}

// A helper of another package given a rate limiter may ask it before
// each attempt: not known here.
func (s *Service) otherHelper(ctx context.Context) {
	retryhelp.Limited(ctx, callQuota, func(ctx context.Context) error { return s.inventory.Reserve(ctx) })
	retryhelp.Limited(ctx, callQuota, func(ctx context.Context) error { return s.payments.Charge(ctx) })
}
