// Package mux is a signature-only stub of github.com/gorilla/mux.
package mux

import "net/http"

type Router struct{}
type Route struct{}

func NewRouter() *Router                                             { return nil }
func (r *Router) ServeHTTP(w http.ResponseWriter, req *http.Request) {}
func (r *Router) HandleFunc(path string, f func(http.ResponseWriter, *http.Request)) *Route {
	return nil
}
func (r *Router) Handle(path string, handler http.Handler) *Route              { return nil }
func (r *Router) Path(tpl string) *Route                                       { return nil }
func (r *Router) PathPrefix(tpl string) *Route                                 { return nil }
func (r *Router) Methods(methods ...string) *Route                             { return nil }
func (r *Route) Methods(methods ...string) *Route                              { return nil }
func (r *Route) Path(tpl string) *Route                                        { return nil }
func (r *Route) Subrouter() *Router                                            { return nil }
func (r *Route) HandlerFunc(f func(http.ResponseWriter, *http.Request)) *Route { return nil }
func (r *Route) Handler(handler http.Handler) *Route                           { return nil }
func (r *Route) Name(name string) *Route                                       { return nil }
