package libs

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	retrygo5 "github.com/avast/retry-go/v5"
	"github.com/cenkalti/backoff/v4"
	backoff5 "github.com/cenkalti/backoff/v5"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/sethvargo/go-retry"
)

func call() error { return nil }

func constantBackOff() error {
	return backoff.Retry(call, backoff.NewConstantBackOff(time.Second)) // want `backoff.NewConstantBackOff waits a fixed 1s between attempts: clients that failed together retry together; add jitter`
}

func constantLiteral() error {
	b := &backoff.ConstantBackOff{Interval: 500 * time.Millisecond} // want `backoff.ConstantBackOff waits a fixed 500ms between attempts`
	return backoff.Retry(call, backoff.WithMaxRetries(b, 3))
}

func zeroFactor() error {
	b := &backoff.ExponentialBackOff{
		InitialInterval:     100 * time.Millisecond,
		RandomizationFactor: 0, // want `backoff.ExponentialBackOff with RandomizationFactor 0 waits the same for every client`
		Multiplier:          2,
		MaxInterval:         10 * time.Second,
		MaxElapsedTime:      time.Minute,
	}
	return backoff.RetryNotify(call, b, nil)
}

func noFactor() error {
	return backoff.Retry(call, &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, MaxElapsedTime: time.Minute}) // want `backoff.ExponentialBackOff without a RandomizationFactor`
}

func factorOption(ctx context.Context) error {
	b := backoff.NewExponentialBackOff(backoff.WithRandomizationFactor(0)) // want `RandomizationFactor 0`
	return backoff.Retry(call, backoff.WithContext(b, ctx))
}

func factorField() error {
	b := backoff.NewExponentialBackOff()
	b.RandomizationFactor = 0 // want `RandomizationFactor 0`
	return backoff.Retry(call, b)
}

func v5Constant(ctx context.Context) (int, error) {
	return backoff5.Retry(ctx, func() (int, error) { return 1, call() }, backoff5.WithBackOff(backoff5.NewConstantBackOff(time.Second))) // want `backoff.NewConstantBackOff waits a fixed 1s`
}

func retryGoFixed() error {
	return retrygo.Do(call, retrygo.Attempts(3), retrygo.DelayType(retrygo.FixedDelay)) // want `retry.DelayType\(retrygo.FixedDelay\) has no random delay`
}

func retryGoCombined() error {
	return retrygo.Do(call, retrygo.DelayType(retrygo.CombineDelay(retrygo.FixedDelay, retrygo.BackOffDelay))) // want `retry.DelayType has no random delay`
}

func retryGoFunc() error {
	return retrygo.Do(call, retrygo.DelayType(func(n uint, _ error, _ *retrygo.Config) time.Duration { // want `retry.DelayType has no random delay`
		return time.Duration(n) * time.Second
	}))
}

func retryGo5() error {
	r := retrygo5.New(retrygo5.Attempts(3), retrygo5.DelayType(retrygo5.BackOffDelay)) // want `retry.DelayType\(retrygo5.BackOffDelay\) has no random delay`
	return r.Do(call)
}

func goRetryPlain(ctx context.Context) error {
	b := retry.NewExponential(100 * time.Millisecond) // want `retry.NewExponential backs off without jitter \(wrap it in WithJitter or WithJitterPercent\)`
	b = retry.WithMaxRetries(5, b)
	return retry.Do(ctx, b, func(ctx context.Context) error { return retry.RetryableError(call()) })
}

func goRetryShortcut(ctx context.Context) error {
	return retry.Constant(ctx, time.Second, func(ctx context.Context) error { return retry.RetryableError(call()) }) // want `retry.Constant backs off without jitter`
}

func retryableDefault() *http.Client {
	c := retryablehttp.NewClient() // want `retryablehttp.NewClient backs off with DefaultBackoff, which has no jitter`
	c.RetryMax = 3
	return c.StandardClient()
}

func retryableExplicit() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	c.Backoff = retryablehttp.DefaultBackoff // want `retryablehttp.DefaultBackoff has no jitter`
	return c
}

func retryableLiteral() *retryablehttp.Client {
	return &retryablehttp.Client{RetryMax: 3, Backoff: retryablehttp.DefaultBackoff} // want `retryablehttp.DefaultBackoff has no jitter`
}

func retryableInline() *http.Client {
	return retryablehttp.NewClient().StandardClient() // want `retryablehttp.NewClient backs off with DefaultBackoff`
}

func retryableGet(url string) (*http.Response, error) {
	return retryablehttp.Get(url) // want `retryablehttp.Get uses the default client, whose DefaultBackoff has no jitter`
}
