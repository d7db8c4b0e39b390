// Package libs holds POST requests retried by retry libraries.
package libs

import (
	"bytes"
	"context"
	"net/http"

	"github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
)

type client struct {
	hc   *http.Client
	base string
}

func (c *client) createOrder(ctx context.Context, body []byte) error {
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}

func (c *client) createInvoice(ctx context.Context, body []byte) (*http.Response, error) {
	return backoff5.Retry(ctx, func() (*http.Response, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base+"/invoices/7", bytes.NewReader(body)) // want `PATCH is retried without an idempotency key`
		if err != nil {
			return nil, backoff5.Permanent(err)
		}
		return c.hc.Do(req)
	}, backoff5.WithMaxTries(4))
}

// The request is built outside the operation and sent inside it.
func (c *client) createRefund(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/refunds", nil) // want `POST is retried without`
	if err != nil {
		return err
	}
	op := func() error {
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	return retry.Do(op, retry.Attempts(3))
}
