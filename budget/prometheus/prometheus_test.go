package prometheus_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	prom "github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/budgettest"
	"github.com/retrylint/retrylint/budget/deadline"
	budgetprom "github.com/retrylint/retrylint/budget/prometheus"
	"github.com/retrylint/retrylint/budget/retry"
)

// outage sends requests through retry.Do to two dependencies of r:
// payments, down, and inventory, healthy, whose first attempts take 20ms
// on clock.
func outage(r *budget.Registry, clock *budgettest.Clock, requests int) error {
	errDown := errors.New("payments: 503")
	for i := 0; i < requests; i++ {
		err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: r.For("payments"), Clock: clock},
			func(context.Context) error { return errDown })
		if !errors.Is(err, errDown) {
			return fmt.Errorf("payments: Do = %w", err)
		}
		err = retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: r.For("inventory"), Clock: clock},
			func(context.Context) error { clock.Advance(20 * time.Millisecond); return nil })
		if err != nil {
			return fmt.Errorf("inventory: Do = %w", err)
		}
	}
	return nil
}

func TestCollectorAfterOutage(t *testing.T) {
	r := budget.NewRegistry(budget.MinPerSecond(0)) // no floor: deterministic
	clock := budgettest.NewClock(time.Unix(0, 0))
	if err := outage(r, clock, 1000); err != nil {
		t.Fatal(err)
	}
	c := budgetprom.NewCollector(r)

	// 1000 requests to the dead payments: each deposits 0.1, so 100
	// retries are allowed, and each request ends on a refused one: 1.1
	// attempts per request. Inventory banks 100 tokens of credit, its Cap.
	const want = `
# HELP retry_amplification_factor Attempts per original request to the dependency since the start, (requests + retries allowed) / requests.
# TYPE retry_amplification_factor gauge
retry_amplification_factor{dependency="inventory"} 1
retry_amplification_factor{dependency="payments"} 1.1
# HELP retry_budget_exhausted_total Retries that the dependency's retry budget refused: a failing dependency that the budget shields.
# TYPE retry_budget_exhausted_total counter
retry_budget_exhausted_total{dependency="inventory"} 0
retry_budget_exhausted_total{dependency="payments"} 1000
# HELP retry_budget_requests_total Original requests to the dependency that its retry budget counted (OnRequest).
# TYPE retry_budget_requests_total counter
retry_budget_requests_total{dependency="inventory"} 1000
retry_budget_requests_total{dependency="payments"} 1000
# HELP retry_budget_retries_allowed_total Retries that the dependency's retry budget allowed.
# TYPE retry_budget_retries_allowed_total counter
retry_budget_retries_allowed_total{dependency="inventory"} 0
retry_budget_retries_allowed_total{dependency="payments"} 100
# HELP retry_budget_tokens Credit in the retry budget's bucket, in retries.
# TYPE retry_budget_tokens gauge
retry_budget_tokens{dependency="inventory"} 100
retry_budget_tokens{dependency="payments"} 0
# HELP retry_budget_utilisation Share of the retry budget's bank that is spent, 1 - tokens/Cap: 1 when every banked retry is spent.
# TYPE retry_budget_utilisation gauge
retry_budget_utilisation{dependency="inventory"} 0
retry_budget_utilisation{dependency="payments"} 1
`
	if err := testutil.CollectAndCompare(c, strings.NewReader(want),
		"retry_amplification_factor", "retry_budget_exhausted_total", "retry_budget_requests_total",
		"retry_budget_retries_allowed_total", "retry_budget_tokens", "retry_budget_utilisation"); err != nil {
		t.Fatal(err)
	}
	// The p99 is the upper edge of the histogram bucket of 20ms, within
	// 25% above it; payments never succeeded and has none.
	p99 := map[string]float64{}
	for _, dep := range []string{"inventory", "payments"} {
		p99[dep] = r.For(dep).Metrics().LatencyP99
	}
	if p99["inventory"] < 0.020 || p99["inventory"] > 0.025 || p99["payments"] != 0 {
		t.Fatalf("p99 %v, want inventory's in [20ms, 25ms] and none for payments", p99)
	}
	if n := testutil.CollectAndCount(c, "retry_budget_attempt_p99_seconds"); n != 2 {
		t.Fatalf("%d p99 series, want one per dependency", n)
	}
	if problems, err := testutil.CollectAndLint(c); err != nil || len(problems) != 0 {
		t.Fatalf("lint: %v %v", problems, err)
	}
}

