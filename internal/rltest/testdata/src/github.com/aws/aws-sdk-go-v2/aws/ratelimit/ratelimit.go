// Package ratelimit is a signature-only stub for tests.
package ratelimit

import "context"

type RateLimiter interface {
	GetToken(ctx context.Context, cost uint) (func() error, error)
}
type none struct{}

func (none) GetToken(ctx context.Context, cost uint) (func() error, error) { return nil, nil }

var None = &none{}

type TokenRateLimit struct{}

func (*TokenRateLimit) GetToken(ctx context.Context, cost uint) (func() error, error) {
	return nil, nil
}
func NewTokenRateLimit(tokens uint) *TokenRateLimit { return nil }
