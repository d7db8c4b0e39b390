// Package gax is a stub of github.com/googleapis/gax-go/v2: the backoff
// and the sleep its callers' retry loops use.
package gax

import (
	"context"
	"time"
)

// Backoff grows its pause and draws it uniformly below (full jitter).
type Backoff struct {
	Initial    time.Duration
	Max        time.Duration
	Multiplier float64
}

func (bo *Backoff) Pause() time.Duration { return bo.Initial }

// Sleep waits d or until ctx ends.
func Sleep(ctx context.Context, d time.Duration) error { return nil }
