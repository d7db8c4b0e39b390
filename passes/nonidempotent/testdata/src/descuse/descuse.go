// Package descuse builds and sends the request descriptions of package
// descriptions: the facts of its builder, converter and sender cross the
// package boundary.
package descuse

import (
	"context"
	"net/http"

	"descriptions"
)

func Create(ctx context.Context, c *descriptions.Client) error {
	r := c.NewRequest(http.MethodPost, "/v1/things") // want `POST is retried by Client.Send without an idempotency key`
	r.Headers.Set("Content-Type", "application/json")
	return c.Send(ctx, r)
}

// Look-alikes.

func CreateKeyed(ctx context.Context, c *descriptions.Client, key string) error {
	r := c.NewRequest(http.MethodPost, "/v1/things") // the key is set on the description
	r.Headers.Set("Idempotency-Key", key)
	return c.Send(ctx, r)
}

func Replace(ctx context.Context, c *descriptions.Client) error {
	r := c.NewRequest(http.MethodPut, "/v1/things/1") // a PUT
	return c.Send(ctx, r)
}
