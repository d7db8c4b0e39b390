// Package resty is a behaving fake of github.com/go-resty/resty/v2 for
// rltest.Behave: the API of the test stub, with requests run as v2.17
// runs them (SetRetryCount(n) retries up to n times; with no retry
// condition a request is retried when it fails with an error; with
// conditions, when any of them holds, asked in order after every attempt;
// the request returns the last attempt's response and error).
package resty

import (
	"context"
	"io"
	"net/http"
	"time"
)

type Client struct {
	Header     http.Header
	hc         *http.Client
	retryCount int
	wait       time.Duration
	conditions []RetryConditionFunc
}

type Request struct {
	Header http.Header
	client *Client
	ctx    context.Context
}

type Response struct {
	raw  *http.Response
	body []byte
}

type RetryConditionFunc func(*Response, error) bool

func New() *Client { return NewWithClient(&http.Client{}) }
func NewWithClient(hc *http.Client) *Client {
	return &Client{Header: http.Header{}, hc: hc, wait: 100 * time.Millisecond}
}
func (c *Client) R() *Request {
	return &Request{Header: http.Header{}, client: c, ctx: context.Background()}
}
func (c *Client) NewRequest() *Request                     { return c.R() }
func (c *Client) SetRetryCount(n int) *Client              { c.retryCount = n; return c }
func (c *Client) SetRetryWaitTime(d time.Duration) *Client { c.wait = d; return c }
func (c *Client) SetRetryMaxWaitTime(d time.Duration) *Client {
	return c
}
func (c *Client) AddRetryCondition(f RetryConditionFunc) *Client {
	c.conditions = append(c.conditions, f)
	return c
}
func (r *Request) SetContext(ctx context.Context) *Request { r.ctx = ctx; return r }
func (r *Request) Get(url string) (*Response, error)       { return r.Execute(http.MethodGet, url) }

func (r *Request) Execute(method, url string) (*Response, error) {
	var resp *Response
	var err error
	for attempt := 0; attempt <= r.client.retryCount; attempt++ {
		resp, err = r.attempt(method, url)
		if r.ctx.Err() != nil {
			return resp, err
		}
		retry := err != nil
		for _, cond := range r.client.conditions {
			if retry = cond(resp, err); retry {
				break
			}
		}
		if !retry || attempt == r.client.retryCount {
			return resp, err
		}
		select {
		case <-r.ctx.Done():
			return resp, r.ctx.Err()
		case <-time.After(r.client.wait):
		}
	}
	return resp, err
}

// attempt sends the request once and reads and closes the body, as resty
// does unless the response is to be streamed.
func (r *Request) attempt(method, url string) (*Response, error) {
	req, err := http.NewRequestWithContext(r.ctx, method, url, nil)
	if err != nil {
		return nil, err
	}
	hr, err := r.client.hc.Do(req)
	if err != nil {
		return &Response{}, err
	}
	defer hr.Body.Close()
	body, err := io.ReadAll(hr.Body)
	return &Response{raw: hr, body: body}, err
}

func (r *Response) Status() string {
	if r == nil || r.raw == nil {
		return ""
	}
	return r.raw.Status
}

func (r *Response) StatusCode() int {
	if r == nil || r.raw == nil {
		return 0
	}
	return r.raw.StatusCode
}
