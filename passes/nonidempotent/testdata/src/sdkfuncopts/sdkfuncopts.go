// Package sdkfuncopts passes the method in a functional option of the
// call: c.do(ctx, WithMethod(http.MethodPost), WithPath(path)).
package sdkfuncopts

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	rc   *http.Client
	base string
}

func New() *Client {
	return &Client{rc: retryablehttp.NewClient().StandardClient()}
}

type options struct {
	method string
	path   string
}

// Option sets what a call sends.
type Option func(*options)

// WithMethod sets the method of the request.
func WithMethod(m string) Option { return func(o *options) { o.method = m } }

// WithPath sets its path.
func WithPath(p string) Option { return func(o *options) { o.path = p } }

// do sends through the retrying client, with the method its options give
// (a GET by default).
func (c *Client) do(ctx context.Context, opts ...Option) (*http.Response, error) { // want do:`idemKey\(sendsMethod=\[1\], field=method\)`
	o := &options{method: http.MethodGet}
	for _, opt := range opts {
		opt(o)
	}
	req, err := http.NewRequestWithContext(ctx, o.method, c.base+o.path, nil)
	if err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

// send takes its options by value, applied to a local.
func (c *Client) send(ctx context.Context, opts ...Option) (*http.Response, error) { // want send:`idemKey\(sendsMethod=\[1\], field=method\)`
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	req, err := http.NewRequestWithContext(ctx, o.method, c.base+o.path, nil)
	if err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

func (c *Client) Create(ctx context.Context) error {
	resp, err := c.do(ctx, WithMethod(http.MethodPost), WithPath("/orders")) // want `POST is retried by Client.do without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Cancel(ctx context.Context) error {
	resp, err := c.send(ctx, WithPath("/orders/1/cancel"), func(o *options) { o.method = "POST" }) // want `POST is retried by Client.send without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alikes.

// No method option: the default GET.
func (c *Client) List(ctx context.Context) error {
	resp, err := c.do(ctx, WithPath("/orders"))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A later option sets the method again: the last one counts.
func (c *Client) Replace(ctx context.Context) error {
	resp, err := c.do(ctx, WithMethod(http.MethodPost), WithMethod(http.MethodPut), WithPath("/orders/1"))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Options handed on from the caller: not known here.
func (c *Client) Call(ctx context.Context, opts ...Option) error {
	resp, err := c.do(ctx, opts...)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// An option the pass cannot read comes after the POST: it may set the
// method again.
func (c *Client) Submit(ctx context.Context, extra Option) error {
	resp, err := c.do(ctx, WithMethod(http.MethodPost), extra)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
