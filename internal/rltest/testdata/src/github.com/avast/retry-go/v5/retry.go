// Package retry is a signature-only stub for tests.
package retry

import "time"

type Option func(*Config)
type Config struct{}
type Retrier struct{}
type RetrierWithData[T any] struct{}
type RetryIfFunc func(error) bool
type ThrottleManager interface{ AllowRetry() bool }
type FixedTokenBucketThrottleConfig struct{ MaxCapacity, ThrottleCost int }

func New(opts ...Option) *Retrier                           { return nil }
func (r *Retrier) Do(f func() error) error                  { return nil }
func NewWithData[T any](opts ...Option) *RetrierWithData[T] { return nil }
func (r *RetrierWithData[T]) Do(f func() (T, error)) (T, error) {
	var t T
	return t, nil
}
func Delay(d time.Duration) Option                                         { return nil }
func LastErrorOnly(lastErrorOnly bool) Option                              { return nil }
func RetryIf(retryIf RetryIfFunc) Option                                   { return nil }
func IsRecoverable(err error) bool                                         { return true }
func Unrecoverable(err error) error                                        { return err }
func Attempts(n uint) Option                                               { return nil }
func WithThrottle(t ThrottleManager) Option                                { return nil }
func WithFixedTokenBucketThrottle(c FixedTokenBucketThrottleConfig) Option { return nil }

type DelayTypeFunc func(n uint, err error, config *Config) time.Duration

func DelayType(delayType DelayTypeFunc) Option                   { return nil }
func FixedDelay(_ uint, _ error, config *Config) time.Duration   { return 0 }
func BackOffDelay(n uint, _ error, config *Config) time.Duration { return 0 }
func RandomDelay(_ uint, _ error, config *Config) time.Duration  { return 0 }
func CombineDelay(delays ...DelayTypeFunc) DelayTypeFunc         { return nil }
