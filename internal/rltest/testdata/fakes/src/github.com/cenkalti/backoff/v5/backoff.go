// Package backoff is a behaving fake of github.com/cenkalti/backoff/v5
// for rltest.Behave: the API of the test stub, run as v5.0.3 runs it
// (WithMaxTries counts attempts; a permanent error ends the retries and
// Retry returns the error it wraps).
package backoff

import (
	"context"
	"errors"
	"time"
)

type BackOff interface {
	NextBackOff() time.Duration
	Reset()
}

const Stop time.Duration = -1

type Operation[T any] func() (T, error)
type RetryOption func(*retryOptions)
type retryOptions struct {
	backOff        BackOff
	maxTries       uint
	maxElapsedTime time.Duration
}

func Retry[T any](ctx context.Context, operation Operation[T], opts ...RetryOption) (T, error) {
	args := &retryOptions{backOff: NewExponentialBackOff(), maxElapsedTime: 15 * time.Minute}
	for _, o := range opts {
		o(args)
	}
	args.backOff.Reset()
	start := time.Now()
	var tries uint
	for {
		var zero T
		if ctx.Err() != nil {
			return zero, context.Cause(ctx)
		}
		tries++
		res, err := operation()
		if err == nil {
			return res, nil
		}
		var permanent *PermanentError
		if errors.As(err, &permanent) {
			return res, permanent.Err
		}
		if args.maxTries > 0 && tries >= args.maxTries {
			return res, err
		}
		next := args.backOff.NextBackOff()
		if next == Stop || args.maxElapsedTime > 0 && time.Since(start)+next > args.maxElapsedTime {
			return res, err
		}
		t := time.NewTimer(next)
		select {
		case <-ctx.Done():
			t.Stop()
			return zero, context.Cause(ctx)
		case <-t.C:
		}
	}
}

func WithBackOff(b BackOff) RetryOption { return func(o *retryOptions) { o.backOff = b } }
func WithMaxTries(n uint) RetryOption   { return func(o *retryOptions) { o.maxTries = n } }
func WithMaxElapsedTime(d time.Duration) RetryOption {
	return func(o *retryOptions) { o.maxElapsedTime = d }
}

func NewExponentialBackOff() *ExponentialBackOff {
	return &ExponentialBackOff{InitialInterval: 500 * time.Millisecond}
}

func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &PermanentError{Err: err}
}

func NewConstantBackOff(d time.Duration) *ConstantBackOff { return &ConstantBackOff{Interval: d} }

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration { return b.Interval }
func (b *ConstantBackOff) Reset()                     {}

type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

type ExponentialBackOff struct {
	InitialInterval time.Duration
	current         time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration {
	d := b.current
	b.current = b.current * 3 / 2
	return d
}

func (b *ExponentialBackOff) Reset() { b.current = b.InitialInterval }
