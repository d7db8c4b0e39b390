package libs

import (
	"context"

	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"google.golang.org/grpc"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/avast/retry-go/v4"
)

type Store struct{}

func (s *Store) Load(ctx context.Context) error { return nil }

func lib(ctx context.Context, s *Store) {
	backoff.Retry(func() error { return s.Load(ctx) }, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3)) // want `backoff.Retry makes up to 4 attempts with no retry budget`
	backoff.Retry(func() error { return s.Load(ctx) }, backoff.NewExponentialBackOff())                            // want `backoff.Retry is bounded only by time \(MaxElapsedTime, 15m by default\)`
	retry.Do(func() error { return s.Load(ctx) })                                                                  // want `retry.Do makes up to 10 attempts \(the default of 10\) with no retry budget`
	_ = retryablehttp.NewClient()                                                                                  // want `retryablehttp.NewClient makes up to 5 attempts \(RetryMax 4 by default\)`
	k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error { return s.Load(ctx) })
	grpc.NewClient("x", grpc.WithDefaultServiceConfig(`{"methodConfig": [{"retryPolicy": {"maxAttempts": 9}}]}`)) // want `the service config's retryPolicy makes up to 5 attempts \(maxAttempts is capped at 5\) with no retryThrottling`
}
