// Package switched holds send wrappers that retry only when a flag they are
// given is true (issue 30): a caller that passes true retries its request.
package switched

import (
	"context"
	"io"
	"net/http"
	"net/url"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	base    *url.URL
	plain   *http.Client
	retries *retryablehttp.Client
	token   string
}

func (c *Client) newRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error) { // want newRequest:`idemKey\(builds=\[1\]\)`
	u, err := c.base.Parse(path)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, err
	}
	if c.token != "" {
		req.Header.Set("X-Token", c.token)
	}
	return req, nil
}

// do retries through the retrying client, unless told not to (a large
// body it would buffer, say).
func (c *Client) do(req *http.Request, retry bool) (*http.Response, error) { // want do:`idemKey\(retriesWhen=\[\[0 1\]\]\)`
	if !retry {
		return c.plain.Do(req)
	}
	r, err := retryablehttp.FromRequest(req)
	if err != nil {
		return nil, err
	}
	return c.retries.Do(r)
}

// send hands its own flag on.
func (c *Client) send(ctx context.Context, req *http.Request, retry bool) (*http.Response, error) { // want send:`idemKey\(retriesWhen=\[\[1 2\]\]\)`
	resp, err := c.do(req, retry)
	if err != nil {
		return nil, err
	}
	return resp, nil
}

// sendParse builds the request with the method it is given and sends it
// with the flag true: it retries whatever method it is given.
func sendParse[T any](ctx context.Context, c *Client, method, path string, body io.Reader) (*T, error) { // want sendParse:`idemKey\(sendsMethod=\[2\]\)`
	req, err := c.newRequest(ctx, method, path, body)
	if err != nil {
		return nil, err
	}
	resp, err := c.send(ctx, req, true)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return new(T), nil
}

func (c *Client) Write(ctx context.Context, path string, body io.Reader) (*map[string]any, error) {
	return sendParse[map[string]any](ctx, c, http.MethodPost, path, body) // want `POST is retried by sendParse without an idempotency key`
}

// Look-alike: the flag false sends the POST once.
func (c *Client) Upload(ctx context.Context, path string, body io.Reader) error {
	req, err := c.newRequest(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	resp, err := c.send(ctx, req, false)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Look-alike: the plain send is decided by something other than the
// flag, so the flag does not make it retry.
func (c *Client) doSized(req *http.Request, retry bool) (*http.Response, error) {
	if !retry || req.ContentLength > 1<<20 {
		return c.plain.Do(req)
	}
	r, err := retryablehttp.FromRequest(req)
	if err != nil {
		return nil, err
	}
	return c.retries.Do(r)
}

func (c *Client) Post(ctx context.Context, path string, body io.Reader) error {
	req, err := c.newRequest(ctx, http.MethodPost, path, body)
	if err != nil {
		return err
	}
	resp, err := c.doSized(req, true)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
