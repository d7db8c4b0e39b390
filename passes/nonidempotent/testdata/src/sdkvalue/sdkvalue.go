// Package sdkvalue builds its requests as http.Request values whose
// method is assigned after the literal; package sdkvalueuse sends them.
package sdkvalue

import (
	"net/http"
	"net/url"
)

type Client struct {
	Base *url.URL
}

// NewRequest returns a request value with the method it is given.
func (c *Client) NewRequest(method, path string) http.Request { // want NewRequest:`idemKey\(builds=\[0\]\)`
	req := http.Request{URL: c.Base.JoinPath(path), Header: http.Header{"Accept": {"application/json"}}}
	req.Method = method
	return req
}

// NewPointer does the same through a pointer.
func (c *Client) NewPointer(method, path string) (*http.Request, error) { // want NewPointer:`idemKey\(builds=\[0\]\)`
	req := &http.Request{URL: c.Base.JoinPath(path), Header: http.Header{}}
	req.Method = method
	return req, nil
}

// NewMoved assigns the method twice: not followed.
func (c *Client) NewMoved(method, path string) http.Request {
	req := http.Request{URL: c.Base.JoinPath(path), Header: http.Header{}}
	req.Method = method
	if path == "" {
		req.Method = http.MethodGet
	}
	return req
}

// NewKeyed sets a key on the request it returns.
func (c *Client) NewKeyed(method, path, key string) http.Request {
	req := http.Request{URL: c.Base.JoinPath(path), Header: http.Header{}}
	req.Method = method
	req.Header.Set("Idempotency-Key", key)
	return req
}
