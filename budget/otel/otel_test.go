package otel_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/metric/metricdata/metricdatatest"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/budgettest"
	"github.com/retrylint/retrylint/budget/deadline"
	budgetotel "github.com/retrylint/retrylint/budget/otel"
	"github.com/retrylint/retrylint/budget/retry"
)

// collect returns the metrics that reader collects, by name.
func collect(t *testing.T, reader *sdkmetric.ManualReader) map[string]metricdata.Metrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	out := map[string]metricdata.Metrics{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			out[m.Name] = m
		}
	}
	return out
}

func dep(name string) attribute.Set { return attribute.NewSet(attribute.String("dependency", name)) }

func counter(name, desc, unit string, points ...metricdata.DataPoint[int64]) metricdata.Metrics {
	return metricdata.Metrics{Name: name, Description: desc, Unit: unit, Data: metricdata.Sum[int64]{
		Temporality: metricdata.CumulativeTemporality, IsMonotonic: true, DataPoints: points}}
}

func gauge(name, desc, unit string, points ...metricdata.DataPoint[float64]) metricdata.Metrics {
	return metricdata.Metrics{Name: name, Description: desc, Unit: unit, Data: metricdata.Gauge[float64]{DataPoints: points}}
}

func TestBudgetsAfterOutage(t *testing.T) {
	r := budget.NewRegistry(budget.MinPerSecond(0)) // no floor: deterministic
	clock := budgettest.NewClock(time.Unix(0, 0))
	errDown := errors.New("payments: 503")
	for i := 0; i < 1000; i++ {
		_ = retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: r.For("payments"), Clock: clock},
			func(context.Context) error { return errDown })
		_ = retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: r.For("inventory"), Clock: clock},
			func(context.Context) error { clock.Advance(20 * time.Millisecond); return nil })
	}
	reader := sdkmetric.NewManualReader()
	meter := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)).Meter("test")
	reg, err := budgetotel.RegisterBudgets(meter, r)
	if err != nil {
		t.Fatal(err)
	}
	got := collect(t, reader)

	// As in the Prometheus collector's test: payments gets 1.1 attempts
	// per request and the budget refuses 1000 retries; inventory banks its
	// Cap.
	inv, pay := dep("inventory"), dep("payments")
	for _, want := range []metricdata.Metrics{
		counter("retry_budget_requests_total", "Original requests to the dependency that its retry budget counted (OnRequest).", "{request}",
			metricdata.DataPoint[int64]{Attributes: inv, Value: 1000}, metricdata.DataPoint[int64]{Attributes: pay, Value: 1000}),
		counter("retry_budget_retries_allowed_total", "Retries that the dependency's retry budget allowed.", "{retry}",
			metricdata.DataPoint[int64]{Attributes: inv, Value: 0}, metricdata.DataPoint[int64]{Attributes: pay, Value: 100}),
		counter("retry_budget_exhausted_total", "Retries that the dependency's retry budget refused: a failing dependency that the budget shields.", "{retry}",
			metricdata.DataPoint[int64]{Attributes: inv, Value: 0}, metricdata.DataPoint[int64]{Attributes: pay, Value: 1000}),
		gauge("retry_budget_utilisation", "Share of the retry budget's bank that is spent, 1 - tokens/Cap: 1 when every banked retry is spent.", "",
			metricdata.DataPoint[float64]{Attributes: inv, Value: 0}, metricdata.DataPoint[float64]{Attributes: pay, Value: 1}),
		gauge("retry_budget_tokens", "Credit in the retry budget's bucket, in retries.", "{retry}",
			metricdata.DataPoint[float64]{Attributes: inv, Value: 100}, metricdata.DataPoint[float64]{Attributes: pay, Value: 0}),
		gauge("retry_budget_attempt_p99_seconds", "The p99 of the recorded attempt times of the dependency (its healthy first attempts), 0 before any.", "s",
			metricdata.DataPoint[float64]{Attributes: inv, Value: 0.02097152}, metricdata.DataPoint[float64]{Attributes: pay, Value: 0}),
		gauge("retry_amplification_factor", "Attempts per original request to the dependency since the start, (requests + retries allowed) / requests.", "",
			metricdata.DataPoint[float64]{Attributes: inv, Value: 1}, metricdata.DataPoint[float64]{Attributes: pay, Value: 1.1}),
	} {
		m, ok := got[want.Name]
		if !ok {
			t.Errorf("no metric %s", want.Name)
			continue
		}
		metricdatatest.AssertEqual(t, want, m, metricdatatest.IgnoreTimestamp())
	}
	if len(got) != 7 {
		t.Errorf("%d metrics, want 7", len(got))
	}

	// New dependencies appear by themselves; after Unregister, nothing.
	r.For("search").OnRequest()
	if sum := collect(t, reader)["retry_budget_requests_total"].Data.(metricdata.Sum[int64]); len(sum.DataPoints) != 3 {
		t.Fatalf("%d request series after a third dependency, want 3", len(sum.DataPoints))
	}
	if err := reg.Unregister(); err != nil {
		t.Fatal(err)
	}
	for name, m := range collect(t, reader) {
		if n := dataPoints(m); n != 0 {
			t.Errorf("%s: %d data points after Unregister", name, n)
		}
	}
}

