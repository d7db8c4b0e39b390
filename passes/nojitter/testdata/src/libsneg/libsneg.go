package libsneg

import (
	"context"
	"math/rand/v2"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/sethvargo/go-retry"
	"google.golang.org/grpc"
)

func call() error { return nil }

// The defaults jitter.
func defaults(ctx context.Context) error {
	if err := backoff.Retry(call, backoff.NewExponentialBackOff()); err != nil {
		return err
	}
	if _, err := backoff5.Retry(ctx, func() (int, error) { return 1, call() }); err != nil {
		return err
	}
	return retrygo.Do(call, retrygo.Attempts(3))
}

func factors() error {
	b := &backoff.ExponentialBackOff{InitialInterval: time.Second, RandomizationFactor: 0.5, Multiplier: 2, MaxElapsedTime: time.Minute}
	if err := backoff.Retry(call, b); err != nil {
		return err
	}
	e := backoff.NewExponentialBackOff()
	e.RandomizationFactor = 0.2
	return backoff.Retry(call, e)
}

// No wait at all: ZeroBackOff.
func zero() error {
	return backoff.Retry(call, backoff.WithMaxRetries(&backoff.ZeroBackOff{}, 3))
}

// A BackOff from elsewhere.
func given(b backoff.BackOff) error {
	return backoff.Retry(call, b)
}

func retryGoJitter() error {
	if err := retrygo.Do(call, retrygo.DelayType(retrygo.CombineDelay(retrygo.BackOffDelay, retrygo.RandomDelay))); err != nil {
		return err
	}
	if err := retrygo.Do(call, retrygo.DelayType(retrygo.FullJitterBackoffDelay)); err != nil {
		return err
	}
	return retrygo.Do(call, retrygo.DelayType(func(n uint, _ error, _ *retrygo.Config) time.Duration {
		return rand.N(time.Duration(n+1) * time.Second)
	}))
}

func retryGoOpts(opts ...retrygo.Option) error {
	return retrygo.Do(call, opts...)
}

func goRetryJitter(ctx context.Context) error {
	b := retry.NewExponential(100 * time.Millisecond)
	b = retry.WithJitterPercent(10, b)
	b = retry.WithMaxRetries(5, b)
	if err := retry.Do(ctx, b, func(ctx context.Context) error { return retry.RetryableError(call()) }); err != nil {
		return err
	}
	return retry.Do(ctx, retry.WithFullJitter(retry.NewConstant(time.Second)), func(ctx context.Context) error { return retry.RetryableError(call()) })
}

// An operation that never marks an error retryable never retries.
func goRetryNever(ctx context.Context) error {
	return retry.Constant(ctx, time.Second, func(ctx context.Context) error { return call() })
}

func retryableJitter() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c
}

// A client handed on may get its Backoff elsewhere.
func retryableHanded() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 2
	return c
}

func retryableFunc() *retryablehttp.Client {
	return &retryablehttp.Client{RetryMax: 3, Backoff: func(min, max time.Duration, n int, _ *http.Response) time.Duration {
		return min + rand.N(max-min)
	}}
}

// gRPC jitters its backoff itself.
func dial() {
	grpc.NewClient("orders", grpc.WithDefaultServiceConfig(`{"methodConfig": [{"retryPolicy": {"maxAttempts": 3, "initialBackoff": "0.1s"}}]}`))
}
