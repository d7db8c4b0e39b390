package fix

import (
	"context"
	"errors"
	tm "time"
)

func aliased(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		tm.Sleep(tm.Second) // want `retry loop waits with time.Sleep`
	}
	return errors.New("gave up")
}
