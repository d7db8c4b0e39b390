// Package libshapes holds library configurations without jitter that are
// set up away from the retrying call: in a struct field, in a slice of
// options built elsewhere, behind a wrapper, in a constructor function.
// Each has its jittered look-alike beside it.
package libshapes

import (
	"context"
	"net/http"
	"time"

	retrygo "github.com/avast/retry-go/v4"
	"github.com/cenkalti/backoff/v4"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/sethvargo/go-retry"
)

func call() error { return nil }

// go-retry: a backoff behind a wrapper, and one kept in a field.

func wrapped(ctx context.Context) error {
	b := retry.WithMaxRetries(3, retry.NewExponential(100*time.Millisecond)) // want `retry.NewExponential backs off without jitter`
	return retry.Do(ctx, b, func(ctx context.Context) error { return retry.RetryableError(call()) })
}

func wrappedJitter(ctx context.Context) error {
	b := retry.WithMaxRetries(3, retry.WithJitter(50*time.Millisecond, retry.NewExponential(100*time.Millisecond)))
	return retry.Do(ctx, b, func(ctx context.Context) error { return retry.RetryableError(call()) })
}

type poller struct {
	backoff retry.Backoff
	jittery retry.Backoff
}

func newPoller() *poller {
	return &poller{
		backoff: retry.NewConstant(time.Second), // want `retry.NewConstant waits a fixed 1s between attempts`
		jittery: retry.WithJitterPercent(10, retry.NewConstant(time.Second)),
	}
}

func (p *poller) poll(ctx context.Context) error {
	return retry.Do(ctx, p.backoff, func(ctx context.Context) error { return retry.RetryableError(call()) })
}

func (p *poller) pollJitter(ctx context.Context) error {
	return retry.Do(ctx, p.jittery, func(ctx context.Context) error { return retry.RetryableError(call()) })
}

// go-retryablehttp: a client kept in an unexported field whose Backoff
// nothing sets waits DefaultBackoff; one whose Backoff the package sets to
// a jittered one does not.

type api struct {
	hc     *retryablehttp.Client
	jitter *retryablehttp.Client
}

func newAPI() *api {
	a := &api{}
	a.hc = retryablehttp.NewClient() // want `retryablehttp.NewClient backs off with DefaultBackoff, which has no jitter`
	a.hc.RetryMax = 3
	a.jitter = retryablehttp.NewClient()
	a.jitter.Backoff = retryablehttp.LinearJitterBackoff
	return a
}

func (a *api) get(req *retryablehttp.Request) (*http.Response, error) { return a.hc.Do(req) }

// retry-go: options kept in a field and appended to at the call.

type worker struct {
	opts      []retrygo.Option
	jitterOpt []retrygo.Option
}

func newWorker() *worker {
	return &worker{
		opts:      []retrygo.Option{retrygo.Attempts(5), retrygo.DelayType(retrygo.FixedDelay)}, // want `retry.DelayType\(retrygo.FixedDelay\) has no random delay`
		jitterOpt: []retrygo.Option{retrygo.Attempts(5), retrygo.DelayType(retrygo.RandomDelay)},
	}
}

func (w *worker) run() error {
	return retrygo.Do(call, append(w.opts, retrygo.Attempts(3))...)
}

func (w *worker) runJitter() error {
	return retrygo.Do(call, append(w.jitterOpt, retrygo.Attempts(3))...)
}

// cenkalti/backoff: a literal with RandomizationFactor 0 returned by a
// constructor the caller uses.

func newBackOff() *backoff.ExponentialBackOff {
	return &backoff.ExponentialBackOff{
		InitialInterval:     time.Second,
		Multiplier:          2,
		RandomizationFactor: 0, // want `backoff.ExponentialBackOff with RandomizationFactor 0 waits the same for every client`
		MaxElapsedTime:      time.Minute,
	}
}

func newJitteredBackOff() *backoff.ExponentialBackOff {
	return &backoff.ExponentialBackOff{InitialInterval: time.Second, Multiplier: 2, RandomizationFactor: 0.5, MaxElapsedTime: time.Minute}
}

func viaConstructor() error { return backoff.Retry(call, newBackOff()) }

func viaJitteredConstructor() error { return backoff.Retry(call, newJitteredBackOff()) }
