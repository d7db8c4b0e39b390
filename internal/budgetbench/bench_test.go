package budgetbench

import (
	"testing"

	"github.com/retrylint/retrylint/budget"
	"golang.org/x/time/rate"
)

// Each budget benchmark measures one retry guard per operation, on one
// budget shared by all goroutines (RunParallel runs one per -cpu), in one
// of three states, and reports the share of TryRetry calls allowed
// (retries/op) to show which state it measured:
//
//   - Healthy: OnRequest and TryRetry with tokens available (Ratio 1, so
//     every request pays for its retry, starting from a full bucket).
//   - Budget (the outage steady state): OnRequest and TryRetry with the
//     default options (Ratio 0.1, Cap 100, floor 1 per second), so nine
//     retries in ten are refused and one is paid for.
//   - Refused: TryRetry alone on an empty budget, the hot path of an
//     outage when callers retry more than once.
//
// The Limiter benchmarks measure one rate.Limiter.Allow, the whole cost of
// a limiter used as a retry guard, on a limiter that admits every call.

func BenchmarkBudgetHealthy(b *testing.B) {
	bu := healthy()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bu.OnRequest()
		bu.TryRetry()
	}
	reportRetries(b, bu)
}

func BenchmarkBudgetHealthyParallel(b *testing.B) {
	bu := healthy()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bu.OnRequest()
			bu.TryRetry()
		}
	})
	reportRetries(b, bu)
}

func BenchmarkBudget(b *testing.B) {
	bu := budget.New()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bu.OnRequest()
		bu.TryRetry()
	}
	reportRetries(b, bu)
}

func BenchmarkBudgetParallel(b *testing.B) {
	bu := budget.New()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bu.OnRequest()
			bu.TryRetry()
		}
	})
	reportRetries(b, bu)
}

func BenchmarkBudgetRefused(b *testing.B) {
	bu := drained()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bu.TryRetry()
	}
	reportRetries(b, bu)
}

func BenchmarkBudgetRefusedParallel(b *testing.B) {
	bu := drained()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bu.TryRetry()
		}
	})
	reportRetries(b, bu)
}

// healthy returns a budget at Ratio 1 whose bucket is full.
func healthy() *budget.Budget {
	bu := budget.New(budget.Ratio(1))
	for i := 0; i < 100; i++ {
		bu.OnRequest()
	}
	return bu
}

// drained returns a default budget whose bucket and floor are empty.
func drained() *budget.Budget {
	bu := budget.New()
	for bu.TryRetry() {
	}
	return bu
}

// reportRetries reports the share of the TryRetry calls that were allowed.
func reportRetries(b *testing.B, bu *budget.Budget) {
	s := bu.Stats()
	if calls := s.RetriesAllowed + s.RetriesRefused; calls > 0 {
		b.ReportMetric(float64(s.RetriesAllowed)/float64(calls), "retries/op")
	}
}

func BenchmarkLimiterAllow(b *testing.B) {
	l := rate.NewLimiter(rate.Limit(1e6), 1000)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		l.Allow()
	}
}

func BenchmarkLimiterAllowParallel(b *testing.B) {
	l := rate.NewLimiter(rate.Limit(1e6), 1000)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			l.Allow()
		}
	})
}
