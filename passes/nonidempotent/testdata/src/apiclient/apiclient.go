// Package apiclient is an API client whose request-building wrappers
// other packages call: they take the method as a parameter.
package apiclient

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"

	"github.com/google/uuid"
)

type Client struct {
	hc        *http.Client
	base      string
	UserAgent string
	extra     map[string]string
	keyed     map[string]string
}

// NewRequest builds a request with the method it is given.
func (c *Client) NewRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) { // want NewRequest:`idemKey\(builds=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if c.UserAgent != "" {
		req.Header.Set("User-Agent", c.UserAgent)
	}
	return req, nil
}

// NewJSONRequest builds through NewRequest.
func (c *Client) NewJSONRequest(ctx context.Context, method, path string, v any) (*http.Request, error) { // want NewJSONRequest:`idemKey\(builds=\[1\]\)`
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return c.NewRequest(ctx, method, path, bytes.NewReader(b))
}

// Build returns the construction itself.
func Build(method, url string) (*http.Request, error) { // want Build:`idemKey\(builds=\[0\]\)`
	return http.NewRequest(method, url, nil)
}

// Do sends a request once.
func (c *Client) Do(req *http.Request) (*http.Response, error) {
	return c.hc.Do(req)
}

// Look-alikes: wrappers whose request the callers cannot judge.

// NewKeyedRequest sets a key itself: its requests carry one.
func (c *Client) NewKeyedRequest(ctx context.Context, method, path string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString())
	return req, nil
}

// NewExtraRequest copies the headers of a field that no code of the
// package gives an idempotency key: the copy sets none.
func (c *Client) NewExtraRequest(ctx context.Context, method, path string) (*http.Request, error) { // want NewExtraRequest:`idemKey\(builds=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range c.extra {
		req.Header.Set(k, v)
	}
	return req, nil
}

// NewMadeRequest copies a map it fills itself with constant names, none
// of them a key.
func (c *Client) NewMadeRequest(ctx context.Context, method, path string) (*http.Request, error) { // want NewMadeRequest:`idemKey\(builds=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	h := make(http.Header)
	h.Set("Accept", "application/json")
	for k, v := range h {
		req.Header[k] = v
	}
	return req, nil
}

// SetKey gives the keyed field an idempotency key.
func (c *Client) SetKey(key string) { c.keyed["Idempotency-Key"] = key }

// NewKeyedExtraRequest copies the headers of a field that is given a key:
// its requests may carry one.
func (c *Client) NewKeyedExtraRequest(ctx context.Context, method, path string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range c.keyed {
		req.Header.Set(k, v)
	}
	return req, nil
}

// NewMadeKeyRequest copies a map it gives a key.
func (c *Client) NewMadeKeyRequest(ctx context.Context, method, path, key string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	h := make(http.Header)
	h.Set("Idempotency-Key", key)
	for k, v := range h {
		req.Header[k] = v
	}
	return req, nil
}

// NewParamRequest copies a map its caller gives it, which may hold a key.
func (c *Client) NewParamRequest(ctx context.Context, method, path string, h map[string]string) (*http.Request, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range h {
		req.Header.Set(k, v)
	}
	return req, nil
}

// NewUpperRequest changes the method before it uses it.
func (c *Client) NewUpperRequest(ctx context.Context, method, path string) (*http.Request, error) {
	method = strings.ToUpper(method)
	return http.NewRequestWithContext(ctx, method, c.base+path, nil)
}

// NewFixedRequest takes a string, but not for the method.
func (c *Client) NewFixedRequest(ctx context.Context, path string) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
}

// Keep stores the request it builds.
type Pending struct{ req *http.Request }

func (p *Pending) Keep(method, url string) (*http.Request, error) {
	req, err := http.NewRequest(method, url, nil)
	p.req = req
	return req, err
}
