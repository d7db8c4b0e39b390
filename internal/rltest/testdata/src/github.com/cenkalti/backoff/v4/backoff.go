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

const Stop time.Duration = -1

type Operation func() error
type OperationWithData[T any] func() (T, error)
type Notify func(error, time.Duration)

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
	MaxElapsedTime      time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration { return 0 }
func (b *ExponentialBackOff) Reset()                     {}

type ExponentialBackOffOpts func(*ExponentialBackOff)

func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff { return nil }
func WithMaxElapsedTime(d time.Duration) ExponentialBackOffOpts                { return nil }
func WithInitialInterval(d time.Duration) ExponentialBackOffOpts               { return nil }
func WithRandomizationFactor(f float64) ExponentialBackOffOpts                 { return nil }

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration     { return 0 }
func (b *ConstantBackOff) Reset()                         {}
func NewConstantBackOff(d time.Duration) *ConstantBackOff { return nil }

type ZeroBackOff struct{}

func (b *ZeroBackOff) NextBackOff() time.Duration { return 0 }
func (b *ZeroBackOff) Reset()                     {}

type StopBackOff struct{}

func (b *StopBackOff) NextBackOff() time.Duration { return Stop }
func (b *StopBackOff) Reset()                     {}

func WithMaxRetries(b BackOff, max uint64) BackOff       { return nil }
func WithContext(b BackOff, ctx context.Context) BackOff { return nil }
func Retry(o Operation, b BackOff) error                 { return nil }
func RetryNotify(o Operation, b BackOff, n Notify) error { return nil }
func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) {
	var t T
	return t, nil
}
func Permanent(err error) error { return err }

type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

type Ticker struct{ C <-chan time.Time }

func NewTicker(b BackOff) *Ticker { return nil }

func (t *Ticker) Stop() {}
