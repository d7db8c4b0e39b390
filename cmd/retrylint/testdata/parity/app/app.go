// Package app retries through the other packages of the module: what it
// reports depends on their facts.
package app

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"example.com/lib"
	"example.com/parity/guard"
	"example.com/parity/pause"
	"example.com/parity/retryx"
	"example.com/parity/send"
)

type Client struct{ hc *http.Client }

func (c *Client) get(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "https://inventory.example/items", nil)
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ViaHelper retries through retryx.Do.
func (c *Client) ViaHelper(ctx context.Context) error {
	return retryx.Do(3, func() error { return c.get(ctx) })
}

// ViaEach calls a helper that does not retry.
func (c *Client) ViaEach(ctx context.Context) error {
	return retryx.Each([]string{"a"}, func(string) error { return c.get(ctx) })
}

// Guarded asks guard.Allow after each failure: a budget through a fact.
func (c *Client) Guarded(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.get(ctx); err == nil {
			return nil
		}
		if !guard.Allow() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// Unguarded is its look-alike with no budget.
func (c *Client) Unguarded(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Polar leaves on guard.Settled(err): success by a polarity fact.
func (c *Client) Polar(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		err = c.get(ctx)
		if guard.Settled(err) {
			return nil
		}
		pause.For(ctx, pause.Linear(i))
	}
	return err
}

// Charge sends a POST through send.Retried, which retries it, with no key.
func (c *Client) Charge(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charge", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := send.Retried(c.hc, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ChargeKeyed sets a key through send.SetKey first.
func (c *Client) ChargeKeyed(ctx context.Context, body []byte, key string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charge", bytes.NewReader(body))
	if err != nil {
		return err
	}
	send.SetKey(req, key)
	resp, err := send.Retried(c.hc, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// ChargeOnce sends its POST once.
func (c *Client) ChargeOnce(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charge", bytes.NewReader(body))
	if err != nil {
		return err
	}
	resp, err := send.Once(c.hc, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Nested retries what retries: 3 × 3 calls (an amplification fact).
func (c *Client) Nested(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.ViaHelper(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// ViaLib retries through another module's helper, whose facts this module
// does not read: no site here, in every driver.
func (c *Client) ViaLib(ctx context.Context) error {
	return lib.Do(func() error { return c.get(ctx) })
}

// LibGuarded asks lib.Allow, a budget check of another module, which is
// not known here: reported, in every driver.
func (c *Client) LibGuarded(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.get(ctx); err == nil {
			return nil
		}
		if !lib.Allow() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}
