// Package sleepers holds sleep helpers for other packages: each gets a
// SleepFact, blind or aware; the look-alikes that do more than wait get none.
package sleepers

import (
	"context"
	"log"
	"math/rand/v2"
	"time"
)

// Pause sleeps blind.
func Pause(d time.Duration) { // want Pause:`sleepHelper\(blind\)`
	time.Sleep(d)
}

// Jittered computes, logs and sleeps blind: still a sleep helper.
func Jittered(base time.Duration, attempt int) { // want Jittered:`sleepHelper\(blind\)`
	d := base << attempt
	d += rand.N(d)
	log.Printf("retrying in %v", d)
	Pause(d)
}

// Sleep watches the context.
func Sleep(ctx context.Context, d time.Duration) error { // want Sleep:`sleepHelper\(aware\)`
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Backoff watches the context through Sleep.
func Backoff(ctx context.Context, attempt int) error { // want Backoff:`sleepHelper\(aware\)`
	return Sleep(ctx, time.Duration(attempt)*time.Second)
}

// Ignores takes a context and ignores it.
func Ignores(ctx context.Context, d time.Duration) { // want Ignores:`sleepHelper\(blind\)`
	time.Sleep(d)
}

type Dialer struct{ conns chan int }

// Dial does more than wait: no sleep helper.
func (d *Dialer) Dial() int {
	time.Sleep(time.Millisecond)
	return <-d.conns
}

// Compute never waits: no sleep helper (its result is a deterministic
// duration).
func Compute(attempt int) time.Duration { return time.Duration(attempt) * time.Second } // want Compute:`delay\(deterministic\)`

// Spawn starts a goroutine: no sleep helper.
func Spawn(d time.Duration) {
	go time.Sleep(d)
	time.Sleep(d)
}
