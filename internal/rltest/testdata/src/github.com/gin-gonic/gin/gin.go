// Package gin is a hand-written stub of github.com/gin-gonic/gin for
// retrylint's tests: the few declarations the tests use, signatures only.
package gin

import (
	"net/http"
	"time"
)

// Context is a request's context in a gin handler. It implements
// context.Context; by default its deadline and Done channel are not the
// request's.
type Context struct {
	Request *http.Request
	Writer  http.ResponseWriter
}

func (c *Context) Deadline() (deadline time.Time, ok bool) { return }
func (c *Context) Done() <-chan struct{}                   { return nil }
func (c *Context) Err() error                              { return nil }
func (c *Context) Value(key any) any                       { return nil }
func (c *Context) JSON(code int, obj any)                  {}
func (c *Context) Param(key string) string                 { return "" }

// HandlerFunc is a gin handler.
type HandlerFunc func(*Context)

// Engine is a gin router.
type Engine struct{}

func New() *Engine                                   { return nil }
func Default() *Engine                               { return nil }
func (e *Engine) GET(path string, h ...HandlerFunc)  {}
func (e *Engine) POST(path string, h ...HandlerFunc) {}
func (e *Engine) Use(middleware ...HandlerFunc)      {}
func (e *Engine) Run(addr ...string) (err error)     { return nil }
