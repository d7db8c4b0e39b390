package otel_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"time"

	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/deadline"
	budgetotel "github.com/retrylint/retrylint/budget/otel"
)

// The budgets of a Registry, observed at each collection: here payments
// has spent its credit.
func ExampleRegisterBudgets() {
	retries := budget.NewRegistry(budget.MinPerSecond(0))
	payments := retries.For("payments")
	for i := 0; i < 20; i++ {
		payments.OnRequest()
	}
	for i := 0; i < 3; i++ {
		payments.TryRetry() // two allowed, one refused
	}

	reader := sdkmetric.NewManualReader() // in production, an exporter's reader
	meter := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader)).Meter("inventory-service")
	if _, err := budgetotel.RegisterBudgets(meter, retries); err != nil {
		panic(err)
	}

	var rm metricdata.ResourceMetrics
	_ = reader.Collect(context.Background(), &rm)
	for _, m := range rm.ScopeMetrics[0].Metrics {
		switch d := m.Data.(type) {
		case metricdata.Sum[int64]:
			dep, _ := d.DataPoints[0].Attributes.Value("dependency")
			fmt.Printf("%s{dependency=%q} %d\n", m.Name, dep.AsString(), d.DataPoints[0].Value)
		case metricdata.Gauge[float64]:
			dep, _ := d.DataPoints[0].Attributes.Value("dependency")
			fmt.Printf("%s{dependency=%q} %g\n", m.Name, dep.AsString(), d.DataPoints[0].Value)
		}
	}
	// Output:
	// retry_budget_requests_total{dependency="payments"} 20
	// retry_budget_retries_allowed_total{dependency="payments"} 2
	// retry_budget_exhausted_total{dependency="payments"} 1
	// retry_budget_utilisation{dependency="payments"} 1
	// retry_budget_tokens{dependency="payments"} 0
	// retry_budget_attempt_p99_seconds{dependency="payments"} 0
	// retry_amplification_factor{dependency="payments"} 1.1
}

// Middleware adopts the X-Request-Deadline header and records it on the
// span that the tracing middleware outside it started.
func ExampleMiddleware() {
	spans := tracetest.NewSpanRecorder()
	tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans)).Tracer("inventory-service")

	handler := budgetotel.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	// Usually otelhttp.NewHandler(budgetotel.Middleware(mux), "inventory").
	traced := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, span := tracer.Start(r.Context(), "GET /stock")
		defer span.End()
		handler.ServeHTTP(w, r.WithContext(ctx))
	})

	d := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	req := httptest.NewRequest(http.MethodGet, "/stock", nil)
	req.Header.Set(deadline.Header, strconv.FormatInt(d.UnixMilli(), 10))
	traced.ServeHTTP(httptest.NewRecorder(), req)

	for _, kv := range spans.Ended()[0].Attributes() {
		fmt.Println(kv.Key, kv.Value.Emit())
	}
	// Output: request.deadline_ms 1893553445000
}
