// Package sdkcall is an SDK-style client: its methods pass the method to
// a wrapper that builds the request and sends it, c.call(ctx, "POST",
// path, body), and the send is retried by the caller's loop, by a retry
// helper, or by the wrapper's retrying client.
package sdkcall

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	hc    *http.Client // plain
	rc    *http.Client // a retryablehttp client's StandardClient
	base  string
	hooks []func(*http.Request, *http.Response)
}

func New() *Client {
	return &Client{hc: &http.Client{}, rc: retryablehttp.NewClient().StandardClient()}
}

var errGaveUp = errors.New("gave up")

// call builds the request with the method it is given and sends it once.
func (c *Client) call(ctx context.Context, method, path string, body io.Reader) (*http.Response, error) { // want call:`idemKey\(sends=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	return c.hc.Do(req)
}

// callRetrying sends through the retrying client.
func (c *Client) callRetrying(ctx context.Context, method, path string, body io.Reader) (*http.Response, error) { // want callRetrying:`idemKey\(sendsMethod=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return nil, err
	}
	return c.rc.Do(req)
}

// invoke passes its method on to callRetrying: it retries what it is given.
func (c *Client) invoke(ctx context.Context, method, path string) error { // want invoke:`idemKey\(sendsMethod=\[1\]\)`
	resp, err := c.callRetrying(ctx, method, path, nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// exec passes its method on to call, which sends once.
func (c *Client) exec(ctx context.Context, method, path string) error { // want exec:`idemKey\(sends=\[1\]\)`
	resp, err := c.call(ctx, method, path, nil)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// roundTrip sends and also returns the request: it is no builder.
func (c *Client) roundTrip(ctx context.Context, method, path string) (*http.Response, *http.Request, error) { // want roundTrip:`idemKey\(sends=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, nil, err
	}
	resp, err := c.hc.Do(req)
	return resp, req, err
}

// notify hands the request to callbacks it cannot see.
func (c *Client) notify(req *http.Request, resp *http.Response) { // want notify:`idemKey\(dynamic=\[0\]\)`
	for _, h := range c.hooks {
		h(req, resp)
	}
}

// Retried by a loop of the caller.
func (c *Client) Create(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		resp, err := c.call(ctx, "POST", "/things", nil) // want `POST is retried without an idempotency key`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

// Retried by the wrapper's client.
func (c *Client) Update(ctx context.Context) error {
	resp, err := c.callRetrying(ctx, http.MethodPatch, "/things/1", nil) // want `PATCH is retried by Client.callRetrying without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Through a chain of wrappers.
func (c *Client) Archive(ctx context.Context) error {
	return c.invoke(ctx, http.MethodPost, "/things/1/archive") // want `POST is retried by Client.invoke without an idempotency key`
}

func (c *Client) Publish(ctx context.Context) error {
	return retry(func() error {
		return c.exec(ctx, http.MethodPost, "/things/1/publish") // want `POST is retried without an idempotency key`
	})
}

// A function that sends and returns the request, retried by the caller's loop.
func (c *Client) Submit(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		resp, _, err := c.roundTrip(ctx, http.MethodPost, "/things/1/submit") // want `POST is retried without an idempotency key`
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

// A request handed to callbacks after it is sent, by a retrying client.
func (c *Client) Import(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/import", nil) // want `POST is retried by the retryablehttp client without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := c.rc.Do(req)
	if err != nil {
		return err
	}
	c.notify(req, resp)
	return resp.Body.Close()
}

// retry makes up to 3 attempts of op.
func retry(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
