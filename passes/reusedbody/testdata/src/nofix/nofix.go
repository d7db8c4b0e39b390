package nofix

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/cenkalti/backoff/v4"
)

type Client struct {
	hc   *http.Client
	base string
}

func (c *Client) ping() error { return nil }

// Returning a construction error from the operation would retry it.
func (c *Client) operation(payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return err
	}
	return backoff.Retry(func() error {
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.NewExponentialBackOff())
}

// The URL changes between attempts: the request sent each time is the
// first one's, which moving it would change.
func (c *Client) changing(payload []byte, urls []string) error {
	url := c.base
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
		url = urls[i%len(urls)]
	}
	return errors.New("gave up")
}

// The attempt declares err at its top already.
func (c *Client) taken(payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		err := c.ping()
		if err != nil {
			continue
		}
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// A deferred close would run once per attempt.
func (c *Client) deferred(payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return err
	}
	defer req.Body.Close()
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// Built in another block than the loop's.
func (c *Client) nested(payload []byte, post bool) error {
	var req *http.Request
	if post {
		var err error
		req, err = http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload)) // want `req is built once with a body`
		if err != nil {
			return err
		}
	}
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// The reader is used again after the construction.
func (c *Client) shared(payload []byte) error {
	rd := bytes.NewReader(payload)
	req, err := http.NewRequest(http.MethodPost, c.base, rd) // want `req is built once with a body`
	if err != nil {
		return err
	}
	_ = rd.Len()
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}
