package callerdeps

import (
	"context"
	"errors"
	"net/http"

	"github.com/retrylint/retrylint/budget"
)

// Look-alikes: helpers whose callers pass one dependency, dependencies
// that are not known, and budgets per dependency.

var oneBudget = budget.New()

func postOne(ctx context.Context, url string) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post(url, "text/plain", nil)
		if err == nil {
			return resp.Body.Close()
		}
		if !oneBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// The same host from two callers.
func first(ctx context.Context) error  { return postOne(ctx, "https://orders.internal/a") }
func second(ctx context.Context) error { return postOne(ctx, "https://orders.internal/b") }

// A URL the package does not know (an exported function's parameter).
func Forward(ctx context.Context, url string) error { return postOne(ctx, url) }

// A URL that is not a constant, nor a field.
func computed(ctx context.Context, host string) error {
	return postOne(ctx, "https://"+host+"/c")
}

// One budget per host, taken from a registry by the host.
var hosts = budget.NewRegistry()

func postKeyed(ctx context.Context, host string) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post("https://"+host+"/x", "text/plain", nil)
		if err == nil {
			return resp.Body.Close()
		}
		if !hosts.For(host).TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func keyed(ctx context.Context) error {
	if err := postKeyed(ctx, "orders.internal"); err != nil {
		return err
	}
	return postKeyed(ctx, "users.internal")
}

// The callers pass a budget per URL.
var (
	ordersBudget = budget.New()
	usersBudget  = budget.New()
)

func perDependency(ctx context.Context) error {
	if err := postWith(ctx, ordersBudget, "https://orders.internal/sync"); err != nil {
		return err
	}
	return postWith(ctx, usersBudget, "https://users.internal/sync")
}

// The helper reached through a function value.
func viaValue(ctx context.Context) error {
	f := postOne
	if err := f(ctx, "https://users.internal/a"); err != nil {
		return err
	}
	return postOne(ctx, "https://orders.internal/c")
}

// A URL parameter the helper changes before it sends.
var changedBudget = budget.New()

func postChanged(ctx context.Context, url string) error {
	url = url + "?retry=1"
	for i := 0; i < 3; i++ {
		resp, err := http.Post(url, "text/plain", nil)
		if err == nil {
			return resp.Body.Close()
		}
		if !changedBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func changed(ctx context.Context) error {
	if err := postChanged(ctx, "https://orders.internal/a"); err != nil {
		return err
	}
	return postChanged(ctx, "https://users.internal/a")
}
