package registry

import (
	"context"

	"github.com/retrylint/retrylint/budget"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
	budgets   map[string]*budget.Budget
}

var reg = budget.NewRegistry()

func (s *Service) reserve(ctx context.Context) error {
	for {
		err := s.inventory.Reserve(ctx)
		if err == nil || !reg.For("default").TryRetry() { // want `retry budget reg.For\("default"\) guards retries to inventory and payments`
			return err
		}
	}
}

func (s *Service) charge(ctx context.Context) error {
	b := reg.For("default")
	for {
		err := s.payments.Charge(ctx)
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}

func (s *Service) reserveMap(ctx context.Context) error {
	for {
		err := s.inventory.Reserve(ctx)
		if err == nil || !s.budgets["default"].TryRetry() { // want `retry budget Service.budgets\["default"\] guards retries to inventory and payments`
			return err
		}
	}
}

func (s *Service) chargeMap(ctx context.Context) error {
	for {
		err := s.payments.Charge(ctx)
		if err == nil || !s.budgets["default"].TryRetry() {
			return err
		}
	}
}
