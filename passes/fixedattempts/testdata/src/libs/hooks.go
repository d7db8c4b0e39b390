package libs

import (
	"context"
	"time"

	retry5 "github.com/avast/retry-go/v5"
	"github.com/retrylint/retrylint/budget"
	goretry "github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

var storeBudget = budget.New()

// The hooks of the fixes, written by hand: a go-retry backoff that stops
// when the budget refuses, a k8s retriable predicate and a retry-go v5
// RetryIf that ask it. Silent.
func hooked(ctx context.Context, s *Store) {
	goretry.Do(ctx, goretry.BackoffFunc(func() (time.Duration, bool) {
		if !storeBudget.TryRetry() {
			return 0, true
		}
		return time.Millisecond, false
	}), func(ctx context.Context) error { return goretry.RetryableError(s.Load(ctx)) })
	stopping := goretry.BackoffFunc(func() (time.Duration, bool) { return time.Millisecond, !storeBudget.TryRetry() })
	goretry.Do(ctx, goretry.WithMaxRetries(3, stopping), func(ctx context.Context) error { return goretry.RetryableError(s.Load(ctx)) })
	k8sretry.OnError(wait.Backoff{Steps: 4}, func(err error) bool { return storeBudget.TryRetry() }, func() error { return s.Load(ctx) })
	retry5.New(retry5.Attempts(3), retry5.RetryIf(func(err error) bool { return storeBudget.TryRetry() })).Do(func() error { return s.Load(ctx) })
}

// The same calls with no budget asked: reported.
func unhooked(ctx context.Context, s *Store) {
	goretry.Do(ctx, goretry.WithMaxRetries(3, goretry.NewConstant(time.Millisecond)), func(ctx context.Context) error { // want `retry.Do makes up to 4 attempts with no retry budget`
		return goretry.RetryableError(s.Load(ctx))
	})
	goretry.Fibonacci(ctx, time.Millisecond, func(ctx context.Context) error { return goretry.RetryableError(s.Load(ctx)) })     // want `retry.Fibonacci retries without bound`
	k8sretry.OnError(wait.Backoff{Steps: 4}, func(err error) bool { return true }, func() error { return s.Load(ctx) })          // want `retry.OnError makes up to 4 attempts with no retry budget`
	retry5.New(retry5.Attempts(3), retry5.RetryIf(func(err error) bool { return true })).Do(func() error { return s.Load(ctx) }) // want `retry.\(\*Retrier\).Do makes up to 3 attempts with no retry budget`
}

// Look-alikes of the hooked names that are no library: silent.
type backoffs struct{}

func (backoffs) Do(ctx context.Context, b goretry.Backoff, f goretry.RetryFunc) error { return f(ctx) }
func OnError(b wait.Backoff, retriable func(error) bool, fn func() error) error       { return fn() }

func lookalikes(ctx context.Context, s *Store) {
	backoffs{}.Do(ctx, goretry.NewConstant(time.Millisecond), func(ctx context.Context) error { return goretry.RetryableError(s.Load(ctx)) })
	OnError(wait.Backoff{Steps: 4}, func(error) bool { return true }, func() error { return s.Load(ctx) })
}
