package grpc

import "context"

// The server side and the generated code's descriptors: signatures only.

type UnaryServerInterceptor func(ctx context.Context, req any, info *UnaryServerInfo, handler UnaryHandler) (any, error)
type UnaryServerInfo struct {
	Server     any
	FullMethod string
}
type UnaryHandler func(ctx context.Context, req any) (any, error)
type MethodHandler func(srv any, ctx context.Context, dec func(any) error, interceptor UnaryServerInterceptor) (any, error)
type StreamHandler func(srv any, stream ServerStream) error

type MethodDesc struct {
	MethodName string
	Handler    MethodHandler
}

type StreamDesc struct {
	StreamName    string
	Handler       StreamHandler
	ServerStreams bool
	ClientStreams bool
}

type ServiceDesc struct {
	ServiceName string
	HandlerType any
	Methods     []MethodDesc
	Streams     []StreamDesc
	Metadata    any
}

type ServiceRegistrar interface {
	RegisterService(desc *ServiceDesc, impl any)
}

type ServerOption interface{ applyServer() }
type Server struct{}

func NewServer(opt ...ServerOption) *Server               { return nil }
func (s *Server) RegisterService(sd *ServiceDesc, ss any) {}
func (s *Server) Serve(lis any) error                     { return nil }
func (cc *ClientConn) NewStream(ctx context.Context, desc *StreamDesc, method string, opts ...CallOption) (ClientStream, error) {
	return nil, nil
}
