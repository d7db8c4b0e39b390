// Package retryclient sends requests through wrappers that always send
// through a retrying client: the wrapper retries whatever it is given.
package retryclient

import (
	"bytes"
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	rc   *retryablehttp.Client
	std  *http.Client
	once *retryablehttp.Client
	hc   *http.Client
	base string
}

func New() *Client {
	rc := retryablehttp.NewClient()
	once := retryablehttp.NewClient()
	once.RetryMax = 0
	return &Client{rc: rc, std: rc.StandardClient(), once: once, hc: &http.Client{}}
}

// do sends through the retrying client held in a field.
func (c *Client) do(req *http.Request) (*http.Response, error) { // want do:`idemKey\(retries=\[0\]\)`
	rreq, err := retryablehttp.FromRequest(req)
	if err != nil {
		return nil, err
	}
	return c.rc.Do(rreq)
}

// doStd sends through the retrying client's StandardClient.
func (c *Client) doStd(req *http.Request) (*http.Response, error) { // want doStd:`idemKey\(retries=\[0\]\)`
	return c.std.Do(req)
}

// doFresh makes its retrying client itself.
func doFresh(req *http.Request) (*http.Response, error) { // want doFresh:`idemKey\(retries=\[0\]\)`
	rc := retryablehttp.NewClient()
	rreq, err := retryablehttp.FromRequest(req)
	if err != nil {
		return nil, err
	}
	return rc.Do(rreq)
}

func (c *Client) Create(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders", bytes.NewReader(b)) // want `POST is retried by Client.do without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := c.do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Update(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base+"/orders/1", bytes.NewReader(b)) // want `PATCH is retried by Client.doStd without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := c.doStd(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Fresh(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders", bytes.NewReader(b)) // want `POST is retried by doFresh without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := doFresh(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alikes: wrappers that do not always retry, and requests that need
// no key or have one.

// doOnce sends through a client with RetryMax 0.
func (c *Client) doOnce(req *http.Request) (*http.Response, error) {
	rreq, err := retryablehttp.FromRequest(req)
	if err != nil {
		return nil, err
	}
	return c.once.Do(rreq)
}

// doPlain sends through a plain client.
func (c *Client) doPlain(req *http.Request) (*http.Response, error) {
	return c.hc.Do(req)
}

// doSafe retries only idempotent methods.
func (c *Client) doSafe(req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodGet || req.Method == http.MethodPut {
		return c.std.Do(req)
	}
	return c.hc.Do(req)
}

// doEither retries only when asked to.
func (c *Client) doEither(req *http.Request, retry bool) (*http.Response, error) {
	if retry {
		return c.std.Do(req)
	}
	return c.hc.Do(req)
}

func (c *Client) lookalikes(ctx context.Context, b []byte, key string) {
	a, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/a", bytes.NewReader(b))
	c.doOnce(a)
	p, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/p", bytes.NewReader(b))
	c.doPlain(p)
	s, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/s", bytes.NewReader(b))
	c.doSafe(s)
	e, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/e", bytes.NewReader(b))
	c.doEither(e, false)
	put, _ := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/orders/1", bytes.NewReader(b))
	c.do(put)
	k, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/orders", bytes.NewReader(b))
	k.Header.Set("Idempotency-Key", key)
	c.do(k)
}
