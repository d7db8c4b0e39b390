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
	// A constant for the counting parameter is the call's bound; a method
	// value names the dependency.
	helpers.Retry(4, func() error { return o.Get(ctx) }) // want `helper helpers.Retry \[4 attempts\] dep=o`
	n := 2
	helpers.Retry(n+1, o.Ping)                                                   // want `helper helpers.Retry \[3 attempts\] dep=o`
	helpers.Value(helpers.Op[int](func() (int, error) { return 0, o.Get(ctx) })) // want `helper helpers.Value \[3 attempts\] dep=o`
}

func (o *Orders) Ping() error { return nil }
