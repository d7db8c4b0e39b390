// Package holders builds its requests into a holder type of its own and
// sends them through the holder's methods.
package holders

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	rc      *retryablehttp.Client
	headers http.Header
	base    string
}

func New(h http.Header) *Client {
	return &Client{rc: retryablehttp.NewClient(), headers: h}
}

// Request holds a request and the client that sends it.
type Request struct {
	req    *retryablehttp.Request
	rc     *retryablehttp.Client
	Header http.Header
}

// NewRequest builds a holder with the method it is given; the headers it
// copies come from a field no code of the package gives a key.
func (c *Client) NewRequest(method, path string) (*Request, error) { // want NewRequest:`idemKey\(builds=\[0\]\)`
	req, err := retryablehttp.NewRequest(method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	for k, v := range c.headers {
		req.Header[k] = v
	}
	return &Request{req: req, rc: c.rc, Header: req.Header}, nil
}

// NewAPIRequest builds through NewRequest.
func (c *Client) NewAPIRequest(method, path string) (*Request, error) { // want NewAPIRequest:`idemKey\(builds=\[0\]\)`
	return c.NewRequest(method, "/api"+path)
}

// Do sends the held request through the retrying client.
func (r *Request) Do(ctx context.Context) error { // want Do:`idemKey\(recvRetries\)`
	resp, err := r.rc.Do(r.req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// DoGet retries what it sends only for a GET: it reads the method.
func (r *Request) DoGet(ctx context.Context) error {
	if r.req.Method != http.MethodGet {
		return nil
	}
	resp, err := r.rc.Do(r.req.WithContext(ctx))
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// SetKey sets an idempotency key on the held request.
func (r *Request) SetKey(key string) { // want SetKey:`idemKey\(recvHeaders\)`
	r.req.Header.Set("Idempotency-Key", key)
}

func (c *Client) Create(ctx context.Context) error {
	req, err := c.NewRequest("POST", "/orders") // want `POST is retried by Request.Do without an idempotency key`
	if err != nil {
		return err
	}
	return req.Do(ctx)
}

func (c *Client) Update(ctx context.Context) error {
	req, err := c.NewAPIRequest(http.MethodPatch, "/orders/1") // want `PATCH is retried by Request.Do without an idempotency key`
	if err != nil {
		return err
	}
	return req.Do(ctx)
}

// Look-alikes.

func (c *Client) Read(ctx context.Context) error {
	req, err := c.NewRequest("GET", "/orders") // a GET
	if err != nil {
		return err
	}
	return req.Do(ctx)
}

func (c *Client) CreateKeyed(ctx context.Context, key string) error {
	req, err := c.NewRequest("POST", "/orders") // the key is set on the holder's header
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	return req.Do(ctx)
}

func (c *Client) CreateSet(ctx context.Context, key string) error {
	req, err := c.NewRequest("POST", "/orders") // a method of the holder sets the key
	if err != nil {
		return err
	}
	req.SetKey(key)
	return req.Do(ctx)
}

func (c *Client) CreateGet(ctx context.Context) error {
	req, err := c.NewRequest("POST", "/orders") // sent by a method that chooses by the method
	if err != nil {
		return err
	}
	return req.DoGet(ctx)
}
