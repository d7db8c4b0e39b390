package helperuse

import (
	"context"

	"github.com/retrylint/retrylint/budget"
	"helpers"
)

type Orders struct{}

func (o *Orders) Get(ctx context.Context) error { return nil }

var shared = budget.New()

func use(ctx context.Context, o *Orders) {
	helpers.Do(ctx, func(ctx context.Context) error { return o.Get(ctx) }) // want `helper helpers.Do \[3 attempts\] dep=o`
	helpers.WithBudget(shared, func() error { return o.Get(ctx) })         // want `helper helpers.WithBudget \[unbounded\] guard=helpers.WithBudget dep=o`
	helpers.Wrap(o.Get)                                                    // want `helper helpers.Wrap \[3 attempts\]`
	helpers.Once(func() error { return o.Get(ctx) })
}
