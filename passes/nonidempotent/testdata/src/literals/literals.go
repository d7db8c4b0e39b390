// Package literals builds its requests as http.Request literals and sends
// them through a retrying client; it tells a hook of every request after
// it is sent.
package literals

import (
	"context"
	"net/http"
	"net/url"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	hc     *http.Client
	u      *url.URL
	onSent func(*http.Request, *http.Response)
	before func(*http.Request)
}

func New(u *url.URL) *Client {
	return &Client{hc: retryablehttp.NewClient().StandardClient(), u: u}
}

func (c *Client) Create(ctx context.Context) error {
	req := &http.Request{Method: http.MethodPost, URL: c.u, Header: http.Header{"Content-Type": {"application/json"}}} // want `POST is retried by the retryablehttp client without an idempotency key`
	resp, err := c.hc.Do(req.WithContext(ctx))
	if err != nil {
		return err
	}
	c.onSent(req, resp) // told after the send: it cannot give the request a key
	return resp.Body.Close()
}

func (c *Client) Update(ctx context.Context) error {
	method := "PATCH"
	req := &http.Request{Method: method, URL: c.u, Header: http.Header{}} // want `PATCH is retried by the retryablehttp client without an idempotency key`
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alikes.

func (c *Client) Read(ctx context.Context) error {
	req := &http.Request{URL: c.u, Header: http.Header{}} // no method: a GET
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateKeyed(ctx context.Context, key string) error {
	req := &http.Request{Method: http.MethodPost, URL: c.u, Header: http.Header{"Idempotency-Key": {key}}} // the literal carries the key
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateHooked(ctx context.Context) error {
	req := &http.Request{Method: http.MethodPost, URL: c.u, Header: http.Header{}} // a hook before the send may set the key
	c.before(req)
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateTwice(ctx context.Context) error {
	for i := 0; i < 2; i++ {
		req := &http.Request{Method: http.MethodPost, URL: c.u, Header: http.Header{}} // a hook after one send runs before the next
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		c.onSent(req, resp)
		resp.Body.Close()
	}
	return nil
}
