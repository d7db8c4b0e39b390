// Package retry is a signature-only stub for tests.
package retry

import "github.com/aws/aws-sdk-go-v2/aws/ratelimit"

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
