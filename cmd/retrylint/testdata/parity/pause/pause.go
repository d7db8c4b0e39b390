// Package pause waits (a sleep-helper fact) and computes waits (a delay
// fact).
package pause

import (
	"context"
	"time"
)

// For waits d or until ctx is done.
func For(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Linear is the wait before attempt n, with no random term.
func Linear(n int) time.Duration { return time.Duration(n+1) * 100 * time.Millisecond }
