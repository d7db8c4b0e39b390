// Package flagged runs with -nonidempotent.headers=X-Txn-Id,Idempotency-Token.
package flagged

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"
)

type client struct {
	hc   *http.Client
	base string
}

func (c *client) send(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *client) sendAll(reqs ...*http.Request) error {
	for _, req := range reqs {
		if err := c.send(req); err != nil {
			return err
		}
	}
	return nil
}

func (c *client) charge(ctx context.Context, body []byte, key string) error {
	for i := 0; i < 3; i++ {
		a, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		a.Header.Set("Idempotency-Key", key)                                                    // not on the list
		b, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		b.Header.Set("x-txn-id", key)
		d, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		d.Header.Set("Idempotency-Token", key)
		if err := c.sendAll(a, b, d); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
