// Package delays computes waits for other packages: the DelayFacts the
// backoff of a loop and the nojitter pass read.
package delays

import (
	"math/rand/v2"
	"time"
)

// Exp is deterministic.
func Exp(attempt int) time.Duration { // want Exp:`delay\(deterministic\)`
	return 100 * time.Millisecond << attempt
}

// Jitter is random.
func Jitter(d time.Duration) time.Duration { // want Jitter:`delay\(random\)`
	return d/2 + rand.N(d/2+1)
}

// Full is random through Jitter.
func Full(attempt int) time.Duration { // want Full:`delay\(random\)`
	return Jitter(Exp(attempt))
}

// Millis is random, and a number rather than a duration.
func Millis(n int64) int64 { // want Millis:`delay\(random\)`
	return rand.Int64N(n)
}

// Capped is deterministic; an int result gets no fact.
func Capped(n int) int {
	return min(n*2, 10)
}

type Policy struct{ Base time.Duration }

// Next is deterministic in its receiver and argument.
func (p Policy) Next(attempt int) time.Duration { // want Next:`delay\(deterministic\)`
	return p.Base * time.Duration(attempt+1)
}

// Now depends on the clock: no fact.
func Now() time.Duration { return time.Duration(time.Now().UnixNano() % 1000) }