func TestCollectorFollowsTheRegistry(t *testing.T) {
	r := budget.NewRegistry()
	c := budgetprom.NewCollector(r)
	if n := testutil.CollectAndCount(c); n != 0 {
		t.Fatalf("%d metrics from an empty registry", n)
	}
	r.For("payments") // no request yet: no amplification factor
	if n := testutil.CollectAndCount(c); n != 6 {
		t.Fatalf("%d metrics for a dependency without requests, want 6", n)
	}
	r.For("payments").OnRequest()
	r.For("search").OnRequest()
	if n := testutil.CollectAndCount(c, "retry_amplification_factor"); n != 2 {
		t.Fatalf("%d amplification series for two dependencies", n)
	}
	r.Reset()
	if n := testutil.CollectAndCount(c); n != 0 {
		t.Fatalf("%d metrics after Reset, want none", n)
	}
}

func TestDeadlineCollector(t *testing.T) {
	h := deadline.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	serve := func(header string) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if header != "" {
			req.Header.Set(deadline.Header, header)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	before := deadline.Counters()
	later := strconv.FormatInt(time.Now().Add(time.Hour).UnixMilli(), 10)
	past := strconv.FormatInt(time.Now().Add(-time.Second).UnixMilli(), 10)
	serve(later) // adopted
	serve(later) // adopted
	serve(past)  // answered 504
	serve("")    // no deadline
	serve("soon")
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory.invalid/", nil)
	if _, err := deadline.Transport(nil).RoundTrip(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Transport sent a request past its deadline: %v", err)
	}

	// The counters are the process's: compare with those before.
	s := deadline.Counters()
	if s.Requests-before.Requests != 5 || s.HeaderPresent-before.HeaderPresent != 3 {
		t.Fatalf("counters %+v after %+v, want 5 requests, 3 with a deadline", s, before)
	}
	want := fmt.Sprintf(`
# HELP deadline_adopted_total Requests whose deadline the X-Request-Deadline header set or shortened.
# TYPE deadline_adopted_total counter
deadline_adopted_total %d
# HELP deadline_exceeded_total Work refused because its deadline had passed: inbound requests answered 504, outbound requests not sent.
# TYPE deadline_exceeded_total counter
deadline_exceeded_total{direction="inbound"} %d
deadline_exceeded_total{direction="outbound"} %d
# HELP deadline_header_malformed_total X-Request-Deadline values ignored because they did not parse.
# TYPE deadline_header_malformed_total counter
deadline_header_malformed_total %d
# HELP deadline_header_present_ratio Share of the requests handled since the start that arrived with a deadline.
# TYPE deadline_header_present_ratio gauge
deadline_header_present_ratio %g
# HELP deadline_header_present_total Requests that arrived with a deadline in the X-Request-Deadline header.
# TYPE deadline_header_present_total counter
deadline_header_present_total %d
# HELP deadline_requests_total Requests that the deadline middleware handled.
# TYPE deadline_requests_total counter
deadline_requests_total %d
`, before.Adopted+3, before.Expired+1, before.NotSent+1, before.Malformed+1,
		float64(s.HeaderPresent)/float64(s.Requests), s.HeaderPresent, s.Requests)
	if err := testutil.CollectAndCompare(budgetprom.NewDeadlineCollector(), strings.NewReader(want)); err != nil {
		t.Fatal(err)
	}
	if problems, err := testutil.CollectAndLint(budgetprom.NewDeadlineCollector()); err != nil || len(problems) != 0 {
		t.Fatalf("lint: %v %v", problems, err)
	}
}

func TestRegister(t *testing.T) {
	reg := prom.NewPedanticRegistry()
	retries := budget.NewRegistry()
	retries.For("payments").OnRequest()
	if err := budgetprom.Register(reg, retries); err != nil {
		t.Fatal(err)
	}
	n, err := testutil.GatherAndCount(reg, "retry_budget_requests_total", "deadline_requests_total")
	if err != nil || n != 2 {
		t.Fatalf("gathered %d series (%v), want payments' requests and the deadline requests", n, err)
	}
	if err := budgetprom.Register(reg, retries); err == nil {
		t.Fatal("registering twice succeeded")
	}
	// Two registries in one collector, with distinct dependencies.
	other := budget.NewRegistry()
	other.For("search").OnRequest()
	reg2 := prom.NewPedanticRegistry()
	if err := reg2.Register(budgetprom.NewCollector(retries, other)); err != nil {
		t.Fatal(err)
	}
	if n, err := testutil.GatherAndCount(reg2, "retry_budget_requests_total"); err != nil || n != 2 {
		t.Fatalf("gathered %d request series from two registries (%v), want 2", n, err)
	}
}
