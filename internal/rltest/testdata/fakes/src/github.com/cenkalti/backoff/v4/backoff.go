// Package backoff is a behaving fake of github.com/cenkalti/backoff/v4
// for rltest.Behave: the API of the test stub, run as v4.3.0 runs it (a
// permanent error ends the retries and Retry returns the error it wraps;
// a backoff's Stop ends them with the last error).
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

type Operation func() error
type OperationWithData[T any] func() (T, error)
type Notify func(error, time.Duration)

type ExponentialBackOff struct {
	InitialInterval     time.Duration
	RandomizationFactor float64
	Multiplier          float64
	MaxInterval         time.Duration
	MaxElapsedTime      time.Duration
	start               time.Time
	current             time.Duration
}

func (b *ExponentialBackOff) NextBackOff() time.Duration {
	if b.MaxElapsedTime > 0 && time.Since(b.start) > b.MaxElapsedTime {
		return Stop
	}
	d := b.current
	b.current = time.Duration(float64(b.current) * b.Multiplier)
	if b.MaxInterval > 0 && b.current > b.MaxInterval {
		b.current = b.MaxInterval
	}
	return d
}

func (b *ExponentialBackOff) Reset() { b.start, b.current = time.Now(), b.InitialInterval }

type ExponentialBackOffOpts func(*ExponentialBackOff)

func NewExponentialBackOff(opts ...ExponentialBackOffOpts) *ExponentialBackOff {
	b := &ExponentialBackOff{InitialInterval: 500 * time.Millisecond, Multiplier: 1.5, MaxInterval: time.Minute, MaxElapsedTime: 15 * time.Minute}
	for _, o := range opts {
		o(b)
	}
	b.Reset()
	return b
}

func WithMaxElapsedTime(d time.Duration) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.MaxElapsedTime = d }
}

func WithInitialInterval(d time.Duration) ExponentialBackOffOpts {
	return func(b *ExponentialBackOff) { b.InitialInterval = d }
}

type ConstantBackOff struct{ Interval time.Duration }

func (b *ConstantBackOff) NextBackOff() time.Duration     { return b.Interval }
func (b *ConstantBackOff) Reset()                         {}
func NewConstantBackOff(d time.Duration) *ConstantBackOff { return &ConstantBackOff{Interval: d} }

type ZeroBackOff struct{}

func (b *ZeroBackOff) NextBackOff() time.Duration { return 0 }
func (b *ZeroBackOff) Reset()                     {}

type StopBackOff struct{}

func (b *StopBackOff) NextBackOff() time.Duration { return Stop }
func (b *StopBackOff) Reset()                     {}

type backOffTries struct {
	delegate BackOff
	max, n   uint64
}

func (b *backOffTries) NextBackOff() time.Duration {
	if b.max == 0 || b.n >= b.max {
		return Stop
	}
	b.n++
	return b.delegate.NextBackOff()
}

func (b *backOffTries) Reset() { b.n = 0; b.delegate.Reset() }

func WithMaxRetries(b BackOff, max uint64) BackOff { return &backOffTries{delegate: b, max: max} }

type backOffContext struct {
	BackOff
	ctx context.Context
}

func (b *backOffContext) NextBackOff() time.Duration {
	if b.ctx.Err() != nil {
		return Stop
	}
	return b.BackOff.NextBackOff()
}

func WithContext(b BackOff, ctx context.Context) BackOff { return &backOffContext{b, ctx} }

func Retry(o Operation, b BackOff) error { return RetryNotify(o, b, nil) }

func RetryNotify(o Operation, b BackOff, n Notify) error {
	_, err := RetryWithData(func() (struct{}, error) { return struct{}{}, o() }, b)
	return err
}

func RetryWithData[T any](o OperationWithData[T], b BackOff) (T, error) {
	b.Reset()
	for {
		res, err := o()
		if err == nil {
			return res, nil
		}
		var permanent *PermanentError
		if errors.As(err, &permanent) {
			return res, permanent.Err
		}
		next := b.NextBackOff()
		if next == Stop {
			if c, ok := b.(*backOffContext); ok && c.ctx.Err() != nil {
				return res, c.ctx.Err()
			}
			return res, err
		}
		time.Sleep(next)
	}
}

type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &PermanentError{Err: err}
}

// Ticker ticks after each backoff until Stop, or until the backoff stops.
type Ticker struct {
	C    <-chan time.Time
	stop chan struct{}
}

func NewTicker(b BackOff) *Ticker {
	c := make(chan time.Time)
	t := &Ticker{C: c, stop: make(chan struct{})}
	b.Reset()
	go func() {
		defer close(c)
		for d := time.Duration(0); d != Stop; d = b.NextBackOff() {
			select {
			case <-t.stop:
				return
			case <-time.After(d):
			}
			select {
			case <-t.stop:
				return
			case c <- time.Now():
			}
		}
	}()
	return t
}

func (t *Ticker) Stop() { close(t.stop) }
