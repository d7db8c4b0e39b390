// Package retry is a behaving fake of k8s.io/client-go/util/retry for
// rltest.Behave: the API of the test stub, run as v0.37.2 runs it
// (OnError makes up to backoff.Steps attempts through
// wait.ExponentialBackoff; an error retriable refuses ends them and
// OnError returns it; after the last attempt it returns the last error).
// The waits are the backoff's Duration, without its factor and jitter.
package retry

import (
	"errors"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

var DefaultRetry = wait.Backoff{Steps: 5, Duration: 10 * time.Millisecond, Factor: 1.0, Jitter: 0.1}
var DefaultBackoff = wait.Backoff{Steps: 4, Duration: 10 * time.Millisecond, Factor: 5.0, Jitter: 0.1}

// errWaitTimeout stands for wait.ErrWaitTimeout, which OnError replaces
// with the last error.
var errWaitTimeout = errors.New("timed out waiting for the condition")

func OnError(backoff wait.Backoff, retriable func(error) bool, fn func() error) error {
	var lastErr error
	err := errWaitTimeout
	for backoff.Steps > 0 {
		e := fn()
		if e == nil {
			return nil
		}
		if !retriable(e) {
			return e
		}
		lastErr = e
		if backoff.Steps == 1 {
			break
		}
		backoff.Steps--
		time.Sleep(backoff.Duration)
	}
	if lastErr != nil {
		return lastErr
	}
	return err
}

// RetryOnConflict retries conflicts; the fake has no API errors, so it
// retries none.
func RetryOnConflict(backoff wait.Backoff, fn func() error) error {
	return OnError(backoff, func(error) bool { return false }, fn)
}
