// Package prometheus exports retry budgets and deadline propagation as
// Prometheus metrics: a collector for the budgets of a budget.Registry,
// with the dependency as a label, and one for the counters of the
// package deadline. The names are those of the retry-budget checklist,
// which its dashboards and alerts use:
//
//	retry_budget_requests_total{dependency}         original requests (OnRequest)
//	retry_budget_retries_allowed_total{dependency}  retries the budget allowed
//	retry_budget_exhausted_total{dependency}        retries the budget refused
//	retry_budget_utilisation{dependency}            1 − tokens/Cap: 1 when every banked retry is spent
//	retry_budget_tokens{dependency}                 the credit in the bucket, in retries
//	retry_budget_attempt_p99_seconds{dependency}    the p99 of the recorded attempt times
//	retry_amplification_factor{dependency}          attempts per request since the start
//	deadline_requests_total                         requests that deadline.Middleware handled
//	deadline_header_present_total                   of them, those that carried a deadline
//	deadline_header_present_ratio                   the share of them since the start
//	deadline_exceeded_total{direction}              work refused at its deadline: "inbound" answered 504, "outbound" not sent
//	deadline_adopted_total                          requests whose deadline the header set or shortened
//	deadline_header_malformed_total                 header values ignored
//
// The amplification factor and the header-present ratio are since the
// process started (or the Registry was Reset); for a window, divide the
// rates of the counters, as the queries in the budget module's README do.
// A gauge that is a ratio is left out until its denominator is not zero.
//
// Register both collectors once, at start-up:
//
//	var retries = budget.NewRegistry()
//
//	func init() {
//		if err := budgetprom.Register(prometheus.DefaultRegisterer, retries); err != nil {
//			panic(err)
//		}
//	}
//
// The package name is the same as client_golang's, so import it under
// another, such as budgetprom.
package prometheus

import (
	prom "github.com/prometheus/client_golang/prometheus"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/deadline"
)

var (
	depLabel = []string{"dependency"}

	requestsDesc = prom.NewDesc("retry_budget_requests_total",
		"Original requests to the dependency that its retry budget counted (OnRequest).", depLabel, nil)
	allowedDesc = prom.NewDesc("retry_budget_retries_allowed_total",
		"Retries that the dependency's retry budget allowed.", depLabel, nil)
	exhaustedDesc = prom.NewDesc("retry_budget_exhausted_total",
		"Retries that the dependency's retry budget refused: a failing dependency that the budget shields.", depLabel, nil)
	utilisationDesc = prom.NewDesc("retry_budget_utilisation",
		"Share of the retry budget's bank that is spent, 1 - tokens/Cap: 1 when every banked retry is spent.", depLabel, nil)
	tokensDesc = prom.NewDesc("retry_budget_tokens",
		"Credit in the retry budget's bucket, in retries.", depLabel, nil)
	p99Desc = prom.NewDesc("retry_budget_attempt_p99_seconds",
		"The p99 of the recorded attempt times of the dependency (its healthy first attempts), 0 before any.", depLabel, nil)
	amplificationDesc = prom.NewDesc("retry_amplification_factor",
		"Attempts per original request to the dependency since the start, (requests + retries allowed) / requests.", depLabel, nil)

	dlRequestsDesc = prom.NewDesc("deadline_requests_total",
		"Requests that the deadline middleware handled.", nil, nil)
	dlPresentDesc = prom.NewDesc("deadline_header_present_total",
		"Requests that arrived with a deadline in the X-Request-Deadline header.", nil, nil)
	dlRatioDesc = prom.NewDesc("deadline_header_present_ratio",
		"Share of the requests handled since the start that arrived with a deadline.", nil, nil)
	dlExceededDesc = prom.NewDesc("deadline_exceeded_total",
		"Work refused because its deadline had passed: inbound requests answered 504, outbound requests not sent.", []string{"direction"}, nil)
	dlAdoptedDesc = prom.NewDesc("deadline_adopted_total",
		"Requests whose deadline the X-Request-Deadline header set or shortened.", nil, nil)
	dlMalformedDesc = prom.NewDesc("deadline_header_malformed_total",
		"X-Request-Deadline values ignored because they did not parse.", nil, nil)
)

