package prometheus_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"time"

	prom "github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/budgettest"
	budgetprom "github.com/retrylint/retrylint/budget/prometheus"
	"github.com/retrylint/retrylint/budget/retry"
)

// A scrape after an outage of payments: 1000 requests, each allowed up to
// 4 attempts, made 1.1 attempts per request, and the budget refused 1000
// retries; inventory, healthy, banked its Cap of credit.
func ExampleNewCollector() {
	retries := budget.NewRegistry(budget.MinPerSecond(0))
	clock := budgettest.NewClock(time.Unix(0, 0)) // attempts take 20ms on it
	payments := retry.Policy{MaxAttempts: 4, Budget: retries.For("payments"), Clock: clock}
	inventory := retry.Policy{MaxAttempts: 4, Budget: retries.For("inventory"), Clock: clock}
	for i := 0; i < 1000; i++ {
		_ = retry.Do(context.Background(), payments, func(context.Context) error {
			return errors.New("payments: 503")
		})
		_ = retry.Do(context.Background(), inventory, func(context.Context) error {
			clock.Advance(20 * time.Millisecond)
			return nil
		})
	}

	reg := prom.NewRegistry()
	reg.MustRegister(budgetprom.NewCollector(retries))
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if !strings.HasPrefix(line, "# HELP") && line != "" {
			fmt.Println(line)
		}
	}
	// Output:
	// # TYPE retry_amplification_factor gauge
	// retry_amplification_factor{dependency="inventory"} 1
	// retry_amplification_factor{dependency="payments"} 1.1
	// # TYPE retry_budget_attempt_p99_seconds gauge
	// retry_budget_attempt_p99_seconds{dependency="inventory"} 0.02097152
	// retry_budget_attempt_p99_seconds{dependency="payments"} 0
	// # TYPE retry_budget_exhausted_total counter
	// retry_budget_exhausted_total{dependency="inventory"} 0
	// retry_budget_exhausted_total{dependency="payments"} 1000
	// # TYPE retry_budget_requests_total counter
	// retry_budget_requests_total{dependency="inventory"} 1000
	// retry_budget_requests_total{dependency="payments"} 1000
	// # TYPE retry_budget_retries_allowed_total counter
	// retry_budget_retries_allowed_total{dependency="inventory"} 0
	// retry_budget_retries_allowed_total{dependency="payments"} 100
	// # TYPE retry_budget_tokens gauge
	// retry_budget_tokens{dependency="inventory"} 100
	// retry_budget_tokens{dependency="payments"} 0
	// # TYPE retry_budget_utilisation gauge
	// retry_budget_utilisation{dependency="inventory"} 0
	// retry_budget_utilisation{dependency="payments"} 1
}
