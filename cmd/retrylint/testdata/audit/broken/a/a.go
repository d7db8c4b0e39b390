// Package a loads and retries.
package a

import (
	"context"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

type A struct{ client *Client }

func (a *A) Fetch(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = a.client.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
