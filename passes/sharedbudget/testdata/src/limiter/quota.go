package limiter

import (
	"context"
	"errors"
	"time"

	"example.com/retryhelp"
	"github.com/cenkalti/backoff/v4"
	"golang.org/x/time/rate"
)

// One rate limiter asked before every attempt of retries to two
// dependencies: a failing one drains the other's quota (docs/design.md,
// Budgets: a rate limiter asked before each attempt is a budget).
var quota = rate.NewLimiter(rate.Every(time.Millisecond), 100) // want `rate limiter quota guards retries to inventory and payments`

type Limited struct {
	inventory *Inventory
	payments  *Payments
	lim       *rate.Limiter // want `rate limiter Limited.lim guards retries to inventory and payments`
}

func (l *Limited) reserve(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := quota.Wait(ctx); err != nil {
			return err
		}
		if err := l.inventory.Reserve(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (l *Limited) charge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		quota.Wait(ctx)
		if err := l.payments.Charge(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// In the loop condition: asked before the first attempt.
func (l *Limited) reserveCond(ctx context.Context) error {
	for i := 0; i < 3 && l.lim.Allow(); i++ {
		if err := l.inventory.Reserve(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (l *Limited) chargeCond(ctx context.Context) error {
	for l.lim.Allow() {
		if err := l.payments.Charge(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// A retry helper that waits on its limiter before every attempt, given
// one limiter for two dependencies: the limiter is their shared budget.
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

var callQuota = rate.NewLimiter(10, 1) // want `rate limiter callQuota guards retries to inventory and payments`

func (s *Service) limitedCalls(ctx context.Context) {
	limited(ctx, callQuota, func() error { return s.inventory.Reserve(ctx) })
	limited(ctx, callQuota, func() error { return s.payments.Charge(ctx) })
}

// A limiter asked at the top of a retried operation limits every
// attempt of retries to two dependencies: shared.
var opQuota = rate.NewLimiter(10, 1) // want `rate limiter opQuota guards retries to inventory and payments`

func (s *Service) opLimited(ctx context.Context) error {
	return backoff.Retry(func() error {
		if err := opQuota.Wait(ctx); err != nil {
			return backoff.Permanent(err)
		}
		return s.inventory.Reserve(ctx)
	}, backoff.NewExponentialBackOff())
}

func (s *Service) opLimited2(ctx context.Context) error {
	return backoff.Retry(func() error {
		opQuota.Wait(ctx)
		return s.payments.Charge(ctx)
	}, backoff.NewExponentialBackOff())
}

// A helper of another package that asks the limiter it is given, after
// each failure: one limiter for two dependencies is shared.
var otherQuota = rate.NewLimiter(10, 1) // want `rate limiter otherQuota guards retries to inventory and payments`

func (s *Service) otherHelper(ctx context.Context) {
	retryhelp.Limited(ctx, otherQuota, func(ctx context.Context) error { return s.inventory.Reserve(ctx) })
	retryhelp.Limited(ctx, otherQuota, func(ctx context.Context) error { return s.payments.Charge(ctx) })
}
