package libs

import (
	"context"
	"net/http"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	awsretry "github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/failsafe-go/failsafe-go/retrypolicy"
	resty "github.com/go-resty/resty/v2"
	grpcretry "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	"github.com/hashicorp/go-retryablehttp"
	sv "github.com/sethvargo/go-retry"
	"google.golang.org/grpc"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"

	"github.com/avast/retry-go/v4"
	retry5 "github.com/avast/retry-go/v5"
)

type Store struct{}

func (s *Store) Load(ctx context.Context) error { return nil }

type Service struct{ store *Store }

func (s *Service) cenkalti(ctx context.Context) error {
	op := func() error { return s.store.Load(ctx) }
	backoff.Retry(op, backoff.WithMaxRetries(backoff.NewExponentialBackOff(), 3))                  // want `library backoff.Retry \[4 attempts\] dep=store`
	backoff.Retry(op, backoff.NewExponentialBackOff())                                             // want `library backoff.Retry \[time-bounded\]`
	backoff.Retry(op, &backoff.ExponentialBackOff{MaxElapsedTime: 0})                              // want `library backoff.Retry \[unbounded\]`
	backoff.Retry(op, backoff.NewExponentialBackOff(backoff.WithMaxElapsedTime(0)))                // want `library backoff.Retry \[unbounded\]`
	backoff.Retry(op, backoff.WithContext(backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 2), ctx)) // want `library backoff.Retry \[3 attempts\]`
	b := backoff.NewExponentialBackOff()
	b.MaxElapsedTime = 0
	backoff.Retry(op, b) // want `library backoff.Retry \[unbounded\]`
	backoff.Retry(op, &backoff.StopBackOff{})
	_, err := backoff5.Retry(ctx, func() (int, error) { return 0, s.store.Load(ctx) }, backoff5.WithMaxTries(5)) // want `library backoff.Retry \[5 attempts\] dep=store`
	_, err = backoff5.Retry(ctx, func() (int, error) { return 0, nil })                                          // want `library backoff.Retry \[time-bounded\]`
	_, err = backoff5.Retry(ctx, func() (int, error) { return 0, nil }, backoff5.WithMaxElapsedTime(0))          // want `library backoff.Retry \[unbounded\]`
	return err
}

func (s *Service) avast(ctx context.Context) {
	retry.Do(func() error { return s.store.Load(ctx) })                    // want `library retry.Do \[10 attempts\] dep=store`
	retry.Do(func() error { return s.store.Load(ctx) }, retry.Attempts(3)) // want `library retry.Do \[3 attempts\]`
	retry.Do(func() error { return nil }, retry.Attempts(0))               // want `library retry.Do \[unbounded\]`
	retry.Do(func() error { return nil }, retry.UntilSucceeded())          // want `library retry.Do \[unbounded\]`
	r := retry5.New(retry5.Attempts(4))
	r.Do(func() error { return nil })                                                                                                            // want `library retry.\(\*Retrier\).Do \[4 attempts\]`
	retry5.New(retry5.Attempts(4), retry5.WithFixedTokenBucketThrottle(retry5.FixedTokenBucketThrottleConfig{})).Do(func() error { return nil }) // want `library retry.\(\*Retrier\).Do \[4 attempts\] guard=WithFixedTokenBucketThrottle`
}

func (s *Service) sethvargo(ctx context.Context) {
	sv.Do(ctx, sv.WithMaxRetries(3, sv.NewExponential(time.Second)), func(ctx context.Context) error { // want `library retry.Do \[4 attempts\] dep=store`
		return sv.RetryableError(s.store.Load(ctx))
	})
	sv.Do(ctx, sv.NewConstant(time.Second), func(ctx context.Context) error { // want `library retry.Do \[unbounded\] exempt`
		return s.store.Load(ctx)
	})
	sv.Exponential(ctx, time.Second, func(ctx context.Context) error { // want `library retry.Exponential \[unbounded\]`
		return sv.RetryableError(s.store.Load(ctx))
	})
}

func retryable() {
	c := retryablehttp.NewClient() // want `library retryablehttp.NewClient \[5 attempts\]`
	_ = c
	c2 := retryablehttp.NewClient() // want `library retryablehttp.NewClient \[3 attempts\]`
	c2.RetryMax = 2
	c3 := retryablehttp.NewClient()
	c3.RetryMax = 0
	_ = &retryablehttp.Client{RetryMax: 6} // want `library retryablehttp.Client \[7 attempts\]`
	_ = &retryablehttp.Client{}
	retryablehttp.Get("https://api.example.com/") // want `library retryablehttp.Get \[5 attempts\] dep=api.example.com`
	_ = http.MethodGet
}

func restyClient() {
	resty.New().SetRetryCount(3) // want `library resty.SetRetryCount \[4 attempts\]`
	resty.New().SetRetryCount(0)
}

const serviceConfig = `{"methodConfig": [{"name": [{"service": "orders.Orders"}], "retryPolicy": {"maxAttempts": 4, "initialBackoff": "0.1s", "maxBackoff": "1s", "backoffMultiplier": 2, "retryableStatusCodes": ["UNAVAILABLE"]}}]}`

const throttled = `{"methodConfig": [{"retryPolicy": {"MaxAttempts": 9}}], "retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}}`

func grpcConfig() {
	grpc.NewClient("orders:443",
		grpc.WithDefaultServiceConfig(serviceConfig), // want `library grpc.WithDefaultServiceConfig \[4 attempts\]`
		grpc.WithDefaultServiceConfig(throttled),     // want `library grpc.WithDefaultServiceConfig \[5 attempts\] guard=retryThrottling`
		grpc.WithDefaultServiceConfig(`{"loadBalancingPolicy": "round_robin"}`),
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor(grpcretry.WithMax(3))), // want `library retry.UnaryClientInterceptor \[3 attempts\]`
		grpc.WithUnaryInterceptor(grpcretry.UnaryClientInterceptor()),
	)
}

func failsafe() {
	_ = retrypolicy.NewBuilder[any]().WithMaxRetries(5).Build()  // want `library retrypolicy.NewBuilder \[6 attempts\]`
	_ = retrypolicy.NewBuilder[any]().WithMaxRetries(-1).Build() // want `library retrypolicy.NewBuilder \[unbounded\]`
	_ = retrypolicy.NewBuilder[any]().WithBudget(nil).Build()    // want `library retrypolicy.NewBuilder \[3 attempts\] guard=WithBudget`
	_ = retrypolicy.NewWithDefaults[any]()                       // want `library retrypolicy.NewWithDefaults \[3 attempts\]`
}

func aws() {
	_ = awsretry.NewStandard(func(o *awsretry.StandardOptions) { // want `library retry.NewStandard \[5 attempts\]`
		o.MaxAttempts = 5
		o.RateLimiter = ratelimit.None
	})
	_ = awsretry.NewStandard() // want `library retry.NewStandard \[3 attempts\] guard=the SDK's retry quota`
}

func k8s(ctx context.Context, s *Store) {
	k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error { return s.Load(ctx) })                            // want `library retry.RetryOnConflict \[5 attempts\] exempt`
	k8sretry.OnError(wait.Backoff{Steps: 7}, func(error) bool { return true }, func() error { return s.Load(ctx) }) // want `library retry.OnError \[7 attempts\]`
}
