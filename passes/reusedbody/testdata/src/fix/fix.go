package fix

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type Client struct {
	hc    *http.Client
	base  string
	token string
}

// The error is read after the loop: it stays declared before it.
func (c *Client) put(ctx context.Context, item any) error {
	payload, err := json.Marshal(item)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/items", bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return fmt.Errorf("building the request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	start := time.Now()
	req.Header.Set("Authorization", "Bearer "+c.token)
	var resp *http.Response
	for attempt := 0; attempt < 3; attempt++ {
		resp, err = c.hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	_ = start
	return fmt.Errorf("gave up: %w", err)
}

// Nothing outside the loop reads what the construction defines.
func (c *Client) post(payload []byte) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return nil, err
	}
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}

// A reader made just for the request moves along.
func (c *Client) reader(payload []byte) error {
	rd := bytes.NewReader(payload)
	req, err := http.NewRequest(http.MethodPost, c.base, rd) // want `req is built once with a body`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// The error variable was declared before: it is assigned, not declared.
func (c *Client) redeclared(payload []byte) error {
	var err error
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewBuffer(payload)) // want `req is built once with a body`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return err
}

// A retry library's operation, built without an error check.
func (c *Client) operation(payload string) error {
	req, _ := http.NewRequest(http.MethodPost, c.base, bytes.NewBufferString(payload)) // want `sent on every attempt of the backoff.Retry operation`
	return backoff.Retry(func() error {
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))
}
