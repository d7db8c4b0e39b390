package loops

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"
)

type Client struct {
	hc   *http.Client
	base string
}

// The classic: built once, sent three times.
func (c *Client) put(ctx context.Context, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base, bytes.NewReader(payload)) // want `req is built once with a body and sent on every attempt of the retry loop: the first send consumes the body, so a retry sends it empty or fails; build the request in each attempt`
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A string body, http.NewRequest, the default client.
func post(url, body string) (*http.Response, error) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(body)) // want `req is built once with a body`
	var lastErr error
	for i := 0; i < 3; i++ {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
	}
	return nil, lastErr
}

// A filled buffer, through a variable.
func (c *Client) buffered(ctx context.Context, lines []string) error {
	var buf bytes.Buffer
	for _, l := range lines {
		buf.WriteString(l)
	}
	body := &buf
	req, err := http.NewRequest(http.MethodPost, c.base, body) // want `req is built once with a body`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// WithContext shares the body.
func (c *Client) withContext(ctx context.Context, payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, io.NopCloser(bytes.NewReader(payload))) // want `req is built once with a body`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		r := req.WithContext(ctx)
		if resp, err := c.hc.Do(r); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// A RoundTripper sends it too.
func roundTrip(rt http.RoundTripper, url string, payload []byte) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewBuffer(payload)) // want `req is built once with a body`
	if err != nil {
		return nil, err
	}
	for {
		resp, err := rt.RoundTrip(req.Clone(req.Context()))
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
}

type doer interface {
	Do(*http.Request) (*http.Response, error)
}

// A client interface.
func viaDoer(d doer, url string, payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := d.Do(req)
		if err == nil && resp.StatusCode == http.StatusOK {
			return nil
		}
	}
	return errors.New("gave up")
}
