// Package sdkopts passes the method in a struct field of the call's
// options: c.do(ctx, CallOptions{Method: "POST", Path: path}).
package sdkopts

import (
	"context"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	hc   *http.Client
	rc   *http.Client
	base string
}

func New() *Client {
	return &Client{hc: &http.Client{}, rc: retryablehttp.NewClient().StandardClient()}
}

type CallOptions struct {
	Method string
	Path   string
	Body   io.Reader
}

// do sends through the retrying client.
func (c *Client) do(ctx context.Context, o CallOptions) (*http.Response, error) { // want do:`idemKey\(sendsMethod=\[1\], field=Method\)`
	req, err := http.NewRequestWithContext(ctx, o.Method, c.base+o.Path, o.Body)
	if err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

// send sends once; its options come by pointer.
func (c *Client) send(ctx context.Context, o *CallOptions) (*http.Response, error) { // want send:`idemKey\(sends=\[1\], field=Method\)`
	req, err := http.NewRequestWithContext(ctx, o.Method, c.base+o.Path, o.Body)
	if err != nil {
		return nil, err
	}
	return c.hc.Do(req)
}

// build returns the request.
func (c *Client) build(ctx context.Context, o *CallOptions) (*http.Request, error) { // want build:`idemKey\(builds=\[1\], field=Method\)`
	return http.NewRequestWithContext(ctx, o.Method, c.base+o.Path, o.Body)
}

// invoke passes its options on whole.
func (c *Client) invoke(ctx context.Context, o CallOptions) error { // want invoke:`idemKey\(sendsMethod=\[1\], field=Method\)`
	resp, err := c.do(ctx, o)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Create(ctx context.Context) error {
	resp, err := c.do(ctx, CallOptions{Method: http.MethodPost, Path: "/things"}) // want `POST is retried by Client.do without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Update(ctx context.Context) error {
	opts := &CallOptions{Method: "PATCH", Path: "/things/1"}
	for i := 0; i < 3; i++ {
		resp, err := c.send(ctx, opts) // want `PATCH is retried without an idempotency key`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return nil
}

func (c *Client) Cancel(ctx context.Context) error {
	req, err := c.build(ctx, &CallOptions{Method: http.MethodPost, Path: "/things/1/cancel"}) // want `POST is retried by the retryablehttp client without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := c.rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Archive(ctx context.Context) error {
	return c.invoke(ctx, CallOptions{Method: http.MethodPost, Path: "/things/1/archive"}) // want `POST is retried by Client.invoke without an idempotency key`
}

// Look-alikes.

func (c *Client) List(ctx context.Context) error {
	resp, err := c.do(ctx, CallOptions{Path: "/things"}) // no method: a GET
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Replace(ctx context.Context) error {
	resp, err := c.do(ctx, CallOptions{Method: http.MethodPut, Path: "/things/1"}) // a PUT
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateOnce(ctx context.Context) error {
	resp, err := c.send(ctx, &CallOptions{Method: http.MethodPost, Path: "/things"}) // sent once
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateChanged(ctx context.Context, m string) error {
	opts := CallOptions{Method: http.MethodPost, Path: "/things"}
	opts.Method = m // the method is not known
	resp, err := c.do(ctx, opts)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) CreateKeyed(ctx context.Context, key string) error {
	req, err := c.build(ctx, &CallOptions{Method: http.MethodPost, Path: "/things"})
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	resp, err := c.rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// doPicky reads the method again: it may retry only some.
func (c *Client) doPicky(ctx context.Context, o CallOptions) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, o.Method, c.base+o.Path, o.Body)
	if err != nil {
		return nil, err
	}
	if o.Method == http.MethodGet {
		return c.rc.Do(req)
	}
	return c.hc.Do(req)
}

func (c *Client) CreatePicky(ctx context.Context) error {
	resp, err := c.doPicky(ctx, CallOptions{Method: http.MethodPost, Path: "/things"})
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
