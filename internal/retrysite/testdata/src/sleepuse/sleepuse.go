// Package sleepuse has helpers of its own, built on another package's.
package sleepuse

import (
	"context"
	"time"

	"sleepers"
)

// nap sleeps blind, itself.
func nap(d time.Duration) { time.Sleep(d) } // want nap:`sleepHelper\(blind\)`

// pause sleeps blind through another package's helper (its fact).
func pause(attempt int) { sleepers.Jittered(time.Second, attempt) } // want pause:`sleepHelper\(blind\)`

// rest watches the context through another package's helper.
func rest(ctx context.Context) error { return sleepers.Sleep(ctx, time.Second) } // want rest:`sleepHelper\(aware\)`

// fetch does more than wait: no helper.
func fetch(ctx context.Context, d *sleepers.Dialer) int { return d.Dial() }
