package fixvar

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

// defaultBudget limits retries.
var defaultBudget = budget.New(budget.Ratio(0.1)) // want `retry budget defaultBudget guards retries to inventory and payments`

func (s *Service) reserve(ctx context.Context) error {
	defaultBudget.OnRequest()
	for i := 0; i < 3; i++ {
		err := s.inventory.Reserve(ctx)
		if err == nil {
			return nil
		}
		if !defaultBudget.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) charge(ctx context.Context) error {
	defaultBudget.OnRequest()
	for i := 0; i < 3; i++ {
		err := s.payments.Charge(ctx)
		if err == nil || !defaultBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

var (
	timeout = time.Second
	limiter = rate.NewLimiter(rate.Every(time.Second), 5) // want `rate limiter limiter guards retries to inventory and payments`
)

func (s *Service) reserveLimited(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := s.inventory.Reserve(ctx)
		if err == nil || !limiter.Allow() {
			return err
		}
		time.Sleep(timeout)
	}
	return errors.New("gave up")
}

func (s *Service) chargeLimited(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := s.payments.Charge(ctx)
		if err == nil || !limiter.Allow() {
			return err
		}
	}
	return errors.New("gave up")
}
