package libnofix

import (
	"context"
	"time"

	retry5 "github.com/avast/retry-go/v5"
	grpcretryv1 "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"google.golang.org/grpc"
	k8sretry "k8s.io/client-go/util/retry"
)

// One retrier serves two calls: a RetryIf in its constructor would guard
// both with one budget.
func (s *Service) Twice(ctx context.Context) error {
	r := retry5.New(retry5.Attempts(3), retry5.Delay(time.Millisecond))
	if err := r.Do(func() error { return s.store.Ping() }); err != nil { // want `retry.\(\*Retrier\).Do makes up to 3 attempts`
		return err
	}
	return r.Do(func() error { return s.store.Ping() }) // want `retry.\(\*Retrier\).Do makes up to 3 attempts`
}

// A predicate that is a call: a wrapper would make it on every failure
// instead of once.
func (s *Service) Watch(ctx context.Context) error {
	return k8sretry.OnError(k8sretry.DefaultBackoff, retryable(), func() error { return s.store.Ping() }) // want `retry.OnError makes up to 4 attempts`
}

// go-grpc-middleware's interceptors: v2's WithRetriable is asked only
// about failures, v1 has no condition at all.
func Dial() (*grpc.ClientConn, error) {
	return grpc.NewClient("orders:443",
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3))),     // want `retry.UnaryClientInterceptor makes up to 3 attempts`
		grpc.WithUnaryInterceptor(grpcretryv1.UnaryClientInterceptor(grpcretryv1.WithMax(4))), // want `retry.UnaryClientInterceptor makes up to 4 attempts`
	)
}

// The retrier is made for the call, but its options are a slice: a RetryIf
// among them would be replaced, or would replace ours.
func (s *Service) Spread(ctx context.Context, opts []retry5.Option) error {
	return retry5.New(opts...).Do(func() error { return s.store.Ping() }) // want `retry.\(\*Retrier\).Do retries with no retry budget`
}
