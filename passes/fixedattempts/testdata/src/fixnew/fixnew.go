package fixnew

import (
	"context"
	"net/http"
	"time"

	_ "github.com/retrylint/retrylint/budget"
)

type Ledger struct{}

func (l *Ledger) Post(ctx context.Context) (int, error) { return 0, nil }

// No budget in scope: a new package-level budget named after the dependency.
func post(ctx context.Context, ledger *Ledger) (int, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var n int
		n, err = ledger.Post(ctx)
		if err == nil {
			return n, nil
		}
		time.Sleep(time.Second)
	}
	return 0, err
}

// The host names the budget.
func get(c *http.Client) (*http.Response, error) {
	for i := 0; i < 2; i++ { // want `up to 2 attempts`
		resp, err := c.Get("https://ledger.internal/balance")
		if err != nil {
			continue
		}
		return resp, nil
	}
	return nil, http.ErrHandlerTimeout
}

// A generic retry helper: it gets a budget parameter that each caller
// fills (it has none here).
func retryValue[T any](ctx context.Context, op func(context.Context) (T, error)) (T, error) {
	for tries := 1; ; tries++ { // want `up to 4 attempts`
		v, err := op(ctx)
		if err == nil {
			return v, nil
		}
		if tries >= 4 {
			return v, err
		}
		time.Sleep(time.Second)
	}
}

// A generic loop bounded by its context: a refusal returns the type
// parameter's zero value, *new(T), not nil.
func postAll[T any](ctx context.Context, ledger *Ledger, decode func(int) T) (T, error) {
	for { // want `bounded only by time`
		n, err := ledger.Post(ctx)
		if err == nil {
			return decode(n), nil
		}
		select {
		case <-ctx.Done():
			return *new(T), ctx.Err()
		case <-time.After(time.Second):
		}
	}
}
