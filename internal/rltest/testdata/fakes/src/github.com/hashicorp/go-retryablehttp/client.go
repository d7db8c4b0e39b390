// Package retryablehttp is a behaving fake of
// github.com/hashicorp/go-retryablehttp for rltest.Behave: the API of the
// test stub, with Do run as v0.7.8 runs it (CheckRetry after every
// attempt, the last included; RetryMax retries at most; a request that
// ends on a failure closes the response and returns "METHOD URL giving up
// after N attempt(s)", wrapping the policy's error, else the attempt's).
package retryablehttp

import (
	"context"
	"fmt"
	"io"
	"net/http"
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

func NewClient() *Client {
	return &Client{
		HTTPClient:   &http.Client{},
		RetryWaitMin: time.Second,
		RetryWaitMax: 30 * time.Second,
		RetryMax:     4,
		CheckRetry:   DefaultRetryPolicy,
		Backoff:      DefaultBackoff,
	}
}

func NewRequestWithContext(ctx context.Context, method, url string, rawBody interface{}) (*Request, error) {
	if rawBody != nil {
		return nil, fmt.Errorf("the fake takes no body")
	}
	r, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	return &Request{r}, nil
}

func NewRequest(method, url string, rawBody interface{}) (*Request, error) {
	return NewRequestWithContext(context.Background(), method, url, rawBody)
}

// DefaultRetryPolicy retries transport errors, 429, and 5xx but 501 (with
// an error naming the status), and stops when the context ends.
func DefaultRetryPolicy(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		return true, nil
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		return true, nil
	}
	if resp.StatusCode == 0 || (resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented) {
		return true, fmt.Errorf("unexpected HTTP status %s", resp.Status)
	}
	return false, nil
}

func DefaultBackoff(min, max time.Duration, attemptNum int, resp *http.Response) time.Duration {
	d := min << attemptNum
	if d > max || d < 0 {
		d = max
	}
	return d
}

func (c *Client) Do(req *Request) (*http.Response, error) {
	var resp *http.Response
	var attempt int
	var shouldRetry bool
	var doErr, checkErr error
	for i := 0; ; i++ {
		attempt++
		resp, doErr = c.HTTPClient.Do(req.Request)
		shouldRetry, checkErr = c.CheckRetry(req.Context(), resp, doErr)
		if !shouldRetry {
			break
		}
		if c.RetryMax-i <= 0 {
			break
		}
		if doErr == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		wait := c.Backoff(c.RetryWaitMin, c.RetryWaitMax, i, resp)
		timer := time.NewTimer(wait)
		select {
		case <-req.Context().Done():
			timer.Stop()
			return nil, req.Context().Err()
		case <-timer.C:
		}
	}
	if doErr == nil && checkErr == nil && !shouldRetry {
		return resp, nil
	}
	err := doErr
	if checkErr != nil {
		err = checkErr
	}
	if resp != nil {
		resp.Body.Close()
	}
	if err == nil {
		return nil, fmt.Errorf("%s %s giving up after %d attempt(s)", req.Method, req.URL, attempt)
	}
	return nil, fmt.Errorf("%s %s giving up after %d attempt(s): %w", req.Method, req.URL, attempt, err)
}
