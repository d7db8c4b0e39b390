// Package grpc is a signature-only stub for tests.
package grpc

import "context"

type DialOption interface{ apply() }
type CallOption interface{ before() }

// ClientConn keeps its target, which Target returns, so that fixed code
// run against two connections keys their budgets apart.
type ClientConn struct{ target string }

func (cc *ClientConn) Target() string { return cc.target }

type ClientConnInterface interface {
	Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error
}
type UnaryClientInterceptor func(ctx context.Context, method string, req, reply any, cc *ClientConn, invoker UnaryInvoker, opts ...CallOption) error
type UnaryInvoker func(ctx context.Context, method string, req, reply any, cc *ClientConn, opts ...CallOption) error
type StreamClientInterceptor func()
type Streamer func(ctx context.Context, desc *StreamDesc, cc *ClientConn, method string, opts ...CallOption) (ClientStream, error)

func NewClient(target string, opts ...DialOption) (*ClientConn, error) {
	return &ClientConn{target: target}, nil
}
func Dial(target string, opts ...DialOption) (*ClientConn, error)      { return nil, nil }
func WithDefaultServiceConfig(s string) DialOption                     { return nil }
func WithDisableRetry() DialOption                                     { return nil }
func WithUnaryInterceptor(f UnaryClientInterceptor) DialOption         { return nil }
func WithChainUnaryInterceptor(f ...UnaryClientInterceptor) DialOption { return nil }
func WithStreamInterceptor(f StreamClientInterceptor) DialOption       { return nil }
func (cc *ClientConn) Invoke(ctx context.Context, method string, args, reply any, opts ...CallOption) error {
	return nil
}

// ServerStream is the server side of a streaming RPC; generated stream
// types embed it.
type ServerStream interface {
	SetHeader(md map[string][]string) error
	Context() context.Context
	SendMsg(m any) error
	RecvMsg(m any) error
}

// ClientStream is the client side of a streaming RPC.
type ClientStream interface {
	Context() context.Context
	CloseSend() error
	SendMsg(m any) error
	RecvMsg(m any) error
}