func dataPoints(m metricdata.Metrics) int {
	switch d := m.Data.(type) {
	case metricdata.Sum[int64]:
		return len(d.DataPoints)
	case metricdata.Gauge[float64]:
		return len(d.DataPoints)
	}
	return -1
}

func TestDeadlineMetrics(t *testing.T) {
	h := deadline.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	serve := func(header string) {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if header != "" {
			req.Header.Set(deadline.Header, header)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	before := deadline.Counters()
	serve(strconv.FormatInt(time.Now().Add(time.Hour).UnixMilli(), 10))
	serve(strconv.FormatInt(time.Now().Add(-time.Second).UnixMilli(), 10)) // answered 504
	serve("")
	serve("soon")
	s := deadline.Counters()

	reader := sdkmetric.NewManualReader()
	meter := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)).Meter("test")
	reg, err := budgetotel.Register(meter, budget.NewRegistry())
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Unregister()
	got := collect(t, reader)
	one := func(v uint64) metricdata.DataPoint[int64] { return metricdata.DataPoint[int64]{Value: int64(v)} }
	for _, want := range []metricdata.Metrics{
		counter("deadline_requests_total", "Requests that the deadline middleware handled.", "{request}", one(before.Requests+4)),
		counter("deadline_header_present_total", "Requests that arrived with a deadline in the X-Request-Deadline header.", "{request}", one(before.HeaderPresent+2)),
		counter("deadline_exceeded_total", "Work refused because its deadline had passed: inbound requests answered 504, outbound requests not sent.", "{request}",
			metricdata.DataPoint[int64]{Attributes: attribute.NewSet(attribute.String("direction", "inbound")), Value: int64(before.Expired + 1)},
			metricdata.DataPoint[int64]{Attributes: attribute.NewSet(attribute.String("direction", "outbound")), Value: int64(before.NotSent)}),
		counter("deadline_adopted_total", "Requests whose deadline the X-Request-Deadline header set or shortened.", "{request}", one(before.Adopted+2)),
		counter("deadline_header_malformed_total", "X-Request-Deadline values ignored because they did not parse.", "{value}", one(before.Malformed+1)),
		gauge("deadline_header_present_ratio", "Share of the requests handled since the start that arrived with a deadline.", "1",
			metricdata.DataPoint[float64]{Value: float64(s.HeaderPresent) / float64(s.Requests)}),
	} {
		m, ok := got[want.Name]
		if !ok {
			t.Errorf("no metric %s", want.Name)
			continue
		}
		metricdatatest.AssertEqual(t, want, m, metricdatatest.IgnoreTimestamp())
	}
}

func TestMiddlewareRecordsTheDeadline(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	var handlerDeadline time.Time
	h := budgetotel.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handlerDeadline, _ = r.Context().Deadline()
	}))
	// A tracing middleware outside it starts the span.
	traced := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tracer.Start(r.Context(), "GET /stock")
		defer span.End()
		h.ServeHTTP(w, r.WithContext(ctx))
	})

	d := time.Now().Add(time.Minute).Truncate(time.Millisecond)
	req := httptest.NewRequest(http.MethodGet, "/stock", nil)
	req.Header.Set(deadline.Header, strconv.FormatInt(d.UnixMilli(), 10))
	traced.ServeHTTP(httptest.NewRecorder(), req)
	traced.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/stock", nil)) // no deadline

	spans := rec.Ended()
	if len(spans) != 2 {
		t.Fatalf("%d spans, want 2", len(spans))
	}
	if !handlerDeadline.IsZero() {
		t.Fatalf("the second request's handler had a deadline %v", handlerDeadline)
	}
	attr := func(i int) (attribute.Value, bool) {
		for _, kv := range spans[i].Attributes() {
			if kv.Key == budgetotel.DeadlineAttribute {
				return kv.Value, true
			}
		}
		return attribute.Value{}, false
	}
	if v, ok := attr(0); !ok || v.AsInt64() != d.UnixMilli() {
		t.Errorf("span with a deadline: request.deadline_ms = %v (%v), want %d", v.Emit(), ok, d.UnixMilli())
	}
	if v, ok := attr(1); ok {
		t.Errorf("span without a deadline: request.deadline_ms = %v, want none", v.Emit())
	}
}

func TestRecordDeadline(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
	d := time.Now().Add(time.Second)
	ctx, cancel := context.WithDeadline(context.Background(), d)
	defer cancel()
	ctx, span := tracer.Start(ctx, "job")
	budgetotel.RecordDeadline(ctx)
	span.End()
	budgetotel.RecordDeadline(ctx)                  // an ended span: ignored
	budgetotel.RecordDeadline(context.Background()) // no span, no deadline: nothing
	attrs := rec.Ended()[0].Attributes()
	if len(attrs) != 1 || attrs[0] != budgetotel.DeadlineAttribute.Int64(d.UnixMilli()) {
		t.Fatalf("attributes %v, want request.deadline_ms=%d", attrs, d.UnixMilli())
	}
}
