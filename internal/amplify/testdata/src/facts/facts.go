// want package:"analyzed"

// Package facts checks the AmpFact each function exports.
package facts

import (
	"context"
	"time"

	"factsdep"

	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/retrylint/retrylint/budget"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

type Client struct {
	dep   *factsdep.Client
	max   int
	b     *budget.Budget
	other Doer
}

type Doer interface {
	Do(ctx context.Context) error
}

func (c *Client) call(ctx context.Context) error { return nil }

var (
	b20 = budget.New(budget.Ratio(0.2))
	reg = budget.NewRegistry()
)

// Across a package boundary: 2 × 3.
func (c *Client) Twice(ctx context.Context) error { // want Twice:`amp\(6: facts.\(\*Client\).Twice, factsdep.\(\*Client\).Fetch\)`
	var err error
	for i := 0; i < 2; i++ {
		if err = c.dep.Fetch(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Through a plain call: the callee's multiplier with its chain.
func (c *Client) Plain(ctx context.Context) error { // want Plain:`amp\(6: facts.\(\*Client\).Twice, factsdep.\(\*Client\).Fetch\)`
	return c.Twice(ctx)
}

// A retry around a call that does not retry.
func (c *Client) AroundOnce(ctx context.Context) error { // want AroundOnce:`amp\(3: facts.\(\*Client\).AroundOnce\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = c.dep.Once(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Nested retries in one function multiply: 3 × 2.
func (c *Client) Loops(ctx context.Context) error { // want Loops:`amp\(6: facts.\(\*Client\).Loops, facts.\(\*Client\).Loops\)`
	var err error
	for i := 0; i < 3; i++ {
		err = backoff.Retry(func() error { return c.call(ctx) }, backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 1))
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A budget with its ratio: 1.2.
func (c *Client) Ratio(ctx context.Context) error { // want Ratio:`amp\(1.2: `
	var err error
	b20.OnRequest()
	for i := 0; i < 5; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		if !b20.TryRetry() {
			return err
		}
	}
	return err
}

// A registry's budget with the default ratio.
func (c *Client) Registry(ctx context.Context) error { // want Registry:`amp\(1.1: `
	var err error
	for i := 0; i < 5; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		if !reg.For("x").TryRetry() {
			return err
		}
	}
	return err
}

// A budget whose construction is not visible: assumed 10%.
func (c *Client) Field(ctx context.Context) error { // want Field:`amp\(~1.1: `
	var err error
	for i := 0; i < 5; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		if !c.b.TryRetry() {
			return err
		}
	}
	return err
}

// Time-bounded and unbounded are kinds of their own.
func (c *Client) Elapsed(ctx context.Context) error { // want Elapsed:`amp\(time-bounded: `
	return backoff.Retry(func() error { return c.call(ctx) }, backoff.NewExponentialBackOff())
}

func (c *Client) Forever(ctx context.Context) error { // want Forever:`amp\(unbounded: `
	for {
		if err := c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// A count that is not a constant.
func (c *Client) Variable(ctx context.Context) error { // want Variable:`amp\(\?: `
	var err error
	for i := 0; i < c.max; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A method value as the operation: 4 × 3.
func (c *Client) MethodValue(ctx context.Context) error { // want MethodValue:`amp\(12: facts.\(\*Client\).MethodValue, facts.\(\*Client\).AroundOnce\)`
	return backoff.Retry(c.op3, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

func (c *Client) op3() error { // want op3:`amp\(3: `
	return c.AroundOnce(context.Background())
}

// An interface inside the attempts: open.
func (c *Client) Iface(ctx context.Context) error { // want Iface:`amp\(≥3: `
	var err error
	for i := 0; i < 3; i++ {
		if err = c.other.Do(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// An interface call outside any retry: nothing to export.
func (c *Client) IfaceOnce(ctx context.Context) error {
	return c.other.Do(ctx)
}

// Recursion without a retry: nothing to export, and the walk ends.
func (c *Client) Rec(ctx context.Context, n int) error {
	if n == 0 {
		return c.call(ctx)
	}
	return c.Rec(ctx, n-1)
}

// Conflict retries pass what they reach through, adding nothing.
func (c *Client) Conflict(ctx context.Context) error { // want Conflict:`amp\(6: facts.\(\*Client\).Twice, factsdep.\(\*Client\).Fetch\)`
	return retry.RetryOnConflict(wait.Backoff{Steps: 5}, func() error { return c.Twice(ctx) })
}

// Configuring a client is not calling it: no fact.
func NewHTTP() *retryablehttp.Client {
	return retryablehttp.NewClient()
}

// A generic function.
func Do[T any](ctx context.Context, c *Client) (T, error) { // want Do:`amp\(3: `
	var zero T
	var err error
	for i := 0; i < 3; i++ {
		if err = c.call(ctx); err == nil {
			return zero, nil
		}
		time.Sleep(time.Second)
	}
	return zero, err
}

func UseGeneric(ctx context.Context, c *Client) error { // want UseGeneric:`amp\(6: `
	var err error
	for i := 0; i < 2; i++ {
		if _, err = Do[int](ctx, c); err == nil {
			return nil
		}
	}
	return err
}

// A budget field whose every construction is visible: its ratio.
type Budgeted struct {
	b     *budget.Budget
	mixed *budget.Budget
}

func NewBudgeted() *Budgeted {
	return &Budgeted{b: budget.New(budget.Ratio(0.2)), mixed: budget.New()}
}

func (c *Budgeted) reset() {
	c.b = budget.New(budget.Ratio(0.2))
	c.mixed = budget.New(budget.Ratio(0.3))
}

func (c *Budgeted) call(ctx context.Context) error { return nil }

func (c *Budgeted) Known(ctx context.Context) error { // want Known:`amp\(1.2: `
	var err error
	for i := 0; i < 5; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		if !c.b.TryRetry() {
			return err
		}
	}
	return err
}

// Two constructions with different ratios: assumed.
func (c *Budgeted) Mixed(ctx context.Context) error { // want Mixed:`amp\(~1.1: `
	var err error
	for i := 0; i < 5; i++ {
		if err = c.call(ctx); err == nil {
			return nil
		}
		if !c.mixed.TryRetry() {
			return err
		}
	}
	return err
}

// Of an unknown count and a known 6, the known 6 is the larger product:
// 3 × 6, not 3 × ?.
func (c *Client) Larger(ctx context.Context) error { // want Larger:`amp\(18: facts.\(\*Client\).Larger, facts.\(\*Client\).Twice, factsdep.\(\*Client\).Fetch\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = c.Variable(ctx); err == nil {
			err = c.Twice(ctx)
		}
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// retryN is a helper counted by its parameter.
func retryN(n int, op func() error) error { // want retryN:`amp\(≥\?: facts.retryN\)`
	var err error
	for i := 0; i < n; i++ {
		if err = op(); err == nil {
			return nil
		}
	}
	return err
}

// A helper called with a constant multiplies by it: 3 × the 4 of
// AroundFour.
func (c *Client) HelperConst(ctx context.Context) error { // want HelperConst:`amp\(12: `
	return retryN(3, func() error { return c.AroundFour(ctx) })
}

func (c *Client) AroundFour(ctx context.Context) error { // want AroundFour:`amp\(4: `
	var err error
	for range 4 {
		if err = c.dep.Once(ctx); err == nil {
			return nil
		}
	}
	return err
}
