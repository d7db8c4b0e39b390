// Package otel exports retry budgets and deadline propagation as
// OpenTelemetry metrics, and records a request's deadline on its span.
//
// RegisterBudgets observes the budgets of a budget.Registry, with the
// dependency as the attribute "dependency", and RegisterDeadline the
// counters of the package deadline (with "direction" on
// deadline_exceeded_total), at each collection, under the same names as
// the Prometheus collector of …/budget/prometheus, those of the
// retry-budget checklist: retry_budget_requests_total,
// retry_budget_retries_allowed_total, retry_budget_exhausted_total,
// retry_budget_utilisation, retry_budget_tokens,
// retry_budget_attempt_p99_seconds, retry_amplification_factor,
// deadline_requests_total, deadline_header_present_total,
// deadline_header_present_ratio, deadline_exceeded_total,
// deadline_adopted_total and deadline_header_malformed_total. The
// utilisation and the amplification factor have no unit, so that an
// exporter to Prometheus adds no suffix to their names.
//
//	reg, err := budgetotel.Register(otel.Meter("inventory"), retries)
//
// Middleware is deadline.Middleware that also sets the attribute
// request.deadline_ms (the deadline in Unix milliseconds) on the span of
// the request's context, which a tracing middleware outside it started;
// RecordDeadline does the same for any context.
//
// The package name is the same as OpenTelemetry's, so import it under
// another, such as budgetotel.
package otel

import (
	"context"
	"errors"
	"net/http"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/embedded"
	"go.opentelemetry.io/otel/trace"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/deadline"
)

// DeadlineAttribute is the key of the span attribute that holds the
// request's deadline, in Unix milliseconds.
const DeadlineAttribute = attribute.Key("request.deadline_ms")

// RecordDeadline sets DeadlineAttribute on the span of ctx to the deadline
// of ctx, if ctx has one and its span is recording.
func RecordDeadline(ctx context.Context) {
	d, ok := ctx.Deadline()
	if !ok {
		return
	}
	if span := trace.SpanFromContext(ctx); span.IsRecording() {
		span.SetAttributes(DeadlineAttribute.Int64(d.UnixMilli()))
	}
}

// Middleware is deadline.Middleware, adopting the deadline of the
// X-Request-Deadline header, that also records the deadline the handler
// runs with on the request's span (RecordDeadline). Put it inside the
// middleware that starts the span, such as otelhttp.NewHandler. A request
// that deadline.Middleware answers 504 at once gets no attribute.
func Middleware(next http.Handler) http.Handler {
	return deadline.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		RecordDeadline(r.Context())
		next.ServeHTTP(w, r)
	}))
}

var dependencyKey = attribute.Key("dependency")

// RegisterBudgets registers with meter instruments observing the budgets
// of the registries at each collection: a Registry's new dependencies
// appear by themselves. Two registries must not name the same dependency.
// Unregister the returned Registration to stop.
func RegisterBudgets(meter metric.Meter, registries ...*budget.Registry) (metric.Registration, error) {
	var errs []error
	counter := func(name, desc, unit string) metric.Int64ObservableCounter {
		c, err := meter.Int64ObservableCounter(name, metric.WithDescription(desc), metric.WithUnit(unit))
		errs = append(errs, err)
		return c
	}
	gauge := func(name, desc, unit string) metric.Float64ObservableGauge {
		g, err := meter.Float64ObservableGauge(name, metric.WithDescription(desc), metric.WithUnit(unit))
		errs = append(errs, err)
		return g
	}
	requests := counter("retry_budget_requests_total",
		"Original requests to the dependency that its retry budget counted (OnRequest).", "{request}")
	allowed := counter("retry_budget_retries_allowed_total",
		"Retries that the dependency's retry budget allowed.", "{retry}")
	exhausted := counter("retry_budget_exhausted_total",
		"Retries that the dependency's retry budget refused: a failing dependency that the budget shields.", "{retry}")
	utilisation := gauge("retry_budget_utilisation",
		"Share of the retry budget's bank that is spent, 1 - tokens/Cap: 1 when every banked retry is spent.", "")
	tokens := gauge("retry_budget_tokens",
		"Credit in the retry budget's bucket, in retries.", "{retry}")
	p99 := gauge("retry_budget_attempt_p99_seconds",
		"The p99 of the recorded attempt times of the dependency (its healthy first attempts), 0 before any.", "s")
	amplification := gauge("retry_amplification_factor",
		"Attempts per original request to the dependency since the start, (requests + retries allowed) / requests.", "")
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		for _, r := range registries {
			r.Each(func(dependency string, b *budget.Budget) {
				m := b.Metrics()
				at := metric.WithAttributeSet(attribute.NewSet(dependencyKey.String(dependency)))
				o.ObserveInt64(requests, int64(m.Requests), at)
				o.ObserveInt64(allowed, int64(m.RetriesAllowed), at)
				o.ObserveInt64(exhausted, int64(m.RetriesRefused), at)
				o.ObserveFloat64(utilisation, m.Utilisation, at)
				o.ObserveFloat64(tokens, m.Tokens, at)
				o.ObserveFloat64(p99, m.LatencyP99, at)
				if m.Requests > 0 {
					o.ObserveFloat64(amplification, 1+m.RetryRatio, at)
				}
			})
		}
		return nil
	}, requests, allowed, exhausted, utilisation, tokens, p99, amplification)
}

