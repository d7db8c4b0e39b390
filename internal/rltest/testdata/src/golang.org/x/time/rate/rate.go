// Package rate is a signature-only stub for tests.
package rate

import (
	"context"
	"time"
)

type Limit float64
type Limiter struct{}
type Reservation struct{}

func NewLimiter(r Limit, b int) *Limiter          { return nil }
func Every(d time.Duration) Limit                 { return 0 }
func (l *Limiter) Allow() bool                    { return true }
func (l *Limiter) Wait(ctx context.Context) error { return nil }
func (l *Limiter) Reserve() *Reservation          { return nil }
