package libs

import (
	"bytes"
	"context"
	"net/http"

	"github.com/cenkalti/backoff/v4"
	"github.com/sethvargo/go-retry"
)

func send(hc *http.Client, url string, payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload)) // want `req is built once with a body and sent on every attempt of the backoff.Retry operation`
	if err != nil {
		return err
	}
	return backoff.Retry(func() error {
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.NewExponentialBackOff())
}

func goRetry(ctx context.Context, hc *http.Client, url string, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload)) // want `sent on every attempt of the retry.Do operation`
	if err != nil {
		return err
	}
	return retry.Do(ctx, retry.NewConstant(1), func(ctx context.Context) error {
		resp, err := hc.Do(req)
		if err != nil {
			return retry.RetryableError(err)
		}
		return resp.Body.Close()
	})
}

// Built inside the operation: a new body each attempt.
func rebuilt(hc *http.Client, url string, payload []byte) error {
	return backoff.Retry(func() error {
		req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(payload))
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.NewExponentialBackOff())
}

// An operation that never marks an error retryable never retries.
func never(ctx context.Context, hc *http.Client, url string, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	return retry.Do(ctx, retry.NewConstant(1), func(ctx context.Context) error {
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	})
}
