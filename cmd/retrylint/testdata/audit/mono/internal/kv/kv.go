// Package kv is the client of the database service (cmd/db): PUT and GET
// /kv/{key} over HTTP.
package kv

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Client talks to the database.
type Client struct {
	base string
	hc   *http.Client
}

// New returns a client of the database at base ("http://db:8080"); its
// http.Client has no Transport of its own: net/http's.
func New(base string) *Client {
	return &Client{base: base, hc: &http.Client{Timeout: 2 * time.Second}}
}

// Put stores value at key: one PUT, no retry here.
func (c *Client) Put(ctx context.Context, key, value string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/kv/"+key, strings.NewReader(value))
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("kv put %s: %s", key, resp.Status)
	}
	return nil
}

// Get reads key: one GET, which net/http's Transport replays once when a
// reused connection drops.
func (c *Client) Get(ctx context.Context, key string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/kv/"+key, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("kv get %s: %s", key, resp.Status)
	}
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}
