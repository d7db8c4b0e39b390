// Package descriptions describes its requests in a type of its own, with
// a Method field its builder sets from its method parameter, converts the
// description into a retryablehttp request just before sending, and sends
// it through a retrying client: the builder's call with POST or PATCH is
// the construction.
package descriptions

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	addr       *url.URL
	headers    http.Header
	maxRetries int
	dryRun     bool
	callbacks  []Callback
	signers    []Signer
	decorators []Decorator
}

// Request describes a request.
type Request struct {
	Method  string
	URL     *url.URL
	Headers http.Header
	Body    []byte
}

// Callback sees every request before it is sent.
type Callback func(*Request)

// RequireState returns a callback that sets a header of its own.
func RequireState(state string) Callback {
	return func(r *Request) {
		r.Headers.Add("X-State", state)
	}
}

// WithCallbacks makes the client call the callbacks, the caller's.
func (c *Client) WithCallbacks(cbs ...Callback) {
	c.callbacks = cbs
}

// Signer is another hook; one of the package's copies a header map onto
// the request, and the package hands it one with a key (WithKey).
type Signer func(*Request)

func Sign(extra http.Header) Signer {
	return func(r *Request) {
		for k, vs := range extra {
			for _, v := range vs {
				r.Headers.Add(k, v)
			}
		}
	}
}

func (c *Client) WithSigners(s ...Signer) {
	c.signers = s
}

// WithKey signs every request with the caller's key.
func (c *Client) WithKey(key string) {
	c.WithSigners(Sign(http.Header{"Idempotency-Key": {key}}))
}

// Decorator is a hook whose functions set headers their callers name:
// the package names no key through them.
type Decorator func(*Request)

// WithHeader sets the header its caller names.
func WithHeader(name, value string) Decorator {
	return func(r *Request) { r.Headers.Set(name, value) }
}

// WithHeaders copies the caller's headers.
func WithHeaders(h map[string]string) Decorator {
	return func(r *Request) {
		for k, v := range h {
			r.Headers.Set(k, v)
		}
	}
}

// defaultDecorator is a package-level one.
var defaultDecorator Decorator = func(r *Request) { r.Headers.Set("X-Sdk", "descriptions") }

// WithTracing is the package's own use of them.
func (c *Client) WithTracing(id string) {
	c.decorators = append(c.decorators, defaultDecorator, WithHeader("X-Trace-Id", id), WithHeaders(map[string]string{"X-Source": "sdk"}))
}

// decoratedRequest applies the decorators, then retries the description.
func (c *Client) decoratedRequest(ctx context.Context, r *Request) (*http.Response, error) { // want decoratedRequest:`idemKey\(retries=\[1\]\)`
	for _, d := range c.decorators {
		d(r)
	}
	req, err := r.toRetryableHTTP()
	if err != nil {
		return nil, err
	}
	client := &retryablehttp.Client{RetryMax: c.maxRetries}
	return client.Do(req.WithContext(ctx))
}

