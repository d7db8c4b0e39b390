// Package retryablehttp is a signature-only stub for tests.
package retryablehttp

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"time"
)

type CheckRetry func(ctx context.Context, resp *http.Response, err error) (bool, error)
type Backoff func(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration
type PrepareRetry func(req *http.Request) error

type Client struct {
	HTTPClient   *http.Client
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
	RetryMax     int
	CheckRetry   CheckRetry
	Backoff      Backoff
	PrepareRetry PrepareRetry
}

type Request struct {
	*http.Request
}

type RoundTripper struct {
	Client *Client
}

func (rt *RoundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return nil, nil }

func NewClient() *Client                                  { return nil }
func (c *Client) Do(req *Request) (*http.Response, error) { return nil, nil }
func (c *Client) Get(url string) (*http.Response, error)  { return nil, nil }
func (c *Client) Head(url string) (*http.Response, error) { return nil, nil }
func (c *Client) Post(url, bodyType string, body interface{}) (*http.Response, error) {
	return nil, nil
}
func (c *Client) PostForm(url string, data url.Values) (*http.Response, error) { return nil, nil }
func (c *Client) StandardClient() *http.Client                                 { return nil }
func NewRequest(method, url string, rawBody interface{}) (*Request, error)     { return nil, nil }
func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	return nil, nil
}
func FromRequest(r *http.Request) (*Request, error)                       { return nil, nil }
func (r *Request) WithContext(ctx context.Context) *Request               { return r }
func Get(url string) (*http.Response, error)                              { return nil, nil }
func Post(url, bodyType string, body interface{}) (*http.Response, error) { return nil, nil }
func PostForm(url string, data url.Values) (*http.Response, error)        { return nil, nil }
func DefaultRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	return false, nil
}

func DefaultBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return 0
}
func LinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return 0
}
func RateLimitLinearJitterBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	return 0
}

var _ io.Reader
