// Package guard asks a budget that outlives the request (a guard fact).
package guard

import "sync"

// Budget is a retry budget shared by every request.
type Budget struct {
	mu     sync.Mutex
	tokens float64
}

// TryRetry withdraws one token.
func (b *Budget) TryRetry() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

var shared = &Budget{tokens: 10}

// Allow asks the shared budget.
func Allow() bool { return shared.TryRetry() }

// Settled holds for a nil error (a polarity fact).
func Settled(err error) bool { return err == nil }
