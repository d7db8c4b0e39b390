package directives

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

func get(ctx context.Context, c *Client) error {
	// nolint:retrylint // golangci-lint's form with a space: silenced
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	// No reason: reported, and the loop too.
	//lint:ignore fixedattempts
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	//lint:ignore fixedattempts nothing to silence here
	return errors.New("gave up")
}
