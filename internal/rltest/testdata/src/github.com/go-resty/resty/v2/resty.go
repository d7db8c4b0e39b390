// Package resty is a signature-only stub for tests.
package resty

import (
	"context"
	"net/http"
	"time"
)

type Client struct {
	Header http.Header
}
type Request struct {
	Header http.Header
}
type Response struct{}
type RetryConditionFunc func(*Response, error) bool

func New() *Client                                               { return nil }
func NewWithClient(hc *http.Client) *Client                      { return nil }
func (c *Client) R() *Request                                    { return nil }
func (c *Client) NewRequest() *Request                           { return nil }
func (c *Client) SetRetryCount(n int) *Client                    { return c }
func (c *Client) SetRetryWaitTime(d time.Duration) *Client       { return c }
func (c *Client) AddRetryCondition(f RetryConditionFunc) *Client { return c }
func (c *Client) SetHeader(k, v string) *Client                  { return c }
func (c *Client) SetHeaders(h map[string]string) *Client         { return c }
func (c *Client) SetBaseURL(u string) *Client                    { return c }
func (r *Request) SetHeader(k, v string) *Request                { return r }
func (r *Request) SetHeaderVerbatim(k, v string) *Request        { return r }
func (r *Request) SetHeaders(h map[string]string) *Request       { return r }
func (r *Request) SetHeaderMultiValues(h map[string][]string) *Request {
	return r
}
func (r *Request) SetBody(b interface{}) *Request                { return r }
func (r *Request) SetResult(v interface{}) *Request              { return r }
func (r *Request) Post(url string) (*Response, error)            { return nil, nil }
func (r *Request) Patch(url string) (*Response, error)           { return nil, nil }
func (r *Request) Put(url string) (*Response, error)             { return nil, nil }
func (r *Request) Get(url string) (*Response, error)             { return nil, nil }
func (r *Request) Delete(url string) (*Response, error)          { return nil, nil }
func (r *Request) Execute(method, url string) (*Response, error) { return nil, nil }

func (r *Response) Status() string                            { return "" }
func (r *Response) StatusCode() int                           { return 0 }
func (r *Request) SetContext(ctx context.Context) *Request    { return r }
func (c *Client) SetRetryMaxWaitTime(d time.Duration) *Client { return c }
