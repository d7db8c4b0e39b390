// Package params passes budgets to the functions that guard retries with
// them: a budget parameter is whatever its callers pass.
package params

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
	invBudget *budget.Budget
	payBudget *budget.Budget
}

// retryBoth guards retries to two dependencies with the budget it is given.
func (s *Service) retryBoth(ctx context.Context, b *budget.Budget) error {
	for {
		err := s.inventory.Reserve(ctx)
		if err == nil {
			break
		}
		if !b.TryRetry() {
			return err
		}
	}
	for {
		err := s.payments.Charge(ctx)
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}

// A budget made in one function and passed to another: reported at its
// creation.
func (s *Service) Run(ctx context.Context) error {
	b := budget.New() // want `retry budget b guards retries to inventory and payments: one failing dependency drains the other's credit`
	return s.retryBoth(ctx, b)
}

// Made in the call.
func (s *Service) Inline(ctx context.Context) error {
	return s.retryBoth(ctx, budget.New()) // want `retry budget budget.New\(\) guards retries to inventory and payments`
}

// Through a caller's own parameter, up to where it is made.
func (s *Service) relay(ctx context.Context, b *budget.Budget) error {
	return s.retryBoth(ctx, b)
}

func (s *Service) Relayed(ctx context.Context) error {
	relayed := budget.New() // want `retry budget relayed guards retries to inventory and payments`
	return s.relay(ctx, relayed)
}

// No caller in the package: reported at the parameter.
func (s *Service) Both(ctx context.Context, lim *rate.Limiter) error { // want `rate limiter lim guards retries to inventory and payments`
	for i := 0; i < 3; i++ {
		if err := lim.Wait(ctx); err != nil {
			return err
		}
		if err := s.inventory.Reserve(ctx); err == nil {
			break
		}
	}
	for i := 0; i < 3; i++ {
		if err := lim.Wait(ctx); err != nil {
			return err
		}
		if err := s.payments.Charge(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// Two functions that each retry one dependency with the budget they are
// given, given one budget.
func (s *Service) reserveWith(ctx context.Context, b *budget.Budget) error {
	for i := 0; i < 3; i++ {
		err := s.inventory.Reserve(ctx)
		if err == nil || !b.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) chargeWith(ctx context.Context, b *budget.Budget) error {
	for i := 0; i < 3; i++ {
		err := s.payments.Charge(ctx)
		if err == nil || !b.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) Checkout(ctx context.Context) error {
	shared := budget.New() // want `retry budget shared guards retries to inventory and payments`
	if err := s.reserveWith(ctx, shared); err != nil {
		return err
	}
	return s.chargeWith(ctx, shared)
}

var common = budget.New() // want `retry budget common guards retries to inventory and payments`

func (s *Service) Common(ctx context.Context) error {
	if err := s.reserveWith(ctx, common); err != nil {
		return err
	}
	return s.chargeWith(ctx, common)
}
