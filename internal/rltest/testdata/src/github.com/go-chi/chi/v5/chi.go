// Package chi is a signature-only stub of github.com/go-chi/chi/v5.
package chi

import "net/http"

type Middlewares []func(http.Handler) http.Handler

type Router interface {
	http.Handler
	With(middlewares ...func(http.Handler) http.Handler) Router
	Group(fn func(r Router)) Router
	Route(pattern string, fn func(r Router)) Router
	Mount(pattern string, h http.Handler)
	Handle(pattern string, h http.Handler)
	HandleFunc(pattern string, h http.HandlerFunc)
	Method(method, pattern string, h http.Handler)
	MethodFunc(method, pattern string, h http.HandlerFunc)
	Get(pattern string, h http.HandlerFunc)
	Post(pattern string, h http.HandlerFunc)
	Put(pattern string, h http.HandlerFunc)
	Delete(pattern string, h http.HandlerFunc)
}

type Mux struct{}

func NewRouter() *Mux                                                      { return nil }
func (mx *Mux) ServeHTTP(w http.ResponseWriter, r *http.Request)           {}
func (mx *Mux) With(middlewares ...func(http.Handler) http.Handler) Router { return nil }
func (mx *Mux) Group(fn func(r Router)) Router                             { return nil }
func (mx *Mux) Route(pattern string, fn func(r Router)) Router             { return nil }
func (mx *Mux) Mount(pattern string, h http.Handler)                       {}
func (mx *Mux) Handle(pattern string, h http.Handler)                      {}
func (mx *Mux) HandleFunc(pattern string, h http.HandlerFunc)              {}
func (mx *Mux) Method(method, pattern string, h http.Handler)              {}
func (mx *Mux) MethodFunc(method, pattern string, h http.HandlerFunc)      {}
func (mx *Mux) Get(pattern string, h http.HandlerFunc)                     {}
func (mx *Mux) Post(pattern string, h http.HandlerFunc)                    {}
func (mx *Mux) Put(pattern string, h http.HandlerFunc)                     {}
func (mx *Mux) Delete(pattern string, h http.HandlerFunc)                  {}