// RegisterDeadline registers with meter instruments observing the
// counters of the package deadline (deadline.Counters), which count every
// use of it in the process: register them once. Unregister the returned
// Registration to stop.
func RegisterDeadline(meter metric.Meter) (metric.Registration, error) {
	var errs []error
	counter := func(name, desc, unit string) metric.Int64ObservableCounter {
		c, err := meter.Int64ObservableCounter(name, metric.WithDescription(desc), metric.WithUnit(unit))
		errs = append(errs, err)
		return c
	}
	requests := counter("deadline_requests_total", "Requests that the deadline middleware handled.", "{request}")
	present := counter("deadline_header_present_total", "Requests that arrived with a deadline in the X-Request-Deadline header.", "{request}")
	exceeded := counter("deadline_exceeded_total", "Work refused because its deadline had passed: inbound requests answered 504, outbound requests not sent.", "{request}")
	adopted := counter("deadline_adopted_total", "Requests whose deadline the X-Request-Deadline header set or shortened.", "{request}")
	malformed := counter("deadline_header_malformed_total", "X-Request-Deadline values ignored because they did not parse.", "{value}")
	ratio, err := meter.Float64ObservableGauge("deadline_header_present_ratio",
		metric.WithDescription("Share of the requests handled since the start that arrived with a deadline."), metric.WithUnit("1"))
	errs = append(errs, err)
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	inbound := metric.WithAttributeSet(attribute.NewSet(attribute.String("direction", "inbound")))
	outbound := metric.WithAttributeSet(attribute.NewSet(attribute.String("direction", "outbound")))
	return meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		s := deadline.Counters()
		o.ObserveInt64(requests, int64(s.Requests))
		o.ObserveInt64(present, int64(s.HeaderPresent))
		if s.Requests > 0 {
			o.ObserveFloat64(ratio, float64(s.HeaderPresent)/float64(s.Requests))
		}
		o.ObserveInt64(exceeded, int64(s.Expired), inbound)
		o.ObserveInt64(exceeded, int64(s.NotSent), outbound)
		o.ObserveInt64(adopted, int64(s.Adopted))
		o.ObserveInt64(malformed, int64(s.Malformed))
		return nil
	}, requests, present, exceeded, adopted, malformed, ratio)
}

// Register registers both RegisterBudgets' and RegisterDeadline's
// instruments with meter: call it once. Unregistering the returned
// Registration unregisters both.
func Register(meter metric.Meter, registries ...*budget.Registry) (metric.Registration, error) {
	b, err := RegisterBudgets(meter, registries...)
	if err != nil {
		return nil, err
	}
	d, err := RegisterDeadline(meter)
	if err != nil {
		return nil, errors.Join(err, b.Unregister())
	}
	return both{first: b, second: d}, nil
}

// both is two Registrations as one.
type both struct {
	embedded.Registration
	first, second metric.Registration
}

func (r both) Unregister() error {
	return errors.Join(r.first.Unregister(), r.second.Unregister())
}
