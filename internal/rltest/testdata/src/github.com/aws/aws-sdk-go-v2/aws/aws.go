// Package aws is a signature-only stub for tests.
package aws

import (
	"context"
	"time"
)

type Retryer interface {
	IsErrorRetryable(error) bool
	MaxAttempts() int
	RetryDelay(attempt int, opErr error) (time.Duration, error)
	GetRetryToken(ctx context.Context, opErr error) (releaseToken func(error) error, err error)
	GetInitialToken() (releaseToken func(error) error)
}

type RetryMode string

type Config struct {
	Region           string
	Retryer          func() Retryer
	RetryMaxAttempts int
	RetryMode        RetryMode
}

func (c Config) Copy() Config { return c }

type NopRetryer struct{}

func (NopRetryer) IsErrorRetryable(error) bool                  { return false }
func (NopRetryer) MaxAttempts() int                             { return 1 }
func (NopRetryer) RetryDelay(int, error) (time.Duration, error) { return 0, nil }
func (NopRetryer) GetRetryToken(context.Context, error) (func(error) error, error) {
	return nil, nil
}
func (NopRetryer) GetInitialToken() func(error) error { return nil }

func String(v string) *string { return &v }
