// Package libnofix holds retry-library calls that look like the fixed
// ones and get no fix: the hook cannot be reached.
package libnofix

import (
	"context"
	"time"

	"github.com/avast/retry-go/v4"
	backoffv4 "github.com/cenkalti/backoff/v4"
	"github.com/retrylint/retrylint/budget"
)

var _ = budget.New

type Store struct{}

func (s *Store) Ping() error { return nil }

type Service struct {
	store *Store
	flush func() error // set by the caller: a dependency the fix cannot name
}

// The operation is a function value in a field: what it calls, and so
// its dependency, is not known here.
func (s *Service) Drain() error {
	return backoffv4.Retry(s.flush, backoffv4.WithMaxRetries(backoffv4.NewConstantBackOff(time.Millisecond), 2)) // want `backoff.Retry makes up to 3 attempts`
}

// The options are passed as a slice: a RetryIf among them would be
// replaced, or would replace ours.
func (s *Service) Sync(ctx context.Context, opts []retry.Option) error {
	return retry.Do(func() error { return s.store.Ping() }, opts...) // want `retry.Do retries with no retry budget`
}

// A condition that is a call: a wrapper would evaluate it on every
// failure instead of once.
func (s *Service) Flush(ctx context.Context) error {
	return retry.Do(func() error { return s.store.Ping() }, retry.Attempts(3), retry.RetryIf(retryable())) // want `retry.Do makes up to 3 attempts`
}

func retryable() func(error) bool { return func(error) bool { return true } }
