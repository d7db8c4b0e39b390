package helpers

import (
	"context"
	"time"

	"github.com/retrylint/retrylint/budget"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
}

// A helper's loop is reported once, where it is, with its calls as
// related information; the calls are not reported.
func retry(attempts int, op func() error) error {
	var err error
	for i := 0; i < attempts; i++ { // want `retry loop of retry helper retry makes up to attempts attempts \(its parameter attempts\) with no retry budget: a failing dependency gets that many times its load, at each of its 2 calls`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *Service) use(ctx context.Context) error {
	if err := retry(3, func() error { return s.inventory.Reserve(ctx) }); err != nil {
		return err
	}
	return retry(5, func() error { return s.payments.Charge(ctx) })
}

// A named func type for the operation, and a method value passed as it.
type OpFn[T any] func() (T, error)

func Value[T any](op OpFn[T]) (T, error) {
	var v T
	var err error
	for range 3 { // want `retry loop of retry helper Value makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load, at its 1 call`
		if v, err = op(); err == nil {
			return v, nil
		}
	}
	return v, err
}

type Ledger struct{}

func (l *Ledger) Balance() (int, error) { return 0, nil }

func balance(l *Ledger) (int, error) {
	return Value(OpFn[int](l.Balance))
}

// A helper that takes a budget: its loop is guarded, and a call that
// passes none is reported.
func withBudget(b *budget.Budget, op func() error) error {
	b.OnRequest()
	for {
		err := op()
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}

var reserveBudget = budget.New()

func (s *Service) budgeted(ctx context.Context) {
	withBudget(reserveBudget, func() error { return s.inventory.Reserve(ctx) })
	withBudget(nil, func() error { return s.payments.Charge(ctx) }) // want `withBudget is given no retry budget: its retries \(unbounded\) are unbudgeted`
}

// A helper whose operation says whether it wants another go (issue 30):
// the value the loop goes round on is the retry, whatever its name; the
// loop is reported once, its call is related information.
func untilSettled(f func(int) (bool, error), attempts int) error {
	var err error
	var shouldContinue bool
	for i := 0; ; i++ { // want `retry loop of retry helper untilSettled makes up to attempts attempts \(when attempts > 0 && i >= attempts - 1\) with no retry budget: a failing dependency gets that many times its load, at its 1 call`
		shouldContinue, err = f(i)
		if !shouldContinue {
			return err
		}
		if attempts > 0 && i >= attempts-1 {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *Service) settle(ctx context.Context) error {
	return untilSettled(func(int) (bool, error) {
		if err := s.payments.Charge(ctx); err != nil {
			return true, err
		}
		return false, nil
	}, 4)
}
