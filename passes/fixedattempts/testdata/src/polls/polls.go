// Package polls calls poll helpers of its module: a call retries where
// its condition answers (false, nil) after a failure.
package polls

import (
	"context"
	"errors"
	"time"

	"polls/wait"

	"github.com/retrylint/retrylint/budget"
)

// Store is a dependency.
type Store interface {
	Put(ctx context.Context, key string) error
	Ready(ctx context.Context) (bool, error)
}

type Service struct {
	store  Store
	budget *budget.Budget
}

// The condition swallows the failure into "not done": every failure is
// polled again, up to the backoff's steps.
func (s *Service) Save(ctx context.Context, key string) error {
	return wait.ExponentialBackoff(wait.Backoff{Duration: time.Millisecond, Factor: 2, Steps: 5}, func() (bool, error) { // want `poll helper wait\.ExponentialBackoff, whose condition goes round on a failure, retries with no retry budget`
		if err := s.store.Put(ctx, key); err != nil {
			return false, nil
		}
		return true, nil
	})
}

// The same through a helper that counts its calls.
func (s *Service) SaveN(ctx context.Context, key string) error {
	return wait.Poll(time.Millisecond, 4, func() (bool, error) { // want `poll helper wait\.Poll, whose condition goes round on a failure, makes up to 4 attempts with no retry budget`
		err := s.store.Put(ctx, key)
		if err != nil {
			return false, nil
		}
		return true, nil
	})
}

// Look-alike: a poll for a state, whose failure ends the wait: no retry.
func (s *Service) AwaitReady(ctx context.Context) error {
	return wait.Poll(time.Millisecond, 4, func() (bool, error) {
		ready, err := s.store.Ready(ctx)
		if err != nil {
			return false, err
		}
		return ready, nil
	})
}

// Look-alike: the condition asks a budget before polling a failure
// again, and returns the failure once it refuses.
func (s *Service) SaveBudgeted(ctx context.Context, key string) error {
	s.budget.OnRequest()
	return wait.Poll(time.Millisecond, 4, func() (bool, error) {
		if err := s.store.Put(ctx, key); err != nil {
			if !s.budget.TryRetry() {
				return false, err
			}
			return false, nil
		}
		return true, nil
	})
}

// Look-alike: a loop over work is no poll, though it waits.
func (s *Service) SaveAll(ctx context.Context, keys []string) error {
	return wait.Each(keys, func(k string) error {
		return s.store.Put(ctx, k)
	})
}

// Look-alike: a helper that leaves when the condition answers false
// stops at the first failure: no retry.
func (s *Service) SaveWhile(ctx context.Context, key string) error {
	return wait.While(time.Millisecond, func() (bool, error) {
		if err := s.store.Put(ctx, key); err != nil {
			return false, nil
		}
		return true, nil
	})
}

var errUnused = errors.New("unused")
