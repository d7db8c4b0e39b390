// Package sdkfuncopts passes the method in a functional option of the
// call: c.do(ctx, WithMethod(http.MethodPost), WithPath(path)).
package sdkfuncopts

import (
	"context"
	"errors"
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

type uploadOptions struct {
	method string
	path   string
	file   string
}

// UploadOption sets what an upload call sends.
type UploadOption func(*uploadOptions)

// WithUploadMethod sets the method of the request.
func WithUploadMethod(m string) UploadOption { return func(o *uploadOptions) { o.method = m } }

// WithFile makes the call an upload of a file.
func WithFile(f string) UploadOption { return func(o *uploadOptions) { o.file = f } }

// transfer builds an upload on one branch and a plain request on the
// other, each with the method of its options: it reads the method twice
// and decides nothing on it.
func (c *Client) transfer(ctx context.Context, opts ...UploadOption) (*http.Response, error) { // want transfer:`idemKey\(sendsMethod=\[1\], field=method\)`
	o := &uploadOptions{method: http.MethodGet}
	for _, opt := range opts {
		opt(o)
	}
	var req *http.Request
	var err error
	if o.file != "" {
		req, err = http.NewRequestWithContext(ctx, o.method, c.base+o.path+"?file="+o.file, nil)
	} else {
		req, err = http.NewRequestWithContext(ctx, o.method, c.base+o.path, nil)
	}
	if err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

func (c *Client) Attach(ctx context.Context) error {
	resp, err := c.transfer(ctx, WithUploadMethod(http.MethodPost), WithFile("a.txt")) // want `POST is retried by Client.transfer without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alike: guarded compares the method of its options, so it may
// retry only some.
func (c *Client) guarded(ctx context.Context, opts ...UploadOption) (*http.Response, error) {
	o := &uploadOptions{method: http.MethodGet}
	for _, opt := range opts {
		opt(o)
	}
	if o.method != http.MethodGet {
		return nil, nil
	}
	req, err := http.NewRequestWithContext(ctx, o.method, c.base+o.path, nil)
	if err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

func (c *Client) Guarded(ctx context.Context) error {
	resp, err := c.guarded(ctx, WithUploadMethod(http.MethodPost))
	if err != nil {
		return err
	}
	if resp != nil {
		return resp.Body.Close()
	}
	return nil
}

type callConfig struct {
	method string
	path   string
}

// callOption may fail: the call then returns its error.
type callOption func(*callConfig) error

func withMethod(m string) callOption {
	return func(c *callConfig) error {
		c.method = m
		return nil
	}
}

func withPath(p string) callOption {
	return func(c *callConfig) error {
		if p == "" {
			return errors.New("empty path")
		}
		c.path = p
		return nil
	}
}

// call applies options that may fail, then sends through the retrying
// client with the method they give.
func (c *Client) call(ctx context.Context, opts ...callOption) (*http.Response, error) { // want call:`idemKey\(sendsMethod=\[1\], field=method\)`
	cfg := &callConfig{method: http.MethodGet}
	for _, opt := range opts {
		if err := opt(cfg); err != nil {
			return nil, err
		}
	}
	req, err := http.NewRequestWithContext(ctx, cfg.method, c.base+cfg.path, nil)
	if err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

func (c *Client) Enqueue(ctx context.Context) error {
	resp, err := c.call(ctx, withMethod(http.MethodPost), withPath("/jobs")) // want `POST is retried by Client.call without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alike: the default GET.
func (c *Client) Jobs(ctx context.Context) error {
	resp, err := c.call(ctx, withPath("/jobs"))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Options gathered in a slice first, then grown by options that leave the
// method alone.
func (c *Client) Store(ctx context.Context, upload bool) error {
	opts := []Option{WithMethod(http.MethodPost), WithPath("/files")}
	if upload {
		opts = append(opts, WithPath("/uploads"))
	}
	resp, err := c.do(ctx, opts...) // want `POST is retried by Client.do without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alike: an option appended later may set the method again.
func (c *Client) Fetch(ctx context.Context, read bool) error {
	opts := []Option{WithMethod(http.MethodPost), WithPath("/files")}
	if read {
		opts = append(opts, WithMethod(http.MethodGet))
	}
	resp, err := c.do(ctx, opts...)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
