// Package retry is a signature-only stub for tests.
package retry

import (
	"context"
	"time"
)

type Backoff interface{ Next() (time.Duration, bool) }
type BackoffFunc func() (time.Duration, bool)
type RetryFunc func(ctx context.Context) error
type RetryFuncValue[T any] func(ctx context.Context) (T, error)

func (b BackoffFunc) Next() (time.Duration, bool) { return b() }

func Do(ctx context.Context, b Backoff, f RetryFunc) error { return nil }
func DoValue[T any](ctx context.Context, b Backoff, f RetryFuncValue[T]) (T, error) {
	var t T
	return t, nil
}
func Constant(ctx context.Context, t time.Duration, f RetryFunc) error    { return nil }
func Exponential(ctx context.Context, t time.Duration, f RetryFunc) error { return nil }
func Fibonacci(ctx context.Context, t time.Duration, f RetryFunc) error   { return nil }
func NewExponential(t time.Duration) Backoff                              { return nil }
func NewConstant(t time.Duration) Backoff                                 { return nil }
func NewFibonacci(t time.Duration) Backoff                                { return nil }
func WithMaxRetries(max uint64, next Backoff) Backoff                     { return nil }
func WithMaxDuration(timeout time.Duration, next Backoff) Backoff         { return nil }
func WithCappedDuration(cap time.Duration, next Backoff) Backoff          { return nil }
func WithJitter(j time.Duration, next Backoff) Backoff                    { return nil }
func WithJitterPercent(j uint64, next Backoff) Backoff                    { return nil }
func WithFullJitter(next Backoff) Backoff                                 { return nil }
func RetryableError(err error) error                                      { return err }