func (c *Client) CreateDecorated(ctx context.Context) error {
	r := c.NewRequest(http.MethodPost, "/v1/orders") // want `POST is retried by Client.decoratedRequest without an idempotency key`
	resp, err := c.decoratedRequest(ctx, r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// headersCopy returns a copy of the client's headers, which no code of the
// package gives a key.
func (c *Client) headersCopy() http.Header {
	if c.headers == nil {
		return nil
	}
	out := make(http.Header)
	for k, vs := range c.headers {
		for _, v := range vs {
			out[k] = append(out[k], v)
		}
	}
	return out
}

// NewRequest describes a request with the method it is given.
func (c *Client) NewRequest(method, path string) *Request { // want NewRequest:`idemKey\(builds=\[0\]\)`
	req := &Request{
		Method: method,
		URL:    c.addr.JoinPath(path),
	}
	headers := c.headersCopy()
	req.Headers = headers
	return req
}

// toRetryableHTTP converts the description: the method is its Method, the
// headers its Headers.
func (r *Request) toRetryableHTTP() (*retryablehttp.Request, error) { // want toRetryableHTTP:`idemKey\(converts=Method\)`
	req, err := retryablehttp.NewRequest(r.Method, r.URL.String(), r.Body)
	if err != nil {
		return nil, err
	}
	for k, vs := range r.Headers {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	req.Header.Set("X-Client", "descriptions")
	return req, nil
}

// rawRequest converts and sends through a retrying client, after the
// package's callbacks; it reads the method only on a path that returns
// without sending.
func (c *Client) rawRequest(ctx context.Context, r *Request) (*http.Response, error) { // want rawRequest:`idemKey\(retries=\[1\]\)`
	r.Headers.Set("X-Namespace", "ns")
	for _, cb := range c.callbacks {
		cb(r)
	}
	req, err := r.toRetryableHTTP()
	if err != nil {
		return nil, err
	}
	if c.dryRun {
		return nil, fmt.Errorf("would send %s %s", req.Method, req.URL)
	}
	client := &retryablehttp.Client{RetryMax: c.maxRetries}
	return client.Do(req.WithContext(ctx))
}

// write sends through rawRequest.
func (c *Client) write(ctx context.Context, r *Request) error { // want write:`idemKey\(retries=\[1\]\)`
	resp, err := c.rawRequest(ctx, r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Send is write for other packages.
func (c *Client) Send(ctx context.Context, r *Request) error { // want Send:`idemKey\(retries=\[1\]\)`
	return c.write(ctx, r)
}

func (c *Client) Create(ctx context.Context, body []byte) error {
	r := c.NewRequest(http.MethodPost, "/v1/orders") // want `POST is retried by Client.rawRequest without an idempotency key`
	r.Headers.Set("Content-Type", "application/json")
	r.Body = body
	resp, err := c.rawRequest(ctx, r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Patch(ctx context.Context, body []byte) error {
	r := c.NewRequest(http.MethodPatch, "/v1/orders/1") // want `PATCH is retried by Client.write without an idempotency key`
	r.Body = body
	return c.write(ctx, r)
}

// A description literal with the method is a construction too.
func (c *Client) Cancel(ctx context.Context) error {
	r := &Request{Method: "POST", URL: c.addr.JoinPath("/v1/orders/1/cancel"), Headers: http.Header{}} // want `POST is retried by Client.write without an idempotency key`
	return c.write(ctx, r)
}

// Look-alikes.

func (c *Client) Read(ctx context.Context) error {
	r := c.NewRequest(http.MethodGet, "/v1/orders") // a GET
	return c.write(ctx, r)
}

func (c *Client) CreateKeyed(ctx context.Context, key string, body []byte) error {
	r := c.NewRequest(http.MethodPost, "/v1/orders") // the key is set on the description's headers
	r.Headers.Set("Idempotency-Key", key)
	r.Body = body
	return c.write(ctx, r)
}

func (c *Client) CreateLit(ctx context.Context, key string) error {
	r := &Request{Method: "POST", URL: c.addr, Headers: http.Header{"Idempotency-Key": {key}}} // the literal's headers carry the key
	return c.write(ctx, r)
}

// httpRequest converts the description itself and sends it once.
func (c *Client) httpRequest(ctx context.Context, r *Request) (*http.Response, error) { // want httpRequest:`idemKey\(sends=\[1\], field=Method\)`
	req, err := http.NewRequestWithContext(ctx, r.Method, r.URL.String(), nil)
	if err != nil {
		return nil, err
	}
	return http.DefaultClient.Do(req)
}

func (c *Client) Restore(ctx context.Context) error {
	r := c.NewRequest(http.MethodPost, "/v1/snapshot") // sent once
	resp, err := c.httpRequest(ctx, r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// signedRequest hands the description to hooks of which one sets headers
// the pass cannot name.
func (c *Client) signedRequest(ctx context.Context, r *Request) (*http.Response, error) { // want signedRequest:`idemKey\(dynamic=\[1\], retries=\[1\]\)`
	for _, s := range c.signers {
		s(r)
	}
	req, err := r.toRetryableHTTP()
	if err != nil {
		return nil, err
	}
	client := &retryablehttp.Client{RetryMax: c.maxRetries}
	return client.Do(req.WithContext(ctx))
}

func (c *Client) CreateSigned(ctx context.Context) error {
	r := c.NewRequest(http.MethodPost, "/v1/orders") // a signer may set the key
	resp, err := c.signedRequest(ctx, r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// methodRequest retries only what its method allows.
func (c *Client) methodRequest(ctx context.Context, r *Request) (*http.Response, error) {
	req, err := r.toRetryableHTTP()
	if err != nil {
		return nil, err
	}
	client := &retryablehttp.Client{RetryMax: c.maxRetries}
	if req.Method != http.MethodGet {
		client.RetryMax = 0
	}
	return client.Do(req.WithContext(ctx))
}

func (c *Client) CreateChosen(ctx context.Context) error {
	r := c.NewRequest(http.MethodPost, "/v1/orders") // the sender chooses by the method
	resp, err := c.methodRequest(ctx, r)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
