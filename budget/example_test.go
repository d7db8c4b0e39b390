package budget_test

import (
	"errors"
	"expvar"
	"fmt"

	"github.com/retrylint/retrylint/budget"
)

var errUnavailable = errors.New("inventory: 503 service unavailable")

// A retry loop guarded by a budget: OnRequest once per request, TryRetry
// before each retry, and a refusal returns the last error. Here the
// dependency is down for 100 requests: without the budget it would get 400
// attempts, with it 111 — the floor's initial retry and one retry per ten
// requests.
func Example() {
	inventory := budget.New() // one per dependency, usually a package variable

	attempts := 0
	call := func() error { attempts++; return errUnavailable }

	getStock := func() error {
		inventory.OnRequest()
		var err error
		for attempt := 0; attempt < 4; attempt++ {
			if attempt > 0 {
				if !inventory.TryRetry() {
					return err // the budget refused: give up with the last error
				}
				// Back off here before retrying (omitted).
			}
			if err = call(); err == nil {
				return nil
			}
		}
		return err
	}

	for i := 0; i < 100; i++ {
		_ = getStock()
	}
	s := inventory.Stats()
	fmt.Printf("%d requests, %d attempts: %d retries allowed, %d refused\n",
		s.Requests, attempts, s.RetriesAllowed, s.RetriesRefused)
	// Output: 100 requests, 111 attempts: 11 retries allowed, 100 refused
}

// One budget per dependency, from a Registry: the outage of payments
// spends only payments' credit, and inventory keeps its own.
func ExampleRegistry() {
	retries := budget.NewRegistry(budget.Ratio(0.1))

	// payments is down, inventory is healthy.
	call := func(dependency string) error {
		if dependency == "payments" {
			return errors.New("payments: connection refused")
		}
		return nil
	}
	fetch := func(dependency string) error {
		b := retries.For(dependency)
		b.OnRequest()
		err := call(dependency)
		for retry := 0; retry < 3 && err != nil; retry++ {
			if !b.TryRetry() {
				break // refused: return the last error
			}
			err = call(dependency)
		}
		return err
	}

	for i := 0; i < 50; i++ {
		_ = fetch("inventory")
		_ = fetch("payments")
	}
	retries.Each(func(dependency string, b *budget.Budget) {
		s := b.Stats()
		fmt.Printf("%s: %d requests, %d retries, %d refused, %.1f tokens left\n",
			dependency, s.Requests, s.RetriesAllowed, s.RetriesRefused, s.Tokens)
	})
	// Output:
	// inventory: 50 requests, 0 retries, 0 refused, 5.0 tokens left
	// payments: 50 requests, 6 retries, 50 refused, 0.0 tokens left
}

// Exporting every budget's metrics with expvar, without this package
// depending on it: the retries refused, the bank's utilisation, the achieved
// retry ratio, the tokens and the p99 attempt time, per dependency.
func ExampleRegistry_Metrics() {
	retries := budget.NewRegistry(budget.MinPerSecond(0))
	payments, inventory := retries.For("payments"), retries.For("inventory")
	for i := 0; i < 20; i++ {
		payments.OnRequest()
		inventory.OnRequest()
	}
	for i := 0; i < 3; i++ {
		payments.TryRetry() // two paid, one refused
	}

	vars := expvar.Func(func() any { return retries.Metrics() })
	// At start-up, once: expvar.Publish("retry_budgets", vars)
	// serves it on /debug/vars.
	fmt.Println(vars.String())
	// Output: {"inventory":{"requests":20,"retries_allowed":0,"retries_refused":0,"retry_ratio":0,"utilisation":0.98,"tokens":2,"latency_p99_seconds":0},"payments":{"requests":20,"retries_allowed":2,"retries_refused":1,"retry_ratio":0.1,"utilisation":1,"tokens":0,"latency_p99_seconds":0}}
}

// A metrics library's collector does the same at each scrape: call Each
// and emit the counters as counters and the rest as gauges, labelled with
// the dependency (…/budget/prometheus does it for Prometheus).
func ExampleRegistry_Each() {
	retries := budget.NewRegistry()
	retries.For("payments").OnRequest()
	retries.For("inventory").OnRequest()

	retries.Each(func(dependency string, b *budget.Budget) {
		m := b.Metrics()
		fmt.Printf("retry_budget_requests_total{dependency=%q} %d\n", dependency, m.Requests)
		fmt.Printf("retry_budget_exhausted_total{dependency=%q} %d\n", dependency, m.RetriesRefused)
		fmt.Printf("retry_budget_utilisation{dependency=%q} %g\n", dependency, m.Utilisation)
	})
	// Output:
	// retry_budget_requests_total{dependency="inventory"} 1
	// retry_budget_exhausted_total{dependency="inventory"} 0
	// retry_budget_utilisation{dependency="inventory"} 0.999
	// retry_budget_requests_total{dependency="payments"} 1
	// retry_budget_exhausted_total{dependency="payments"} 0
	// retry_budget_utilisation{dependency="payments"} 0.999
}

// A package-level Registry keeps its budgets, and their credit, from one
// test to the next; Reset at the start of each test starts it afresh.
func ExampleRegistry_Reset() {
	retries := budget.NewRegistry(budget.MinPerSecond(0)) // a package variable in real code

	// An earlier test made 30 requests: 3 retries' worth of credit.
	for i := 0; i < 30; i++ {
		retries.For("inventory").OnRequest()
	}
	fmt.Println("before Reset:", retries.For("inventory").TryRetry())

	retries.Reset() // at the start of this test; t.Cleanup(retries.Reset) at its end
	fmt.Println("after Reset:", retries.For("inventory").TryRetry())
	// Output:
	// before Reset: true
	// after Reset: false
}
