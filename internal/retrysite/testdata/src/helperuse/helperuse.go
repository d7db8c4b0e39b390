package helperuse

import (
	"context"
	"time"

	"github.com/retrylint/retrylint/budget"
	"helpers"
)

type Orders struct{}

func (o *Orders) Get(ctx context.Context) error { return nil }

var shared = budget.New()

func use(ctx context.Context, o *Orders) {
	helpers.Do(ctx, func(ctx context.Context) error { return o.Get(ctx) }) // want `helper helpers.Do \[3 attempts\] delay=fixed dep=o`
	helpers.WithBudget(shared, func() error { return o.Get(ctx) })         // want `helper helpers.WithBudget \[unbounded\] guard=helpers.WithBudget delay=none dep=o`
	helpers.Wrap(o.Get)                                                    // want `helper helpers.Wrap \[3 attempts\] delay=fixed`
	// An optional budget given, and left out.
	helpers.Optional(func() error { return o.Get(ctx) }, shared) // want `helper helpers.Optional \[3 attempts\] guard=helpers.Optional delay=none dep=o`
	helpers.Optional(func() error { return o.Get(ctx) })         // want `helper helpers.Optional \[3 attempts\] guard=helpers.Optional delay=none dep=o`
	helpers.Once(func() error { return o.Get(ctx) })
	// A constant for the counting parameter is the call's bound; a method
	// value names the dependency.
	helpers.Retry(4, func() error { return o.Get(ctx) }) // want `helper helpers.Retry \[4 attempts\] delay=none dep=o`
	n := 2
	helpers.Retry(n+1, o.Ping)                                                   // want `helper helpers.Retry \[3 attempts\] delay=none dep=o`
	helpers.Value(helpers.Op[int](func() (int, error) { return 0, o.Get(ctx) })) // want `helper helpers.Value \[3 attempts\] delay=none dep=o`
}

func (o *Orders) Ping() error { return nil }

// A helper bounded by its context never stops when it is handed one that
// never ends; with the caller's context it is bounded by time, and so is
// a helper whose own deadline bounds it.
func forever(ctx context.Context, o *Orders) {
	helpers.UntilDone(context.Background(), o.Ping)     // want `helper helpers.UntilDone \[unbounded\] delay=fixed dep=o`
	helpers.UntilDone(context.TODO(), o.Ping)           // want `helper helpers.UntilDone \[unbounded\] delay=fixed dep=o`
	helpers.UntilDone(ctx, o.Ping)                      // want `helper helpers.UntilDone \[time-bounded\] delay=fixed dep=o`
	helpers.UntilDeadline(context.Background(), o.Ping) // want `helper helpers.UntilDeadline \[time-bounded\] delay=fixed dep=o`
	tctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	helpers.UntilDone(tctx, o.Ping) // want `helper helpers.UntilDone \[time-bounded\] delay=fixed dep=o`
}
