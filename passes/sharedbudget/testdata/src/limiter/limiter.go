package limiter

import (
	"context"
	"errors"
	"time"

	"github.com/retrylint/retrylint/budget"
	"golang.org/x/time/rate"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
}

// A rate limiter asked on the failure path guards the retries.
var retryLimiter = rate.NewLimiter(rate.Every(time.Second), 10) // want `rate limiter retryLimiter guards retries to inventory and payments: one failing dependency drains the other's credit`

func (s *Service) reserve(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := s.inventory.Reserve(ctx)
		if err == nil {
			return nil
		}
		if !retryLimiter.Allow() {
			return err
		}
	}
	return errors.New("gave up")
}

// Wait after a failure, before the next attempt.
func (s *Service) charge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := s.payments.Charge(ctx)
		if err == nil {
			return nil
		}
		if werr := retryLimiter.Wait(ctx); werr != nil {
			return err
		}
	}
	return errors.New("gave up")
}

// A retry helper of this package that asks its limiter after a failure.
func retryLimited(lim *rate.Limiter, op func() error) error {
	for {
		err := op()
		if err == nil {
			return nil
		}
		if !lim.Allow() {
			return err
		}
	}
}

var helperLimiter = rate.NewLimiter(1, 1) // want `rate limiter helperLimiter guards retries to inventory and payments`

func (s *Service) both(ctx context.Context) {
	retryLimited(helperLimiter, func() error { return s.inventory.Reserve(ctx) })
	retryLimited(helperLimiter, func() error { return s.payments.Charge(ctx) })
}

// A rate limit before each attempt, and a retry budget after a failure:
// both are shared by the two dependencies (docs/design.md, Budgets).
var (
	sendQuota  = rate.NewLimiter(100, 10) // want `rate limiter sendQuota guards retries to inventory and payments`
	afterQuota = budget.New()             // want `retry budget afterQuota guards retries to inventory and payments`
)

func (s *Service) reserveBoth(ctx context.Context) error {
	for {
		if err := sendQuota.Wait(ctx); err != nil {
			return err
		}
		err := s.inventory.Reserve(ctx)
		if err == nil || !afterQuota.TryRetry() {
			return err
		}
	}
}

func (s *Service) chargeBoth(ctx context.Context) error {
	for {
		if err := sendQuota.Wait(ctx); err != nil {
			return err
		}
		err := s.payments.Charge(ctx)
		if err == nil || !afterQuota.TryRetry() {
			return err
		}
	}
}
