// Package retry is a behaving fake of github.com/avast/retry-go/v5 for
// rltest.Behave: the API of the test stub, run as v5.1.1 runs it (a
// Retrier made by New or NewWithData keeps its options; RetryIf,
// IsRecoverable by default, decides whether a failure is retried, asked
// after every failure, the last one included; Do returns the list of the
// attempts' errors, or the last one with LastErrorOnly). Throttles and
// delay types are accepted and not run.
package retry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

type RetryableFunc func() error
type RetryableFuncWithData[T any] func() (T, error)
type RetryIfFunc func(error) bool
type Option func(*Config)
type Config struct {
	attempts      uint
	delay         time.Duration
	ctx           context.Context
	lastErrorOnly bool
	retryIf       RetryIfFunc
}
type Retrier struct{ c *Config }
type RetrierWithData[T any] struct{ c *Config }
type ThrottleManager interface{ AllowRetry() bool }
type FixedTokenBucketThrottleConfig struct{ MaxCapacity, ThrottleCost int }
type DelayTypeFunc func(n uint, err error, config *Config) time.Duration

func newConfig(opts []Option) *Config {
	c := &Config{attempts: 10, delay: 100 * time.Millisecond, ctx: context.Background(), retryIf: IsRecoverable}
	for _, o := range opts {
		o(c)
	}
	return c
}

func New(opts ...Option) *Retrier { return &Retrier{newConfig(opts)} }
func NewWithData[T any](opts ...Option) *RetrierWithData[T] {
	return &RetrierWithData[T]{newConfig(opts)}
}

func (r *Retrier) Do(f RetryableFunc) error {
	_, err := do(r.c, func() (struct{}, error) { return struct{}{}, f() })
	return err
}

func (r *RetrierWithData[T]) Do(f RetryableFuncWithData[T]) (T, error) { return do(r.c, f) }

func do[T any](c *Config, f RetryableFuncWithData[T]) (T, error) {
	var zero T
	if err := context.Cause(c.ctx); err != nil {
		return zero, err
	}
	var log Error
	var lastErr error
	for n := uint(0); ; n++ {
		v, err := f()
		if err == nil {
			return v, nil
		}
		if c.attempts == 0 {
			if !IsRecoverable(err) || !c.retryIf(err) {
				return zero, err
			}
		} else {
			if c.lastErrorOnly {
				lastErr = unpack(err)
			} else {
				log = append(log, unpack(err))
			}
			if !c.retryIf(err) {
				break
			}
			if n == c.attempts-1 {
				break
			}
		}
		t := time.NewTimer(c.delay)
		select {
		case <-c.ctx.Done():
			t.Stop()
			if c.lastErrorOnly || c.attempts == 0 {
				return zero, context.Cause(c.ctx)
			}
			return zero, append(log, context.Cause(c.ctx))
		case <-t.C:
		}
	}
	if c.lastErrorOnly {
		return zero, lastErr
	}
	return zero, log
}

func Attempts(n uint) Option       { return func(c *Config) { c.attempts = n } }
func Delay(d time.Duration) Option { return func(c *Config) { c.delay = d } }
func LastErrorOnly(lastErrorOnly bool) Option {
	return func(c *Config) { c.lastErrorOnly = lastErrorOnly }
}
func RetryIf(retryIf RetryIfFunc) Option {
	if retryIf == nil {
		return func(*Config) {}
	}
	return func(c *Config) { c.retryIf = retryIf }
}
func WithThrottle(t ThrottleManager) Option                                { return func(*Config) {} }
func WithFixedTokenBucketThrottle(c FixedTokenBucketThrottleConfig) Option { return func(*Config) {} }
func DelayType(delayType DelayTypeFunc) Option                             { return func(*Config) {} }
func FixedDelay(_ uint, _ error, config *Config) time.Duration             { return config.delay }
func BackOffDelay(n uint, _ error, config *Config) time.Duration           { return config.delay << n }
func RandomDelay(_ uint, _ error, config *Config) time.Duration            { return 0 }
func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc {
	return func(n uint, err error, c *Config) time.Duration {
		var d time.Duration
		for _, f := range delays {
			d += f(n, err, c)
		}
		return d
	}
}

type unrecoverable struct{ error }

func (u unrecoverable) Unwrap() error { return u.error }

func Unrecoverable(err error) error { return unrecoverable{err} }

func IsRecoverable(err error) bool { return !errors.As(err, new(unrecoverable)) }

func unpack(err error) error {
	if u, ok := err.(unrecoverable); ok {
		return u.error
	}
	return err
}

// Error lists the attempts' errors, as v5's Error prints them.
type Error []error

func (e Error) Error() string {
	lines := make([]string, len(e))
	for i, l := range e {
		if l != nil {
			lines[i] = fmt.Sprintf("#%d: %s", i+1, l.Error())
		}
	}
	return fmt.Sprintf("All attempts fail:\n%s", strings.Join(lines, "\n"))
}
