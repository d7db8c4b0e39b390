package sdkcall

import (
	"context"
	"net/http"
	"time"
)

// Look-alikes: the same shapes with a GET, a key, no retry, or a wrapper
// that chooses by the method.

func (c *Client) List(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		resp, err := c.call(ctx, http.MethodGet, "/things", nil) // a GET
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

func (c *Client) CreateOnce(ctx context.Context) error {
	resp, err := c.call(ctx, http.MethodPost, "/things", nil) // sent once, no retry
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) SubmitOnce(ctx context.Context) error {
	return c.exec(ctx, http.MethodPost, "/things/1/submit") // sent once
}

func (c *Client) Replace(ctx context.Context) error {
	return c.invoke(ctx, http.MethodPut, "/things/1") // a PUT
}

// callKeyed sets a key on every request it builds.
func (c *Client) callKeyed(ctx context.Context, method, path, key string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Idempotency-Key", key)
	return c.rc.Do(req)
}

func (c *Client) CreateKeyed(ctx context.Context, key string) error {
	resp, err := c.callKeyed(ctx, http.MethodPost, "/things", key)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// callPicky retries only reads: it reads the method.
func (c *Client) callPicky(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	if method == http.MethodGet {
		return c.rc.Do(req)
	}
	return c.hc.Do(req)
}

func (c *Client) CreatePicky(ctx context.Context) error {
	resp, err := c.callPicky(ctx, http.MethodPost, "/things")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// callHooked hands the request to callbacks before it sends it: they
// may set the key.
func (c *Client) callHooked(ctx context.Context, method, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	if err != nil {
		return nil, err
	}
	c.notify(req, nil)
	return c.rc.Do(req)
}

func (c *Client) CreateHooked(ctx context.Context) error {
	resp, err := c.callHooked(ctx, http.MethodPost, "/things")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// build returns the request it builds before sending it: a builder whose
// caller owns the request (and a key the caller sets).
func (c *Client) build(ctx context.Context, method, path string) (*http.Request, error) { // want build:`idemKey\(builds=\[1\]\)`
	return http.NewRequestWithContext(ctx, method, c.base+path, nil)
}

func (c *Client) CreateBuilt(ctx context.Context, key string) error {
	req, err := c.build(ctx, http.MethodPost, "/things")
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

// A callback that runs after one send but before the next, in a loop.
func (c *Client) ImportTwice(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/import", nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		c.notify(req, resp)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}
