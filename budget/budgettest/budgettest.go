// Package budgettest helps test code that uses retry budgets, so that its
// tests are deterministic: budgets that always allow or always refuse a
// retry, whatever other tests did, and a fake clock for budgets and for
// retry.Do whose waits return at once.
//
// A test of how a client retries wants its attempts to depend on the
// policy alone, not on the credit that earlier requests banked:
//
//	inv := &InventoryClient{Budget: budgettest.Allow()}   // 4 attempts for MaxAttempts 4
//	inv := &InventoryClient{Budget: budgettest.Refuse()}  // 1 attempt: every retry refused
//
// Code that looks budgets up in a package-level budget.Registry should
// call its Reset at the start of each test instead, or take the Registry
// as a parameter so that each test passes its own (AllowAll, RefuseAll or
// budget.NewRegistry).
//
// The package imports only the standard library and the budget package.
package budgettest

import (
	"context"
	"sync"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// allowing are the options of a budget whose floor pays up to a billion
// retries a second, banking as many: more than any test makes.
func allowing() []budget.Option { return []budget.Option{budget.MinPerSecond(1e9)} }

// refusing are the options of a budget that banks nothing and has no
// floor.
func refusing() []budget.Option { return []budget.Option{budget.Cap(0), budget.MinPerSecond(0)} }

// Allow returns a budget that allows every retry: its floor pays up to a
// billion retries a second. It counts requests and retries as any budget
// does, so a test can still read them from Stats.
func Allow() *budget.Budget { return budget.New(allowing()...) }

// Refuse returns a budget that refuses every retry, as in a long outage:
// it banks no credit and has no floor.
func Refuse() *budget.Budget { return budget.New(refusing()...) }

// AllowAll returns a Registry whose budgets are all like Allow's.
func AllowAll() *budget.Registry { return budget.NewRegistry(allowing()...) }

// RefuseAll returns a Registry whose budgets are all like Refuse's.
func RefuseAll() *budget.Registry { return budget.NewRegistry(refusing()...) }

// A Clock is a fake clock that moves only when told to: by Advance, or by
// Sleep, which returns at once. It is a retry.Clock (Policy.Clock), so that
// retry.Do's waits take no time, and Option gives it to a budget, so that
// its floor grants retries exactly when the test moves the clock on. It is
// safe for concurrent use.
type Clock struct {
	mu    sync.Mutex
	now   time.Time
	waits []time.Duration
}

// NewClock returns a Clock reading start. Start it at time.Now() when the
// code under test has context deadlines, which are times of the system
// clock that retry.Do compares with the Clock's.
func NewClock(start time.Time) *Clock { return &Clock{now: start} }

// Now returns the Clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the Clock on by d, which must not be negative.
func (c *Clock) Advance(d time.Duration) {
	if d < 0 {
		panic("budgettest: Clock.Advance with a negative duration")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Sleep moves the Clock on by d at once and records d among the Waits,
// unless ctx is done: then it returns ctx.Err() and the Clock stays.
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(max(d, 0))
	c.waits = append(c.waits, d)
	return nil
}

// Waits returns the durations that Sleep was called with, in order.
func (c *Clock) Waits() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.waits...)
}

// Option returns the budget option that makes a budget, or every budget
// of a Registry, read this Clock: budget.New(clock.Option()).
func (c *Clock) Option() budget.Option { return budget.Clock(c.Now) }
