package budget

import "testing"

// The benchmarks use the default options (Ratio 0.1, Cap 100, floor of 1
// retry per second) and the real clock.

// BenchmarkRequestRetry measures one OnRequest and one TryRetry per
// operation: nine in ten retries are refused, one is paid for.
func BenchmarkRequestRetry(b *testing.B) {
	bu := New()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bu.OnRequest()
		bu.TryRetry()
	}
}

func BenchmarkRequestRetryParallel(b *testing.B) {
	bu := New()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bu.OnRequest()
			bu.TryRetry()
		}
	})
}

// drained returns a default budget whose bucket and floor are empty: an
// outage, where every TryRetry is refused except one floor retry a second.
func drained() *Budget {
	bu := New()
	for bu.TryRetry() {
	}
	return bu
}

// BenchmarkRefused measures TryRetry on an empty bucket: the hot path of an
// outage.
func BenchmarkRefused(b *testing.B) {
	bu := drained()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		bu.TryRetry()
	}
}

func BenchmarkRefusedParallel(b *testing.B) {
	bu := drained()
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bu.TryRetry()
		}
	})
}
