// Code generated for a test. DO NOT EDIT.

package nofix

import (
	"context"
	"errors"
	"time"
)

func generated(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed 1s`
	}
	return errors.New("gave up")
}
