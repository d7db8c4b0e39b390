// Package resty is a signature-only stub for tests.
package resty

import "time"

type Client struct{}
type Request struct {
	Header map[string][]string
}
type Response struct{}
type RetryConditionFunc func(*Response, error) bool

func New() *Client                                               { return nil }
func (c *Client) R() *Request                                    { return nil }
func (c *Client) SetRetryCount(n int) *Client                    { return c }
func (c *Client) SetRetryWaitTime(d time.Duration) *Client       { return c }
func (c *Client) AddRetryCondition(f RetryConditionFunc) *Client { return c }
func (c *Client) SetHeader(k, v string) *Client                  { return c }
func (r *Request) SetHeader(k, v string) *Request                { return r }
func (r *Request) SetHeaders(h map[string]string) *Request       { return r }
func (r *Request) SetBody(b interface{}) *Request                { return r }
func (r *Request) Post(url string) (*Response, error)            { return nil, nil }
func (r *Request) Patch(url string) (*Response, error)           { return nil, nil }
func (r *Request) Put(url string) (*Response, error)             { return nil, nil }
func (r *Request) Get(url string) (*Response, error)             { return nil, nil }
