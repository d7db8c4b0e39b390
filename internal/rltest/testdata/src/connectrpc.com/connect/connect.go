// Package connect is a signature-only stub of connectrpc.com/connect.
package connect

import (
	"context"
	"net/http"
)

type HTTPClient interface {
	Do(*http.Request) (*http.Response, error)
}
type ClientOption interface{ applyClient() }
type HandlerOption interface{ applyHandler() }
type Request[T any] struct{ Msg *T }
type Response[T any] struct{ Msg *T }
type Client[Req, Res any] struct{}

func NewClient[Req, Res any](httpClient HTTPClient, url string, options ...ClientOption) *Client[Req, Res] {
	return nil
}
func (c *Client[Req, Res]) CallUnary(ctx context.Context, req *Request[Req]) (*Response[Res], error) {
	return nil, nil
}
func NewRequest[T any](message *T) *Request[T] { return nil }
func NewUnaryHandler[Req, Res any](procedure string, unary func(context.Context, *Request[Req]) (*Response[Res], error), options ...HandlerOption) http.Handler {
	return nil
}
