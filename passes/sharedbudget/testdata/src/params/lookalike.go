package params

import (
	"context"
	"errors"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Look-alikes: functions that take a budget and retry one dependency,
// their callers choosing the budget per dependency.

func (s *Service) PerDependency(ctx context.Context) error {
	if err := s.reserveWith(ctx, s.invBudget); err != nil {
		return err
	}
	return s.chargeWith(ctx, s.payBudget)
}

func (s *Service) TwoLocals(ctx context.Context) error {
	inv := budget.New()
	pay := budget.New()
	if err := s.reserveWith(ctx, inv); err != nil {
		return err
	}
	return s.chargeWith(ctx, pay)
}

func (s *Service) TwoCalls(ctx context.Context) error {
	if err := s.reserveWith(ctx, budget.New()); err != nil {
		return err
	}
	return s.chargeWith(ctx, budget.New())
}

// The same budget for the same dependency twice.
func (s *Service) Twice(ctx context.Context) error {
	b := budget.New()
	if err := s.reserveWith(ctx, b); err != nil {
		return err
	}
	return s.reserveWith(ctx, b)
}

// No caller in the package, one dependency.
func (s *Service) ReserveWith(ctx context.Context, b *budget.Budget) error {
	for i := 0; i < 3; i++ {
		err := s.inventory.Reserve(ctx)
		if err == nil || !b.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// A budget that may change before the call, or that is looked up by a
// key that follows the dependency, is not one budget.
func (s *Service) Changed(ctx context.Context, other *budget.Budget, cond bool) error {
	b := budget.New()
	if cond {
		b = other
	}
	if err := s.reserveWith(ctx, b); err != nil {
		return err
	}
	return s.chargeWith(ctx, other)
}

func (s *Service) Keyed(ctx context.Context, reg *budget.Registry) error {
	if err := s.reserveWith(ctx, reg.For("inventory")); err != nil {
		return err
	}
	return s.chargeWith(ctx, reg.For("payments"))
}

// Called through a function value: the call is not followed.
func (s *Service) Value(ctx context.Context) error {
	b := budget.New()
	f := s.reserveWith
	if err := f(ctx, b); err != nil {
		return err
	}
	return s.chargeWith(ctx, b)
}

// A parameter of a function literal.
func (s *Service) Literal(ctx context.Context) error {
	retry := func(b *budget.Budget) error {
		for i := 0; i < 3; i++ {
			err := s.inventory.Reserve(ctx)
			if err == nil || !b.TryRetry() {
				return err
			}
			time.Sleep(time.Second)
		}
		return errors.New("gave up")
	}
	return retry(budget.New())
}

// A retry helper's own loop guards whatever operation it is given: its
// callers' budgets are judged at the calls.
func retryWith(b *budget.Budget, op func() error) error {
	for {
		err := op()
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}

func (s *Service) Helper(ctx context.Context) {
	retryWith(s.invBudget, func() error { return s.inventory.Reserve(ctx) })
	retryWith(s.payBudget, func() error { return s.payments.Charge(ctx) })
}
