// Package exported holds exported retry helpers. Callers in other packages
// call them too, and a fix cannot update those calls: each helper gets an
// optional budget parameter, a final variadic one, that the calls of this
// package fill with their dependency's budget and the others leave out
// (they keep compiling, and retry as they did).
package exported

import (
	"context"
	"fmt"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Store is a dependency.
type Store interface {
	Put(ctx context.Context, v string) error
}

type Shop struct {
	inventory Store
	payments  Store
}

// Retry is exported: the package's two callers pass their own budgets.
func Retry(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

func (s *Shop) Reserve(ctx context.Context, item string) error {
	return Retry(ctx, func(ctx context.Context) error { return s.inventory.Put(ctx, item) })
}

func (s *Shop) Charge(ctx context.Context, amount string) error {
	return Retry(ctx, func(ctx context.Context) error { return s.payments.Put(ctx, amount) })
}

// Do counts its attempts with a parameter and returns a value: the
// budget joins the exit that bounds the attempts.
func Do[T any](ctx context.Context, attempts int, op func(context.Context) (T, error)) (T, error) {
	var zero T
	for n := 1; ; n++ { // want `up to attempts attempts`
		v, err := op(ctx)
		if err == nil {
			return v, nil
		}
		if n >= attempts {
			return zero, err
		}
		time.Sleep(time.Millisecond)
	}
}

type Ledger struct{ db Store }

func (l *Ledger) Post(ctx context.Context, entry string) (string, error) {
	return Do(ctx, 4, func(ctx context.Context) (string, error) { return entry, l.db.Put(ctx, entry) })
}

// Attempt decides with a verdict whose continue is the way to the next
// attempt, and says how many it made when none is left: the optional
// budget joins the verdict, so a refusal says the same.
func Attempt(ctx context.Context, op func(context.Context) error) error {
	for n := 1; ; n++ { // want `up to 3 attempts`
		err := op(ctx)
		if err == nil {
			return nil
		}
		again := n < 3
		if again {
			time.Sleep(time.Millisecond)
			continue
		}
		return fmt.Errorf("after %d attempts: %w", n, err)
	}
}

type Journal struct{ log Store }

func (j *Journal) Write(ctx context.Context, line string) error {
	return Attempt(ctx, func(ctx context.Context) error { return j.log.Put(ctx, line) })
}

// Unused has no caller in the package: only its own parameter changes.
func Unused(op func() error) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

var _ = budget.New
