// Package p is the sample the end-to-end tests lint: three retry loops
// without a retry budget.
package p

import (
	"context"
	"errors"
	"time"

	"github.com/retrylint/retrylint/budget"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

// Ration asks a retry budget only when the settings name it as a budget
// method.
func (c *Client) Ration() bool { return true }

func get(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Get(ctx); err == nil {
			return nil
		}
		sleep(ctx, jitter(time.Second))
	}
	return errors.New("gave up")
}

func getRationed(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Get(ctx); err == nil || !c.Ration() {
			return err
		}
		sleep(ctx, jitter(time.Second))
	}
	return errors.New("gave up")
}

type Service struct {
	orders       *Client
	ordersBudget *budget.Budget
}

func (s *Service) getOrders(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := s.orders.Get(ctx)
		if err == nil {
			return nil
		}
		sleep(ctx, jitter(time.Second))
	}
	return errors.New("gave up")
}