// NewCollector returns a collector of the budgets of the registries, read
// at each scrape: a Registry's new dependencies appear by themselves. Two
// registries must not name the same dependency, or the scrape fails.
func NewCollector(registries ...*budget.Registry) prom.Collector {
	return &budgetCollector{registries: registries}
}

type budgetCollector struct{ registries []*budget.Registry }

func (c *budgetCollector) Describe(ch chan<- *prom.Desc) {
	for _, d := range []*prom.Desc{requestsDesc, allowedDesc, exhaustedDesc, utilisationDesc, tokensDesc, p99Desc, amplificationDesc} {
		ch <- d
	}
}

func (c *budgetCollector) Collect(ch chan<- prom.Metric) {
	for _, r := range c.registries {
		r.Each(func(dependency string, b *budget.Budget) {
			m := b.Metrics()
			ch <- prom.MustNewConstMetric(requestsDesc, prom.CounterValue, float64(m.Requests), dependency)
			ch <- prom.MustNewConstMetric(allowedDesc, prom.CounterValue, float64(m.RetriesAllowed), dependency)
			ch <- prom.MustNewConstMetric(exhaustedDesc, prom.CounterValue, float64(m.RetriesRefused), dependency)
			ch <- prom.MustNewConstMetric(utilisationDesc, prom.GaugeValue, m.Utilisation, dependency)
			ch <- prom.MustNewConstMetric(tokensDesc, prom.GaugeValue, m.Tokens, dependency)
			ch <- prom.MustNewConstMetric(p99Desc, prom.GaugeValue, m.LatencyP99, dependency)
			if m.Requests > 0 {
				ch <- prom.MustNewConstMetric(amplificationDesc, prom.GaugeValue, 1+m.RetryRatio, dependency)
			}
		})
	}
}

// NewDeadlineCollector returns a collector of the counters of the package
// deadline (deadline.Counters), which count every use of it in the
// process: register it once.
func NewDeadlineCollector() prom.Collector { return deadlineCollector{} }

type deadlineCollector struct{}

func (deadlineCollector) Describe(ch chan<- *prom.Desc) {
	for _, d := range []*prom.Desc{dlRequestsDesc, dlPresentDesc, dlRatioDesc, dlExceededDesc, dlAdoptedDesc, dlMalformedDesc} {
		ch <- d
	}
}

func (deadlineCollector) Collect(ch chan<- prom.Metric) {
	s := deadline.Counters()
	ch <- prom.MustNewConstMetric(dlRequestsDesc, prom.CounterValue, float64(s.Requests))
	ch <- prom.MustNewConstMetric(dlPresentDesc, prom.CounterValue, float64(s.HeaderPresent))
	if s.Requests > 0 {
		ch <- prom.MustNewConstMetric(dlRatioDesc, prom.GaugeValue, float64(s.HeaderPresent)/float64(s.Requests))
	}
	ch <- prom.MustNewConstMetric(dlExceededDesc, prom.CounterValue, float64(s.Expired), "inbound")
	ch <- prom.MustNewConstMetric(dlExceededDesc, prom.CounterValue, float64(s.NotSent), "outbound")
	ch <- prom.MustNewConstMetric(dlAdoptedDesc, prom.CounterValue, float64(s.Adopted))
	ch <- prom.MustNewConstMetric(dlMalformedDesc, prom.CounterValue, float64(s.Malformed))
}

// Register registers with reg a collector of the budgets of the
// registries (NewCollector) and one of the deadline counters
// (NewDeadlineCollector). It returns the error of the first registration
// that fails; call it once per reg.
func Register(reg prom.Registerer, registries ...*budget.Registry) error {
	if err := reg.Register(NewCollector(registries...)); err != nil {
		return err
	}
	return reg.Register(NewDeadlineCollector())
}
