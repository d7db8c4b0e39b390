package p

import (
	"context"
	"math/rand/v2"
	"time"
)

// jitter is full jitter: a random wait in [0, d).
func jitter(d time.Duration) time.Duration { return rand.N(d) }

// sleep waits for d or until ctx is done, whichever comes first.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}
