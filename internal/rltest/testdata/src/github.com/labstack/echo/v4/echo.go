// Package echo is a hand-written stub of github.com/labstack/echo/v4 for
// retrylint's tests: the few declarations the tests use, signatures only.
package echo

import "net/http"

// Context is a request's context in an echo handler.
type Context interface {
	Request() *http.Request
	Param(name string) string
	JSON(code int, i any) error
	String(code int, s string) error
}

// HandlerFunc is an echo handler.
type HandlerFunc func(c Context) error

// MiddlewareFunc wraps a handler.
type MiddlewareFunc func(next HandlerFunc) HandlerFunc

// Route is a registered route.
type Route struct{}

// Echo is an echo router.
type Echo struct{}

func New() *Echo                                                            { return nil }
func (e *Echo) GET(path string, h HandlerFunc, m ...MiddlewareFunc) *Route  { return nil }
func (e *Echo) POST(path string, h HandlerFunc, m ...MiddlewareFunc) *Route { return nil }
func (e *Echo) Start(address string) error                                  { return nil }
