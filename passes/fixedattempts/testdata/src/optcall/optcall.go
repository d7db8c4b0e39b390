// Package optcall calls retry helpers that take a budget, and gives them
// none: each call gets its own dependency's budget.
package optcall

import (
	"context"

	"optcall/retry"
)

type Store interface {
	Put(ctx context.Context, v string) error
}

type Shop struct {
	inventory Store
	payments  Store
}

func (s *Shop) Reserve(ctx context.Context, item string) error {
	return retry.Do(ctx, func(ctx context.Context) error { return s.inventory.Put(ctx, item) }) // want `retry.Do is given no retry budget`
}

func (s *Shop) Charge(ctx context.Context, amount string) error {
	return retry.With(ctx, nil, func(ctx context.Context) error { return s.payments.Put(ctx, amount) }) // want `retry.With is given no retry budget`
}

// A call that passes a budget is no finding.
func (s *Shop) Restock(ctx context.Context, item string) error {
	return retry.Do(ctx, func(ctx context.Context) error { return s.inventory.Put(ctx, item) }, restockBudget)
}
