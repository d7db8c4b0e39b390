// Package outside calls the exported helpers of package exported as
// another package of the module would: its calls pass no budget, and
// compile and retry as before once the helpers are fixed.
package outside

import (
	"context"

	"exported"
)

type Queue struct {
	broker interface {
		Send(ctx context.Context) error
	}
}

func (q *Queue) Send(ctx context.Context) error {
	return exported.Retry(ctx, q.broker.Send)
}

func (q *Queue) Peek(ctx context.Context) (int, error) {
	return exported.Do(ctx, 2, func(ctx context.Context) (int, error) { return 1, q.broker.Send(ctx) })
}
