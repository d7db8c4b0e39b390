// Package ledgerpb has the shape of protoc-gen-go-grpc's output for a
// service ledger.v1.Ledger with a unary and a server-streaming method.
package ledgerpb

import (
	"context"

	"google.golang.org/grpc"
)

const (
	Ledger_Post_FullMethodName  = "/ledger.v1.Ledger/Post"
	Ledger_Watch_FullMethodName = "/ledger.v1.Ledger/Watch"
)

type PostRequest struct{}
type PostResponse struct{}

type LedgerClient interface {
	Post(ctx context.Context, in *PostRequest, opts ...grpc.CallOption) (*PostResponse, error)      // want Post:`sends\(grpc /ledger.v1.Ledger/Post\)`
	Watch(ctx context.Context, in *PostRequest, opts ...grpc.CallOption) (grpc.ClientStream, error) // want Watch:`sends\(grpc /ledger.v1.Ledger/Watch\)`
}

type ledgerClient struct {
	cc grpc.ClientConnInterface
}

func NewLedgerClient(cc grpc.ClientConnInterface) LedgerClient {
	return &ledgerClient{cc}
}

func (c *ledgerClient) Post(ctx context.Context, in *PostRequest, opts ...grpc.CallOption) (*PostResponse, error) { // want Post:`sends\(grpc /ledger.v1.Ledger/Post\)`
	out := new(PostResponse)
	err := c.cc.Invoke(ctx, Ledger_Post_FullMethodName, in, out, opts...) // want `link grpc /ledger.v1.Ledger/Post`
	if err != nil {
		return nil, err
	}
	return out, nil
}

func (c *ledgerClient) Watch(ctx context.Context, in *PostRequest, opts ...grpc.CallOption) (grpc.ClientStream, error) { // want Watch:`sends\(grpc /ledger.v1.Ledger/Watch\)`
	cc := c.cc.(*grpc.ClientConn)
	return cc.NewStream(ctx, &Ledger_ServiceDesc.Streams[0], Ledger_Watch_FullMethodName, opts...) // want `link grpc /ledger.v1.Ledger/Watch`
}

type LedgerServer interface {
	Post(context.Context, *PostRequest) (*PostResponse, error)
	Watch(*PostRequest, grpc.ServerStream) error
}

type UnimplementedLedgerServer struct{}

func (UnimplementedLedgerServer) Post(context.Context, *PostRequest) (*PostResponse, error) {
	return nil, nil
}
func (UnimplementedLedgerServer) Watch(*PostRequest, grpc.ServerStream) error { return nil }

func RegisterLedgerServer(s grpc.ServiceRegistrar, srv LedgerServer) { // want RegisterLedgerServer:`registers\(grpc ledger.v1.Ledger\$1\)`
	s.RegisterService(&Ledger_ServiceDesc, srv)
}

func _Ledger_Post_Handler(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
	in := new(PostRequest)
	if err := dec(in); err != nil {
		return nil, err
	}
	return srv.(LedgerServer).Post(ctx, in)
}

func _Ledger_Watch_Handler(srv any, stream grpc.ServerStream) error {
	m := new(PostRequest)
	return srv.(LedgerServer).Watch(m, stream)
}

var Ledger_ServiceDesc = grpc.ServiceDesc{ // want Ledger_ServiceDesc:`desc\(ledger.v1.Ledger\)`
	ServiceName: "ledger.v1.Ledger",
	HandlerType: (*LedgerServer)(nil),
	Methods: []grpc.MethodDesc{
		{MethodName: "Post", Handler: _Ledger_Post_Handler},
	},
	Streams: []grpc.StreamDesc{
		{StreamName: "Watch", Handler: _Ledger_Watch_Handler, ServerStreams: true},
	},
}

// Mixed is returned built from the generated client and from a fake that
// sends nothing: a call through it may stay in the process, so it sends
// nothing.
type Mixed interface {
	Post(ctx context.Context, in *PostRequest, opts ...grpc.CallOption) (*PostResponse, error)
}

func NewMixed(cc grpc.ClientConnInterface) Mixed { return &ledgerClient{cc} }

type fakeClient struct{}

func (fakeClient) Post(ctx context.Context, in *PostRequest, opts ...grpc.CallOption) (*PostResponse, error) {
	return nil, nil
}

func NewFake() Mixed { return fakeClient{} }
