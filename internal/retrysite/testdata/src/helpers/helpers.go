package helpers

import (
	"context"
	"errors"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/retrylint/retrylint/budget"
)

// Do retries op up to 3 times.
func Do(ctx context.Context, op func(context.Context) error) error { // want Do:"retryHelper\\(op=1, 3 attempts, fixed\\)"
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// WithBudget retries op, guarded by b.
func WithBudget(b *budget.Budget, op func() error) error { // want WithBudget:"retryHelper\\(op=1, unbounded, guarded, budget=0\\)"
	for {
		err := op()
		if err == nil {
			return nil
		}
		if !b.TryRetry() {
			return err
		}
	}
}

// Optional retries op, guarded by the budget its caller gives, if any: a
// final variadic budget parameter, which a call may leave out.
func Optional(op func() error, budgets ...*budget.Budget) error { // want Optional:"retryHelper\\(op=0, 3 attempts, guarded, budget=1\\)"
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		if i+1 < 3 && len(budgets) > 0 && !budgets[0].TryRetry() {
			break
		}
	}
	return err
}

// Maybe asks a package budget only when it is set: a path that skips it
// is unguarded (not a parameter a caller chose).
func Maybe(op func() error) error { // want Maybe:"retryHelper\\(op=0, 3 attempts\\)"
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		if maybe != nil && !maybe.TryRetry() {
			break
		}
	}
	return err
}

var maybe *budget.Budget

// Later asks a variadic budget other than the first: no optional budget.
func Later(op func() error, budgets ...*budget.Budget) error { // want Later:"retryHelper\\(op=0, 3 attempts\\)"
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		if len(budgets) > 1 && !budgets[1].TryRetry() {
			break
		}
	}
	return err
}

// Lib retries op through a library.
func Lib(op func() error) error { // want Lib:"retryHelper\\(op=0, 6 attempts, exponential\\+jitter\\)"
	return backoff.Retry(func() error { return op() }, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 5))
}

// Wrap is a helper because it calls one with its own parameter.
func Wrap(op func(context.Context) error) error { // want Wrap:"retryHelper\\(op=0, 3 attempts, fixed\\)"
	return Do(context.Background(), op)
}

// Once calls op once: not a helper.
func Once(op func() error) error {
	return op()
}

// Each calls each function of a list: not a helper.
func Each(ops []func() error) error {
	for _, op := range ops {
		if err := op(); err == nil {
			return nil
		}
	}
	return nil
}

type tokens struct{}

func (t *tokens) TryTake() bool { return true }

// AllowRetry returns a budget's verdict.
func AllowRetry(t *tokens) bool { // want AllowRetry:"budgetCheck"
	return t.TryTake()
}

// Exhausted turns a refusal into an error.
func Exhausted(t *tokens) error { // want Exhausted:"budgetCheck"
	if !t.TryTake() {
		return errExhausted
	}
	return nil
}

// Counts uses a budget but returns something else: no verdict.
func Counts(t *tokens) int {
	if t.TryTake() {
		return 1
	}
	return 0
}

var errExhausted = errors.New("retry budget exhausted")

// Retry is counted by its parameter.
func Retry(attempts int, op func() error) error { // want Retry:"retryHelper\\(op=1, attempts attempts of parameter 0\\)"
	var err error
	for i := 0; i < attempts; i++ {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

// Op is a named type for an operation.
type Op[T any] func() (T, error)

// Value retries an operation of a named func type.
func Value[T any](op Op[T]) (T, error) { // want Value:"retryHelper\\(op=0, 3 attempts\\)"
	var v T
	var err error
	for range 3 {
		if v, err = op(); err == nil {
			return v, nil
		}
	}
	return v, err
}

// UntilDone retries op until it succeeds or ctx ends: bounded by its
// context parameter, which its callers pass.
func UntilDone(ctx context.Context, op func() error) error { // want UntilDone:"retryHelper\\(op=1, time-bounded of parameter 0, fixed\\)"
	for {
		if err := op(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// UntilDeadline's exit reads a clock of its own too: the bound names no
// parameter.
func UntilDeadline(ctx context.Context, op func() error) error { // want UntilDeadline:"retryHelper\\(op=1, time-bounded, fixed\\)"
	deadline := time.Now().Add(time.Minute)
	for {
		if err := op(); err == nil {
			return nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return errors.New("gave up")
		}
		time.Sleep(time.Second)
	}
}
