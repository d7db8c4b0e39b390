package fixregistry

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
	reg       *budget.Registry
}

const defaultKey = "default"

func (s *Service) reserve(ctx context.Context) error {
	s.reg.For("default").OnRequest()
	for {
		err := s.inventory.Reserve(ctx)
		if err == nil || !s.reg.For("default").TryRetry() { // want `retry budget Service.reg.For\("default"\) guards retries to inventory and payments`
			return err
		}
	}
}

func (s *Service) charge(ctx context.Context) error {
	b := s.reg.For(defaultKey)
	b.OnRequest()
	for {
		err := s.payments.Charge(ctx)
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}
