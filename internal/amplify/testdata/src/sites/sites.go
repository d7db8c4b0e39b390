// Package sites checks the result: every site with its total and chain.
package sites

import (
	"context"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"google.golang.org/grpc"
)

type Client struct{}

func (c *Client) call(ctx context.Context) error { return nil }

func (c *Client) inner(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `site retry loop total=3 chain=sites.\(\*Client\).inner`
		if err = c.call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *Client) outer(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ { // want `site retry loop total=12 chain=sites.\(\*Client\).outer,sites.\(\*Client\).inner`
		if err = c.inner(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// The attempt is a local closure: what it calls runs once per attempt
// (Site.PerAttempt), so inner's 3 attempts multiply the loop's 2.
func (c *Client) viaClosure(ctx context.Context) error {
	attempt := func() error { return c.inner(ctx) }
	var err error
	for i := 0; i < 2; i++ { // want `site retry loop total=6 chain=sites.\(\*Client\).viaClosure,sites.\(\*Client\).inner`
		if err = attempt(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A closure called after the loop, or started by go in it, does not run
// once per attempt.
func (c *Client) closureAfter(ctx context.Context) error {
	finish := func() error { return c.inner(ctx) }
	var err error
	for i := 0; i < 2; i++ { // want `site retry loop total=2 chain=sites.\(\*Client\).closureAfter`
		if err = c.call(ctx); err == nil {
			break
		}
		go finish()
		time.Sleep(time.Second)
	}
	if err != nil {
		return err
	}
	return finish()
}

// A closure variable assigned again is not known to be the one called.
func (c *Client) closureReassigned(ctx context.Context, fast bool) error {
	attempt := func() error { return c.inner(ctx) }
	if fast {
		attempt = func() error { return c.call(ctx) }
	}
	var err error
	for i := 0; i < 2; i++ { // want `site retry loop total=≥2 chain=sites.\(\*Client\).closureReassigned`
		if err = attempt(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A client configuration is listed with its own factor, and flagged.
func dial() (*grpc.ClientConn, error) {
	return grpc.Dial("x", grpc.WithDefaultServiceConfig(`{"methodConfig": [{"retryPolicy": {"maxAttempts": 4}}], "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.2}}`)) // want `site grpc.WithDefaultServiceConfig total=1.2 chain=sites.dial config budget="retryThrottling, tokenRatio 0.2"`
}

func client() *retryablehttp.Client {
	c := retryablehttp.NewClient() // want `site retryablehttp.NewClient total=5 chain=sites.client config`
	return c
}

// A call of the retrying package-level Get is its own attempt.
func get() error {
	_, err := retryablehttp.Get("http://example.com/") // want `site retryablehttp.Get total=5 chain=sites.get`
	return err
}

// Package-level sites have no function.
var shared = &retryablehttp.Client{RetryMax: 2} // want `site retryablehttp.Client total=3 chain= config`
