// Package retry is a behaving fake of github.com/sethvargo/go-retry for
// rltest.Behave: the API of the test stub, run as v0.5.0 runs it (only
// errors marked by RetryableError are retried; when the backoff's Next
// says stop, Do returns the last error, unwrapped; Constant, Exponential
// and Fibonacci are Do with NewConstant, NewExponential, NewFibonacci).
package retry

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"
)

type Backoff interface {
	Next() (next time.Duration, stop bool)
}

type BackoffFunc func() (time.Duration, bool)

func (b BackoffFunc) Next() (time.Duration, bool) { return b() }

type RetryFunc func(ctx context.Context) error
type RetryFuncValue[T any] func(ctx context.Context) (T, error)

type retryableError struct{ err error }

func (e *retryableError) Unwrap() error { return e.err }
func (e *retryableError) Error() string { return "retryable: " + e.err.Error() }

func RetryableError(err error) error {
	if err == nil {
		return nil
	}
	return &retryableError{err}
}

func DoValue[T any](ctx context.Context, b Backoff, f RetryFuncValue[T]) (T, error) {
	var zero T
	for {
		if err := context.Cause(ctx); err != nil {
			return zero, err
		}
		v, err := f(ctx)
		if err == nil {
			return v, nil
		}
		var r *retryableError
		if !errors.As(err, &r) {
			return zero, err
		}
		next, stop := b.Next()
		if stop {
			return zero, r.Unwrap()
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
		case <-t.C:
		}
	}
}

func Do(ctx context.Context, b Backoff, f RetryFunc) error {
	_, err := DoValue(ctx, b, func(ctx context.Context) (struct{}, error) { return struct{}{}, f(ctx) })
	return err
}

func Constant(ctx context.Context, t time.Duration, f RetryFunc) error {
	return Do(ctx, NewConstant(t), f)
}

func Exponential(ctx context.Context, t time.Duration, f RetryFunc) error {
	return Do(ctx, NewExponential(t), f)
}

func Fibonacci(ctx context.Context, t time.Duration, f RetryFunc) error {
	return Do(ctx, NewFibonacci(t), f)
}

func NewConstant(t time.Duration) Backoff {
	if t <= 0 {
		panic("t must be greater than 0")
	}
	return BackoffFunc(func() (time.Duration, bool) { return t, false })
}

func NewExponential(t time.Duration) Backoff {
	if t <= 0 {
		panic("base must be greater than 0")
	}
	var mu sync.Mutex
	n := 0
	return BackoffFunc(func() (time.Duration, bool) {
		mu.Lock()
		defer mu.Unlock()
		d := t << n
		if n < 32 {
			n++
		}
		return d, false
	})
}

func NewFibonacci(t time.Duration) Backoff {
	if t <= 0 {
		panic("base must be greater than 0")
	}
	var mu sync.Mutex
	a, b := time.Duration(0), t
	return BackoffFunc(func() (time.Duration, bool) {
		mu.Lock()
		defer mu.Unlock()
		a, b = b, a+b
		return a, false
	})
}

func WithMaxRetries(max uint64, next Backoff) Backoff {
	var mu sync.Mutex
	var n uint64
	return BackoffFunc(func() (time.Duration, bool) {
		mu.Lock()
		defer mu.Unlock()
		if n >= max {
			return 0, true
		}
		n++
		d, stop := next.Next()
		if stop {
			return 0, true
		}
		return d, false
	})
}

func WithMaxDuration(timeout time.Duration, next Backoff) Backoff {
	start := time.Now()
	return BackoffFunc(func() (time.Duration, bool) {
		left := timeout - time.Since(start)
		if left <= 0 {
			return 0, true
		}
		d, stop := next.Next()
		if stop {
			return 0, true
		}
		return min(d, left), false
	})
}

func WithCappedDuration(cap time.Duration, next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		if stop {
			return 0, true
		}
		return min(d, cap), false
	})
}

func WithJitter(j time.Duration, next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		if stop {
			return 0, true
		}
		if j > 0 {
			d += time.Duration(rand.Int64N(2*int64(j))) - j
		}
		return max(d, 0), false
	})
}

func WithJitterPercent(j uint64, next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		if stop {
			return 0, true
		}
		if span := int64(d) * int64(j) / 100; span > 0 {
			d += time.Duration(rand.Int64N(2*span) - span)
		}
		return max(d, 0), false
	})
}

func WithFullJitter(next Backoff) Backoff {
	return BackoffFunc(func() (time.Duration, bool) {
		d, stop := next.Next()
		if stop {
			return 0, true
		}
		if d > 0 {
			d = time.Duration(rand.Int64N(int64(d)))
		}
		return d, false
	})
}
