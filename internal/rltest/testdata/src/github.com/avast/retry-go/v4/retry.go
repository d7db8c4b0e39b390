// Package retry is a signature-only stub for tests.
package retry

import (
	"context"
	"time"
)

type RetryableFunc func() error
type RetryableFuncWithData[T any] func() (T, error)
type Option func(*Config)
type Config struct{}

func Do(f RetryableFunc, opts ...Option) error { return nil }
func DoWithData[T any](f RetryableFuncWithData[T], opts ...Option) (T, error) {
	var t T
	return t, nil
}
func Attempts(n uint) Option             { return nil }
func UntilSucceeded() Option             { return nil }
func Delay(d time.Duration) Option       { return nil }
func Context(ctx context.Context) Option { return nil }
func LastErrorOnly(b bool) Option        { return nil }
func RetryIf(f func(error) bool) Option  { return nil }
func Unrecoverable(err error) error      { return err }
func IsRecoverable(err error) bool       { return true }

type Error []error

func (e Error) Error() string { return "" }

type DelayTypeFunc func(n uint, err error, config *Config) time.Duration

func DelayType(delayType DelayTypeFunc) Option                               { return nil }
func MaxJitter(d time.Duration) Option                                       { return nil }
func FixedDelay(_ uint, _ error, config *Config) time.Duration               { return 0 }
func BackOffDelay(n uint, _ error, config *Config) time.Duration             { return 0 }
func RandomDelay(_ uint, _ error, config *Config) time.Duration              { return 0 }
func FullJitterBackoffDelay(n uint, err error, config *Config) time.Duration { return 0 }
func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc                     { return nil }
