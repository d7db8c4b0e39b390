package budgettest_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/budgettest"
	"github.com/retrylint/retrylint/budget/retry"
)

// getStock is the code under test: it retries a dependency with a budget.
func getStock(ctx context.Context, b *budget.Budget, clock retry.Clock, call func() error) error {
	return retry.Do(ctx, retry.Policy{
		MaxAttempts:  3,
		InitialDelay: 100 * time.Millisecond,
		Budget:       b,
		Clock:        clock, // nil in production
	}, func(context.Context) error { return call() })
}

// With Allow and Refuse, the attempts depend on the policy alone; with a
// Clock, the backoff takes no time.
func Example() {
	down := func() error { return errors.New("inventory: 503") }
	for _, tc := range []struct {
		name string
		b    *budget.Budget
	}{{"allow", budgettest.Allow()}, {"refuse", budgettest.Refuse()}} {
		clock := budgettest.NewClock(time.Now())
		attempts := 0
		err := getStock(context.Background(), tc.b, clock, func() error { attempts++; return down() })
		fmt.Printf("%s: %d attempts, %d waits, budget refused: %v\n",
			tc.name, attempts, len(clock.Waits()), errors.Is(err, retry.ErrBudget))
	}
	// Output:
	// allow: 3 attempts, 2 waits, budget refused: false
	// refuse: 1 attempts, 0 waits, budget refused: true
}

// A Clock decides when a budget's floor pays a retry. Reset, as at the
// start of the next test, gives a Registry new budgets.
func ExampleClock() {
	clock := budgettest.NewClock(time.Unix(0, 0))
	retries := budget.NewRegistry(clock.Option()) // floor: one retry a second

	inventory := retries.For("inventory")
	fmt.Println(inventory.TryRetry(), inventory.TryRetry()) // the floor's one retry
	clock.Advance(time.Second)
	fmt.Println(inventory.TryRetry()) // a second later, the next

	retries.Reset() // as at the start of the next test
	fmt.Println(retries.For("inventory").TryRetry(), retries.For("inventory").Stats().RetriesAllowed)
	// Output:
	// true false
	// true
	// true 1
}
