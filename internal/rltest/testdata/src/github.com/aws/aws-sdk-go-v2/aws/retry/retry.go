// Package retry is a signature-only stub for tests.
package retry

import (
	"context"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
)

type RateLimiter = ratelimit.RateLimiter
type StandardOptions struct {
	MaxAttempts int
	RateLimiter RateLimiter
}
type Standard struct{}
type AdaptiveModeOptions struct {
	StandardOptions []func(*StandardOptions)
}
type AdaptiveMode struct{}

func NewStandard(fnOpts ...func(*StandardOptions)) *Standard             { return nil }
func NewAdaptiveMode(optFns ...func(*AdaptiveModeOptions)) *AdaptiveMode { return nil }
func AddWithMaxAttempts(r aws.Retryer, max int) aws.Retryer              { return r }

func (s *Standard) IsErrorRetryable(error) bool                  { return false }
func (s *Standard) MaxAttempts() int                             { return 3 }
func (s *Standard) RetryDelay(int, error) (time.Duration, error) { return 0, nil }
func (s *Standard) GetRetryToken(context.Context, error) (func(error) error, error) {
	return nil, nil
}
func (s *Standard) GetInitialToken() func(error) error { return nil }

func (a *AdaptiveMode) IsErrorRetryable(error) bool                  { return false }
func (a *AdaptiveMode) MaxAttempts() int                             { return 3 }
func (a *AdaptiveMode) RetryDelay(int, error) (time.Duration, error) { return 0, nil }
func (a *AdaptiveMode) GetRetryToken(context.Context, error) (func(error) error, error) {
	return nil, nil
}
func (a *AdaptiveMode) GetInitialToken() func(error) error { return nil }
