package imported

import (
	"context"

	"example.com/budgets"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
}

func (s *Service) reserve(ctx context.Context) error {
	for {
		err := s.inventory.Reserve(ctx)
		if err == nil || !budgets.Default.TryRetry() { // want `retry budget budgets.Default guards retries to inventory and payments`
			return err
		}
	}
}

func (s *Service) charge(ctx context.Context) error {
	for {
		err := s.payments.Charge(ctx)
		if err == nil || !budgets.Default.TryRetry() {
			return err
		}
	}
}
