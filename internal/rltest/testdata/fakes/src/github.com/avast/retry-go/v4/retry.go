// Package retry is a behaving fake of github.com/avast/retry-go/v4 for
// rltest.Behave: the API of the test stub, run as v4.6 runs it (RetryIf,
// IsRecoverable by default, decides whether a failure is retried; Do
// returns the list of the attempts' errors, or the last one with
// LastErrorOnly).
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
type Option func(*Config)
type Config struct {
	attempts      uint
	delay         time.Duration
	ctx           context.Context
	lastErrorOnly bool
	retryIf       func(error) bool
}

func Do(f RetryableFunc, opts ...Option) error {
	_, err := DoWithData(func() (struct{}, error) { return struct{}{}, f() }, opts...)
	return err
}

func DoWithData[T any](f RetryableFuncWithData[T], opts ...Option) (T, error) {
	c := &Config{attempts: 10, delay: 100 * time.Millisecond, ctx: context.Background(), retryIf: IsRecoverable}
	for _, o := range opts {
		o(c)
	}
	var zero T
	var log Error
	for n := uint(0); ; n++ {
		v, err := f()
		if err == nil {
			return v, nil
		}
		log = append(log, unpack(err))
		if !c.retryIf(err) {
			break
		}
		if c.attempts != 0 && n == c.attempts-1 {
			break
		}
		t := time.NewTimer(c.delay)
		select {
		case <-c.ctx.Done():
			t.Stop()
			log = append(log, c.ctx.Err())
			return zero, log
		case <-t.C:
		}
	}
	if c.lastErrorOnly {
		return zero, log.Unwrap()
	}
	return zero, log
}

func Attempts(n uint) Option             { return func(c *Config) { c.attempts = n } }
func UntilSucceeded() Option             { return func(c *Config) { c.attempts = 0 } }
func Delay(d time.Duration) Option       { return func(c *Config) { c.delay = d } }
func Context(ctx context.Context) Option { return func(c *Config) { c.ctx = ctx } }
func LastErrorOnly(b bool) Option        { return func(c *Config) { c.lastErrorOnly = b } }
func RetryIf(f func(error) bool) Option  { return func(c *Config) { c.retryIf = f } }

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

func (e Error) Unwrap() error {
	if len(e) == 0 {
		return nil
	}
	return e[len(e)-1]
}
