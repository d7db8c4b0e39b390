package retry_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/retry"
)

// OnRetry sees every retry before its wait: the place to log it, count it
// or add an event to the request's span.
func ExamplePolicy_onRetry() {
	attempts := 0
	err := retry.Do(context.Background(), retry.Policy{
		MaxAttempts: 3,
		OnRetry: func(attempt int, err error, wait time.Duration) {
			fmt.Printf("attempt %d failed (%v); retrying in %v\n", attempt, err, wait)
		},
	}, func(context.Context) error {
		if attempts++; attempts < 3 {
			return errors.New("inventory: 503")
		}
		return nil
	})
	fmt.Println("result:", err)
	// Output:
	// attempt 1 failed (inventory: 503); retrying in 0s
	// attempt 2 failed (inventory: 503); retrying in 0s
	// result: <nil>
}

// The error of Do is the last attempt's, for errors.Is and errors.As as if
// Do were not there, and says why there was no other attempt.
func ExampleError() {
	errUnavailable := errors.New("inventory: 503 service unavailable")
	empty := budget.New(budget.MinPerSecond(0)) // no credit yet: refuses every retry

	err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: empty},
		func(context.Context) error { return errUnavailable })

	fmt.Println(err)
	fmt.Println("the dependency's error:", errors.Is(err, errUnavailable))
	switch {
	case errors.Is(err, retry.ErrBudget):
		fmt.Println("the budget refused: the dependency is failing, shed load")
	case errors.Is(err, retry.ErrDeadline):
		fmt.Println("no time left for a retry")
	case errors.Is(err, retry.ErrAttempts), errors.Is(err, retry.ErrFinal):
		fmt.Println("the attempts failed")
	}
	var re *retry.Error
	if errors.As(err, &re) {
		fmt.Println("attempts:", re.Attempts)
	}
	// Output:
	// inventory: 503 service unavailable (retries stopped after 1 attempt: budget refused the retry)
	// the dependency's error: true
	// the budget refused: the dependency is failing, shed load
	// attempts: 1
}

// Validate checks a Policy where it is built, so that a mistake fails at
// start-up, or in any test, rather than at the first request.
func ExamplePolicy_Validate() {
	inventoryPolicy := retry.Policy{
		MaxAttempts:  4,
		InitialDelay: time.Second,
		MaxDelay:     100 * time.Millisecond, // a mistake: below InitialDelay
	}
	// In an init function: if err := ...; err != nil { panic(err) }
	if err := inventoryPolicy.Validate(); err != nil {
		fmt.Println(err)
	}
	// Output: retry: invalid policy: MaxDelay 100ms is below InitialDelay 1s
}

// HTTPErrorOf turns a failed response into an error that the classifiers
// and HTTPRetryAfter read: here a 429 with Retry-After is retried after
// the delay it asks for, and succeeds.
func ExampleHTTPErrorOf() {
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls++; calls == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		fmt.Fprint(w, "7 in stock")
	}))
	defer srv.Close()

	body, err := retry.DoValue(context.Background(), retry.Policy{
		MaxAttempts: 3,
		ShouldRetry: retry.IsTransient, // 5xx but 501 and 505, 429, timeouts
		RetryAfter:  retry.HTTPRetryAfter,
		OnRetry: func(attempt int, err error, wait time.Duration) {
			var he *retry.HTTPError
			if errors.As(err, &he) {
				fmt.Println("retrying after HTTP", he.StatusCode)
			}
		},
	}, func(ctx context.Context) (string, error) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/stock/42", nil)
		resp, err := srv.Client().Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		if err := retry.HTTPErrorOf(resp); err != nil {
			return "", err
		}
		b, err := io.ReadAll(resp.Body)
		return string(b), err
	})
	fmt.Println(body, err)
	// Output:
	// retrying after HTTP 429
	// 7 in stock <nil>
}
