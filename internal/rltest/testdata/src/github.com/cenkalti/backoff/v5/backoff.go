// Package backoff is a signature-only stub for tests.
package backoff

import (
	"context"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

type Operation[T any] func() (T, error)
type RetryOption func(*retryOptions)
type retryOptions struct{}

func Retry[T any](ctx context.Context, operation Operation[T], opts ...RetryOption) (T, error) {
	var t T
	return t, nil
}
func WithBackOff(b BackOff) RetryOption                   { return nil }
func WithMaxTries(n uint) RetryOption                     { return nil }
func WithMaxElapsedTime(d time.Duration) RetryOption      { return nil }
func NewExponentialBackOff() *ExponentialBackOff          { return nil }
func Permanent(err error) error                           { return err }
func NewConstantBackOff(d time.Duration) *ConstantBackOff { return nil }

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration { return 0 }
func (b *ConstantBackOff) Reset()                     {}

type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}
