// Package retrypolicy is a signature-only stub for tests.
package retrypolicy

import "time"

type RetryPolicy[R any] interface{ isPolicy() }
type Builder[R any] interface {
	WithMaxRetries(n int) Builder[R]
	WithMaxAttempts(n int) Builder[R]
	WithMaxDuration(d time.Duration) Builder[R]
	WithBackoff(d, max time.Duration) Builder[R]
	WithBudget(b any) Builder[R]
	Build() RetryPolicy[R]
}

func NewBuilder[R any]() Builder[R]          { return nil }
func NewWithDefaults[R any]() RetryPolicy[R] { return nil }
