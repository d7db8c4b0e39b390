package budgetbench

import (
	"testing"

	"github.com/retrylint/retrylint/budget"
	"golang.org/x/time/rate"
)

// BenchmarkBudget measures what a retry guard costs per request: one
// OnRequest and one TryRetry on a budget with default options (Ratio 0.1,
// Cap 100, a floor of 1 retry per second).
func BenchmarkBudget(b *testing.B) {
	bu := budget.New()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bu.OnRequest()
		bu.TryRetry()
	}
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
}

// BenchmarkBudgetRefused measures TryRetry on an empty budget, the hot
// path of an outage.
func BenchmarkBudgetRefused(b *testing.B) {
	bu := drained()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bu.TryRetry()
	}
}

func BenchmarkBudgetRefusedParallel(b *testing.B) {
	bu := drained()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bu.TryRetry()
		}
	})
}

func drained() *budget.Budget {
	bu := budget.New()
	for bu.TryRetry() {
	}
	return bu
}

// BenchmarkLimiterAllow measures one Limiter.Allow, the whole cost of a
// rate limiter used as a retry guard, on a limiter that admits every call
// of the benchmark (1e6 per second, burst 1000) at the start.
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
