package libs

import (
	"context"
	"time"

	sv "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

// A go-retry backoff that stops when a budget refuses, and a k8s
// retriable predicate that asks one, guard the retries, also through a
// variable.
func hooks(ctx context.Context, s *Store) {
	stopping := sv.BackoffFunc(func() (time.Duration, bool) { return time.Second, !storeBudget.TryRetry() })
	sv.Do(ctx, sv.WithMaxRetries(3, stopping), func(ctx context.Context) error { // want `library retry.Do \[4 attempts\] guard=storeBudget.TryRetry dep=s`
		return sv.RetryableError(s.Load(ctx))
	})
	sv.Do(ctx, sv.WithMaxRetries(3, sv.NewConstant(time.Second)), func(ctx context.Context) error { // want `library retry.Do \[4 attempts\] dep=s`
		return sv.RetryableError(s.Load(ctx))
	})
	retriable := func(err error) bool { return storeBudget.TryRetry() }
	k8sretry.OnError(wait.Backoff{Steps: 3}, retriable, func() error { return s.Load(ctx) })                        // want `library retry.OnError \[3 attempts\] guard=storeBudget.TryRetry dep=s`
	k8sretry.OnError(wait.Backoff{Steps: 3}, func(error) bool { return true }, func() error { return s.Load(ctx) }) // want `library retry.OnError \[3 attempts\] dep=s`
}
