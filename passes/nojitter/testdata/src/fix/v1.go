package fix

import (
	"context"
	"errors"
	"math/rand"
	"time"
)

var seeded = rand.New(rand.NewSource(1))

// The file has math/rand already: math/rand/v2 comes under another name.
func v1(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed 1s`
	}
	return errors.New("gave up")
}
