package field

import (
	"context"
	"errors"

	"github.com/retrylint/retrylint/budget"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }
func (i *Inventory) Release(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Shipping struct{}

func (p *Shipping) Ship(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
	shipping  *Shipping
	budget    *budget.Budget // want `retry budget Service.budget guards retries to inventory, payments and shipping: one failing dependency drains the others' credit`
}

func (s *Service) reserve(ctx context.Context) error {
	s.budget.OnRequest()
	for i := 0; i < 3; i++ {
		if err := s.inventory.Reserve(ctx); err == nil || !s.budget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (s *Service) release(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := s.inventory.Release(ctx); err == nil || !s.budget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (s *Service) charge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := s.payments.Charge(ctx); err == nil || !s.budget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// Another variable of the same type reaches the same field.
func ship(ctx context.Context, t *Service) error {
	for i := 0; i < 3; i++ {
		if err := t.shipping.Ship(ctx); err == nil || !t.budget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}
