// Package orders retries the ledger.
package orders

import (
	"context"
	"time"

	"example.com/shop/ledger"
	"example.com/shop/retryx"
	"github.com/retrylint/retrylint/budget"
)

// Poster is what orders needs of a ledger; calls through it are not
// followed.
type Poster interface {
	Post(ctx context.Context, id string) error
}

type Client struct {
	ledger *ledger.Client
	poster Poster
}

var ledgerBudget = budget.New(budget.Ratio(0.1))

// Get tries the ledger 3 times: 3 × 3 = 9 calls to the database.
func (c *Client) Get(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ { // want `retries nest: up to 3 attempts here × 3 in ledger.\(\*Client\).Post = 9 calls per request at the deepest dependency`
		if err = c.ledger.Post(ctx, id); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Get4 tries the ledger 4 times: 16.
func (c *Client) Get4(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 4; i++ { // want `retries nest: up to 4 attempts here × 4 in ledger.\(\*Client\).Post4 = 16 calls`
		if err = c.ledger.Post4(ctx, id); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// GetBudgeted retries the ledger within a 10% budget: 1.1 × 1.1.
func (c *Client) GetBudgeted(ctx context.Context, id string) error {
	var err error
	ledgerBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if err = c.ledger.PostBudgeted(ctx, id); err == nil {
			return nil
		}
		if !ledgerBudget.TryRetry() {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// GetHelper retries the ledger through the shared helper, which the
// ledger uses too: 3 × 3.
func (c *Client) GetHelper(ctx context.Context, id string) error {
	return retryx.Do(ctx, func(ctx context.Context) error { // want `retries nest: up to 3 attempts here × 3 in ledger.\(\*Client\).PostHelper = 9 calls`
		return c.ledger.PostHelper(ctx, id)
	})
}

// GetVia retries through an interface: what the attempt reaches is not
// known, so the multiplier is "at least 3" and nothing is reported.
func (c *Client) GetVia(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.poster.Post(ctx, id); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
