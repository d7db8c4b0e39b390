// want package:"analyzed"

// Package remote stands for generated clients: the test's linker takes
// every call of a method named Remote... for a call out of the process.
package remote

import "context"

type Client struct{}

func (c *Client) RemoteCall(ctx context.Context) error  { return nil }
func (c *Client) RemoteOther(ctx context.Context) error { return nil }

var handlers []func(context.Context) error

// Handle keeps a handler for later: its literal is an entry of its own.
func Handle(f func(context.Context) error) { // want Handle:"later\\(0\\)"
	handlers = append(handlers, f)
}
