package nested

import (
	"context"
	"errors"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/retrylint/retrylint/budget"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
)

type Store struct{}

func (s *Store) Get(ctx context.Context) error { return nil }

type Getter interface {
	Get(ctx context.Context) error
}

type Client struct {
	store  *Store
	getter Getter
	max    int
}

var storeBudget = budget.New()

// inner retries the store 3 times.
func (c *Client) inner(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.store.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// innerBudgeted retries the store within a budget.
func (c *Client) innerBudgeted(ctx context.Context) error {
	var err error
	storeBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if err = c.store.Get(ctx); err == nil {
			return nil
		}
		if !storeBudget.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// Reported: 2 × 3 in the same package.
func (c *Client) Outer(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ { // want `retries nest: up to 2 attempts here × 3 in nested.\(\*Client\).inner = 6 calls per request at the deepest dependency when it fails; keep the retry in nested.\(\*Client\).Outer, the outermost layer that has the request's deadline and can stop retrying when the caller gives up, and make the other layers fail fast`
		if err = c.inner(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Reported: a library retry bounded only by time around a counted one,
// with no deadline anywhere along the chain.
func (c *Client) Elapsed() error {
	return backoff.Retry(func() error { return c.inner(context.Background()) }, backoff.NewExponentialBackOff()) // want `retries nest: attempts bounded only by time here × 3 in nested.\(\*Client\).inner = 3 × a time-bounded number of calls per request at the deepest dependency when it fails; keep the retry in nested.\(\*Client\).inner, the outermost layer`
}

// Reported: a count that is not a constant.
func (c *Client) Variable(ctx context.Context) error {
	var err error
	for i := 0; i < c.max; i++ { // want `up to c.max attempts here × 3 in nested.\(\*Client\).inner = 3 × an unknown number of calls`
		if err = c.inner(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Not reported: the outer retries are budgeted.
func (c *Client) OuterBudgeted(ctx context.Context) error {
	var err error
	storeBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if err = c.inner(ctx); err == nil {
			return nil
		}
		if !storeBudget.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// Not reported: the inner retries are budgeted (1.1 < 2).
func (c *Client) InnerBudgeted(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.innerBudgeted(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Not reported: one layer only.
func (c *Client) OneLayer(ctx context.Context) error {
	return c.inner(ctx)
}

// Not reported: what the attempt reaches through an interface is unknown.
func (c *Client) ViaInterface(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.getter.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Not reported: recursion ends the walk.
func (c *Client) Recursive(ctx context.Context, n int) error {
	if n == 0 {
		return c.store.Get(ctx)
	}
	for i := 0; i < 3; i++ {
		if err := c.Recursive(ctx, n-1); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("failed")
}

// Not reported: conflict retries are no outage risk.
func (c *Client) Conflict(ctx context.Context) error {
	return retry.RetryOnConflict(wait.Backoff{Steps: 5}, func() error { return c.inner(ctx) })
}

// plain retries the store 3 times and has no context.
func (c *Client) plain() error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.store.Get(context.Background()); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Reported: no layer has the request's deadline, so the message says to
// keep the retry at this, the outer, layer and give it the caller's
// context.
func (c *Client) NoDeadline() error {
	var err error
	for i := 0; i < 2; i++ { // want `retries nest: up to 2 attempts here × 3 in nested.\(\*Client\).plain = 6 calls per request at the deepest dependency when it fails; no layer has the request's deadline: keep the retry here, the outermost, give it the caller's context, and make the layers below fail fast`
		if err = c.plain(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Not reported: one attempt around the retrying layer.
func (c *Client) NoDeadlineOnce() error {
	return c.plain()
}
