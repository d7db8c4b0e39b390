package p

import (
	"context"
	"testing"
	"time"
)

func waitReady(ctx context.Context, c *Client) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = c.Get(ctx); err == nil {
			return nil
		}
		sleep(ctx, jitter(10*time.Millisecond))
	}
	return err
}

func TestGet(t *testing.T) {
	if err := waitReady(context.Background(), &Client{}); err != nil {
		t.Fatal(err)
	}
}
