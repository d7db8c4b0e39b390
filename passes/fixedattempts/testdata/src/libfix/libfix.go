// Package libfix holds retry-library calls fixed through the library's
// hook: backoff.Permanent from the operation, a retry-go RetryIf.
package libfix

import (
	"context"
	"errors"
	"time"

	"github.com/avast/retry-go/v4"
	backoffv4 "github.com/cenkalti/backoff/v4"
	"github.com/cenkalti/backoff/v5"
	"github.com/retrylint/retrylint/budget"
)

var _ = budget.New

// Store is a dependency.
type Store interface {
	Get(ctx context.Context) (string, error)
	Put(ctx context.Context) error
}

type Service struct{ inventory, payments, orders, ledger, stock, audit, refunds Store }

// backoff v5: a refused retry makes the operation's failure permanent,
// and Retry returns it.
func (s *Service) Lookup(ctx context.Context) (string, error) {
	return backoff.Retry(ctx, func() (string, error) { // want `backoff.Retry makes up to 3 attempts`
		return s.inventory.Get(ctx)
	}, backoff.WithBackOff(backoff.NewConstantBackOff(time.Millisecond)), backoff.WithMaxTries(3))
}

// backoff v4, an operation that returns only an error.
func (s *Service) Save(ctx context.Context) error {
	err := backoffv4.Retry(func() error { return s.payments.Put(ctx) }, backoffv4.WithMaxRetries(backoffv4.NewConstantBackOff(time.Millisecond), 2)) // want `backoff.Retry makes up to 3 attempts`
	if err != nil {
		return errors.Join(errors.New("save"), err)
	}
	return nil
}

// retry-go with the default condition: the budget is asked after it.
func (s *Service) Place(ctx context.Context) error {
	return retry.Do(func() error { return s.orders.Put(ctx) }, retry.Attempts(3), retry.Delay(time.Millisecond), retry.LastErrorOnly(true)) // want `retry.Do makes up to 3 attempts`
}

var errRejected = errors.New("rejected")

func transient(err error) bool { return !errors.Is(err, errRejected) }

// retry-go with a condition of its own: the budget is asked after it;
// the error lists the attempts made.
func (s *Service) Settle(ctx context.Context) error {
	return retry.Do(func() error { return s.ledger.Put(ctx) }, retry.Attempts(3), retry.Delay(time.Millisecond), retry.RetryIf(transient)) // want `retry.Do makes up to 3 attempts`
}

// backoff v4, the operation a method value (backoff's own examples name
// it): the fix wraps it in one that returns the refusal.
func (s *Service) Refresh(ctx context.Context) error {
	return backoffv4.Retry(s.ping, backoffv4.WithMaxRetries(backoffv4.NewConstantBackOff(time.Millisecond), 2)) // want `backoff.Retry makes up to 3 attempts`
}

func (s *Service) ping() error { return s.stock.Put(context.Background()) }

// backoff v4, the operation a literal kept in a variable: the literal is
// fixed where it is written.
func (s *Service) Audit(ctx context.Context) error {
	operation := func() error { return s.audit.Put(ctx) }
	return backoffv4.Retry(operation, backoffv4.WithMaxRetries(backoffv4.NewConstantBackOff(time.Millisecond), 2)) // want `backoff.Retry makes up to 3 attempts`
}

// Quoter quotes prices from its store.
type Quoter struct{ quotes Store }

// backoff v5, a method value that returns a value and an error.
func (q *Quoter) Quote(ctx context.Context) (string, error) {
	return backoff.Retry(ctx, q.quote, backoff.WithBackOff(backoff.NewConstantBackOff(time.Millisecond)), backoff.WithMaxTries(3)) // want `backoff.Retry makes up to 3 attempts`
}

func (q *Quoter) quote() (string, error) { return q.quotes.Get(context.Background()) }

// retry-go with its options on lines of their own: the RetryIf gets a
// line of its own too.
func (s *Service) Refund(ctx context.Context) error {
	return retry.Do( // want `retry.Do makes up to 3 attempts`
		func() error { return s.refunds.Put(ctx) },
		retry.Attempts(3),
		retry.Delay(time.Millisecond),
		retry.LastErrorOnly(true),
	)
}
