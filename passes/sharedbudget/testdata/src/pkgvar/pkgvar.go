package pkgvar

import (
	"context"
	"errors"
	"time"

	"example.com/inventory"
	"github.com/retrylint/retrylint/budget"
)

type Payments struct{}

func (p *Payments) Charge(ctx context.Context, cents int) error { return nil }

type Service struct {
	payments *Payments
}

var defaultBudget = budget.New() // want `retry budget defaultBudget guards retries to inventory and payments: one failing dependency drains the other's credit`

func (s *Service) Reserve(ctx context.Context, item string) error {
	for i := 0; i < 3; i++ {
		err := inventory.Reserve(ctx, item)
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

func (s *Service) Charge(ctx context.Context, cents int) error {
	for i := 0; i < 3; i++ {
		err := s.payments.Charge(ctx, cents)
		if err == nil || !defaultBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// A local variable that stands for the package variable.
func (s *Service) Release(ctx context.Context, item string) error {
	b := defaultBudget
	for {
		err := inventory.Release(ctx, item)
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}
