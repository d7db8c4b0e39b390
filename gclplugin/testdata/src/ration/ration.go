package ration

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

// Ration is a budget check only when the settings name it.
func (c *Client) Ration() bool { return true }

func get(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Get(ctx); err == nil || !c.Ration() {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
