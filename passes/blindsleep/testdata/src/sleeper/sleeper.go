// Package sleeper holds sleep helpers for other packages.
package sleeper

import (
	"context"
	"log"
	"math/rand/v2"
	"time"
)

// Pause sleeps blind.
func Pause(d time.Duration) {
	time.Sleep(d)
}

// Jittered computes, logs and sleeps blind: still a sleep helper.
func Jittered(base time.Duration, attempt int) {
	d := base << attempt
	d += rand.N(d)
	log.Printf("retrying in %v", d)
	Pause(d)
}

// Sleep watches the context.
func Sleep(ctx context.Context, d time.Duration) error {
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
func Backoff(ctx context.Context, attempt int) error {
	return Sleep(ctx, time.Duration(attempt)*time.Second)
}

// Ignores takes a context and ignores it.
func Ignores(ctx context.Context, d time.Duration) {
	time.Sleep(d)
}

type Dialer struct{ conns chan int }

// Dial does more than wait: no sleep helper.
func (d *Dialer) Dial() int {
	time.Sleep(time.Millisecond)
	return <-d.conns
}

// Compute never waits: no fact.
func Compute(attempt int) time.Duration { return time.Duration(attempt) * time.Second }

// Spawn starts a goroutine: no sleep helper.
func Spawn(d time.Duration) {
	go time.Sleep(d)
	time.Sleep(d)
}
