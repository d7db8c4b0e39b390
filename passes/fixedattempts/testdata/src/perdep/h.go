package perdep

import (
	"fmt"
	"net/http"
	"time"
)

// Sender is a client's Do, or a chain of middlewares around one.
type Sender = func(*http.Request) (*http.Response, error)

// Middleware wraps a send.
type Middleware func(Sender) Sender

// chain wraps send in the middlewares, the first outermost.
func chain(ms []Middleware, send Sender) Sender {
	for i := len(ms) - 1; i >= 0; i-- {
		send = ms[i](send)
	}
	return send
}

// SendVia retries a request its caller built through a chain of
// middlewares, each attempt with a copy of it: the copy's host is the
// request's, so each host gets its own budget, from a registry keyed by
// it.
func SendVia(hc *http.Client, ms []Middleware, req *http.Request) error {
	send := chain(ms, hc.Do)
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		attempt := req.Clone(req.Context())
		var resp *http.Response
		if resp, err = send(attempt); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("send via: %w", err)
}

// Call is a request and what it is sent with.
type Call struct {
	Request     *http.Request
	Client      *http.Client
	Middlewares []Middleware
}

// Execute sends a copy of the call's request, a field, on each attempt.
func (c *Call) Execute() error {
	send := chain(c.Middlewares, c.Client.Do)
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		req := c.Request.Clone(c.Request.Context())
		var resp *http.Response
		if resp, err = send(req); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("execute: %w", err)
}
