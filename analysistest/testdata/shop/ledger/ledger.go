// Package ledger retries the database.
package ledger

import (
	"context"
	"errors"
	"time"

	"example.com/shop/db"
	"example.com/shop/retryx"
	"github.com/retrylint/retrylint/budget"
)

type Client struct{ db *db.DB }

func New(d *db.DB) *Client { return &Client{db: d} }

// dbBudget limits the retries to the database to 10% of its requests.
var dbBudget = budget.New()

// Post tries the database 3 times.
func (c *Client) Post(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = c.db.Query(ctx, "insert "+id); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// Post4 tries the database 4 times.
func (c *Client) Post4(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 4; i++ {
		if _, err = c.db.Query(ctx, "insert "+id); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// PostBudgeted retries the database within a 10% budget.
func (c *Client) PostBudgeted(ctx context.Context, id string) error {
	var err error
	dbBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if _, err = c.db.Query(ctx, "insert "+id); err == nil {
			return nil
		}
		if !dbBudget.TryRetry() {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// PostHelper retries the database through the shared helper.
func (c *Client) PostHelper(ctx context.Context, id string) error {
	return retryx.Do(ctx, func(ctx context.Context) error {
		_, err := c.db.Query(ctx, "insert "+id)
		return err
	})
}

// Replay walks a chain of entries, retrying each, and recurses: the walk
// ends at the recursive call, which is marked unknown.
func (c *Client) Replay(ctx context.Context, depth int) error {
	if depth == 0 {
		return nil
	}
	for i := 0; i < 2; i++ {
		err := c.Replay(ctx, depth-1)
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("replay failed")
}
