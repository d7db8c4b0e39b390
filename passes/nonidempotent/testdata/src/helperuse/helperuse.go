// Package helperuse sends POSTs through the retry helper of package
// helpers.
package helperuse

import (
	"bytes"
	"context"
	"net/http"

	"helpers"
)

type client struct{ hc *http.Client }

func (c *client) do(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *client) create(ctx context.Context, body []byte) error {
	return helpers.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err != nil {
			return err
		}
		return c.do(req)
	})
}

func (c *client) withKey(ctx context.Context, body []byte, key string) error {
	return helpers.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		helpers.WithKey(req, key)
		return c.do(req)
	})
}

func (c *client) signed(ctx context.Context, body []byte, key string) error {
	return helpers.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		helpers.Sign(req, key)
		return c.do(req)
	})
}

func (c *client) copied(ctx context.Context, body []byte, hdrs map[string]string) error {
	return helpers.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		helpers.Copy(req, hdrs)
		return c.do(req)
	})
}

func (c *client) newKeyEachTime(ctx context.Context, body []byte) error {
	return helpers.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		helpers.WithNewKey(req) // want `helpers.WithNewKey sets an idempotency key generated anew on every attempt`
		return c.do(req)
	})
}

func (c *client) keyFromHelper(ctx context.Context, body []byte) error {
	return helpers.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", helpers.NewKey()) // want `idempotency key from helpers.NewKey is generated anew on every attempt`
		return c.do(req)
	})
}

func (c *client) keyOnce(ctx context.Context, body []byte) error {
	key := helpers.NewKey()
	return helpers.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		return c.do(req)
	})
}

func (c *client) wrapped(ctx context.Context, body []byte, key string) error {
	a, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body)) // want `POST is retried by helpers.Do without`
	if _, err := helpers.Do(c.hc, a); err != nil {
		return err
	}
	b, _ := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/orders", bytes.NewReader(body))
	helpers.WithKey(b, key)
	_, err := helpers.Do(c.hc, b)
	return err
}
