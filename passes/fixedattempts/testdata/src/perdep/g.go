package perdep

import (
	"context"
	"time"

	"google.golang.org/grpc"
)

// Retrying is a client interceptor: the invoker gRPC hands it sends the
// call on the connection handed with it, so each connection's target is
// a dependency of its own (a registry keyed by cc.Target()), not a
// caller's choice, as a retry helper's operation is.
func Retrying() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		var err error
		for i := 0; i < 3; i++ { // want `up to 3 attempts`
			if err = invoker(ctx, method, req, reply, cc, opts...); err == nil {
				return nil
			}
			time.Sleep(time.Millisecond)
		}
		return err
	}
}

// RetryingStream opens a stream the same way.
func RetryingStream() func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		var err error
		for i := 0; i < 3; i++ { // want `up to 3 attempts`
			var cs grpc.ClientStream
			if cs, err = streamer(ctx, desc, cc, method, opts...); err == nil {
				return cs, nil
			}
			time.Sleep(time.Millisecond)
		}
		return nil, err
	}
}
