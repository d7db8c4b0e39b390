// Package senders sends its requests through functions that take the
// method as a parameter, build the request and retry it themselves.
package senders

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type Client struct {
	hc    *http.Client
	base  string
	extra map[string]string
}

var errGaveUp = errors.New("gave up")

// newRequest builds a request with the method it is given, POST when it
// is given none.
func (c *Client) newRequest(ctx context.Context, method, path string) (*http.Request, error) { // want newRequest:`idemKey\(builds=\[1\]\)`
	if method == "" {
		method = http.MethodPost
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range c.extra {
		req.Header.Set(k, v)
	}
	return req, nil
}

// execute builds the request with the method it is given and retries it.
func (c *Client) execute(ctx context.Context, method, path string) (*http.Response, error) { // want execute:`idemKey\(sendsMethod=\[1\]\)`
	for i := 0; i < 3; i++ {
		req, err := c.newRequest(ctx, method, path)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errGaveUp
}

// executeRead retries only a GET: it reads the method.
func (c *Client) executeRead(ctx context.Context, method, path string) (*http.Response, error) {
	attempts := 1
	if method == http.MethodGet {
		attempts = 3
	}
	for i := 0; i < attempts; i++ {
		req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
		if err != nil {
			return nil, err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errGaveUp
}

// executeOnce sends once.
func (c *Client) executeOnce(ctx context.Context, method, path string) (*http.Response, error) { // want executeOnce:`idemKey\(sends=\[1\]\)`
	req, err := c.newRequest(ctx, method, path)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

func (c *Client) Create(ctx context.Context) error {
	resp, err := c.execute(ctx, http.MethodPost, "/orders") // want `POST is retried by Client.execute without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alikes.

func (c *Client) Read(ctx context.Context) error {
	resp, err := c.execute(ctx, http.MethodGet, "/orders") // a GET
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateRead(ctx context.Context) error {
	resp, err := c.executeRead(ctx, http.MethodPost, "/orders") // retried only when a GET
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateOnce(ctx context.Context) error {
	resp, err := c.executeOnce(ctx, http.MethodPost, "/orders") // sent once
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
