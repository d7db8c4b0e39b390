// Package dispatch sends with the verb its caller names (issue 30): a
// switch on the method parameter picks Get, Put or Post, so the POST is
// the caller's, and the call that passes "POST" is where it is made.
package dispatch

import (
	"context"
	"fmt"

	resty "github.com/go-resty/resty/v2"
)

type Client struct {
	resty *resty.Client
}

func NewClient() *Client {
	return &Client{resty: resty.New().SetRetryCount(5)}
}

// R returns a new request of the retrying client.
func (c *Client) R(ctx context.Context) *resty.Request { // want R:`idemKey\(resty\(retries\)\)`
	return c.resty.R().SetContext(ctx).SetHeader("Content-Type", "application/json")
}

// pages fetches every page of endpoint with the verb method names; each
// page is a request of its own, built in the literal.
func pages(ctx context.Context, c *Client, endpoint, method string, body any) ([]string, error) { // want pages:`idemKey\(sendsMethod=\[3\]\)`
	var out []string
	page := func(n int) error {
		req := c.R(ctx).SetHeader("X-Page", fmt.Sprint(n))
		if body != nil {
			req.SetBody(body)
		}
		var err error
		switch method {
		case "GET":
			_, err = req.Get(endpoint)
		case "PUT":
			_, err = req.Put(endpoint)
		case "POST":
			_, err = req.Post(endpoint)
		default:
			return fmt.Errorf("unsupported method %s", method)
		}
		return err
	}
	for n := 1; n <= 3; n++ {
		if err := page(n); err != nil {
			return nil, err
		}
		out = append(out, endpoint)
	}
	return out, nil
}

func listGet(ctx context.Context, c *Client) ([]string, error) {
	return pages(ctx, c, "/items", "GET", nil)
}

func listPut(ctx context.Context, c *Client) ([]string, error) {
	return pages(ctx, c, "/items", "PUT", map[string]int{"n": 1})
}

func listPost(ctx context.Context, c *Client, filter any) ([]string, error) {
	return pages(ctx, c, "/items/search", "POST", filter) // want `POST is retried by pages without an idempotency key`
}

// The method decides more than the verb (it is also sent as a header),
// so the function does not pass it on unread: the POST it makes is
// reported where its request is built, as any other.
func tagged(ctx context.Context, c *Client, endpoint, method string) error {
	req := c.R(ctx).SetHeader("X-Method", method) // want `POST is retried by the resty client of Client.R without an idempotency key`
	switch method {
	case "POST":
		_, err := req.Post(endpoint)
		return err
	}
	return nil
}
