// Package retry is a signature-only stub of the runtime retry executor,
// for tests of the analyzers.
package retry

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

type Policy struct {
	MaxAttempts  int
	InitialDelay time.Duration
	MaxDelay     time.Duration
	Budget       *budget.Budget
	ShouldRetry  func(error) bool
	RetryAfter   func(error) (time.Duration, bool)
}

var ErrInvalidPolicy = errors.New("retry: invalid policy")

func Do(ctx context.Context, p Policy, op func(context.Context) error) error { return nil }

func DoValue[T any](ctx context.Context, p Policy, op func(context.Context) (T, error)) (T, error) {
	var v T
	return v, nil
}

type HTTPError struct {
	StatusCode int
	RetryAfter time.Duration
}

func (e *HTTPError) Error() string                                      { return "" }
func NewHTTPError(resp *http.Response) *HTTPError                       { return nil }
func HTTPRetryAfter(err error) (time.Duration, bool)                    { return 0, false }
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) { return 0, false }
