package negative

import (
	"context"
	"errors"

	"example.com/inventory"
	"github.com/retrylint/retrylint/budget"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }
func (i *Inventory) Release(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }
func (p *Payments) Refund(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
	budget    *budget.Budget
}

// One budget for one dependency, used in many places: fine.
var inventoryBudget = budget.New()

func (s *Service) reserve(ctx context.Context) error {
	inventoryBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if err := s.inventory.Reserve(ctx); err == nil || !inventoryBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (s *Service) release(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := s.inventory.Release(ctx); err == nil || !inventoryBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// A local alias of the same field is the same dependency.
func (s *Service) releaseAlias(ctx context.Context) error {
	inv := s.inventory
	for i := 0; i < 3; i++ {
		if err := inv.Release(ctx); err == nil || !inventoryBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// The field budget guards one dependency in every method.
func (s *Service) charge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := s.payments.Charge(ctx); err == nil || !s.budget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (s *Service) refund(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := s.payments.Refund(ctx); err == nil || !s.budget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// A package's functions are one dependency.
var pkgBudget = budget.New()

func reservePkg(ctx context.Context) error {
	for {
		if err := inventory.Reserve(ctx, "a"); err == nil || !pkgBudget.TryRetry() {
			return err
		}
	}
}

func releasePkg(ctx context.Context) error {
	for {
		if err := inventory.Release(ctx, "a"); err == nil || !pkgBudget.TryRetry() {
			return err
		}
	}
}
