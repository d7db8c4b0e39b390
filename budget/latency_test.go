package budget

import (
	"math"
	"testing"
	"time"
)

func TestLatencyBuckets(t *testing.T) {
	// Every duration lies in its bucket, [the previous bucket's upper
	// edge, its own), and a bucket is at most 25% wide.
	for _, d := range []time.Duration{0, 1, 1023, 1024, 1025, 1500, 2047, 2048, time.Millisecond,
		3 * time.Millisecond, 99 * time.Millisecond, time.Second, 90 * time.Second, 137 * time.Second} {
		i := latBucket(d)
		if up := latUpper(i); d >= up {
			t.Errorf("%v in bucket %d whose upper edge is %v", d, i, up)
		}
		if i > 0 {
			lo := latUpper(i - 1)
			if d < lo {
				t.Errorf("%v in bucket %d, below its lower edge %v", d, i, lo)
			}
			if w := float64(latUpper(i)-lo) / float64(lo); w > 0.25+1e-9 {
				t.Errorf("bucket %d is %.0f%% wide", i, 100*w)
			}
		}
	}
	if got := latBucket(time.Hour); got != latBuckets-1 {
		t.Errorf("an hour is in bucket %d, want the last", got)
	}
}

func TestLatencyQuantile(t *testing.T) {
	b := New()
	if got := b.LatencyQuantile(0.99); got != 0 {
		t.Fatalf("p99 of nothing = %v, want 0", got)
	}
	// 98 fast attempts, 2 slow ones: the p99 is slow, the p50 fast.
	for i := 0; i < 98; i++ {
		b.ObserveLatency(2 * time.Millisecond)
	}
	b.ObserveLatency(300 * time.Millisecond)
	b.ObserveLatency(300 * time.Millisecond)
	p50, p99 := b.LatencyQuantile(0.5), b.LatencyQuantile(0.99)
	if p50 < 2*time.Millisecond || p50 > 2500*time.Microsecond {
		t.Errorf("p50 = %v, want 2 ms rounded up by at most 25%%", p50)
	}
	if p99 < 300*time.Millisecond || p99 > 375*time.Millisecond {
		t.Errorf("p99 = %v, want 300 ms rounded up by at most 25%%", p99)
	}
	for _, q := range []float64{0, -1, 1.5, math.NaN()} {
		if got := b.LatencyQuantile(q); got != 0 {
			t.Errorf("LatencyQuantile(%v) = %v, want 0", q, got)
		}
	}
	if got := b.LatencyQuantile(1); got != p99 {
		t.Errorf("p100 = %v, want the slowest bucket %v", got, p99)
	}
}

func TestLatencyForgets(t *testing.T) {
	// After two windows of fast attempts, an old slow spell is forgotten.
	b := New()
	for i := 0; i < latWindow; i++ {
		b.ObserveLatency(time.Second)
	}
	if got := b.LatencyQuantile(0.99); got < time.Second {
		t.Fatalf("p99 = %v during the slow spell", got)
	}
	for i := 0; i < 2*latWindow; i++ {
		b.ObserveLatency(time.Millisecond)
	}
	if got := b.LatencyQuantile(0.99); got > 2*time.Millisecond {
		t.Fatalf("p99 = %v two windows after the slow spell, want about 1 ms", got)
	}
}

func TestLatencyNoAllocations(t *testing.T) {
	b := New()
	if n := testing.AllocsPerRun(1000, func() {
		b.ObserveLatency(5 * time.Millisecond)
		_ = b.LatencyQuantile(0.99)
		_ = b.Metrics()
	}); n != 0 {
		t.Fatalf("%v allocations, want 0", n)
	}
}

func TestMetrics(t *testing.T) {
	b := New(Cap(4), MinPerSecond(0))
	if m := b.Metrics(); m.Utilisation != 1 || m.RetryRatio != 0 {
		t.Fatalf("a new budget: %+v, want utilisation 1 (nothing banked) and ratio 0", m)
	}
	for i := 0; i < 40; i++ { // 4 tokens: full
		b.OnRequest()
	}
	b.ObserveLatency(10 * time.Millisecond)
	if m := b.Metrics(); m.Utilisation != 0 || m.Tokens != 4 {
		t.Fatalf("a full budget: %+v, want utilisation 0 and 4 tokens", m)
	}
	b.TryRetry()
	m := b.Metrics()
	want := Metrics{Requests: 40, RetriesAllowed: 1, RetryRatio: 1.0 / 40, Utilisation: 0.25, Tokens: 3, LatencyP99: latUpper(latBucket(10 * time.Millisecond)).Seconds()}
	if m != want {
		t.Fatalf("Metrics = %+v, want %+v", m, want)
	}
	if m := New(Cap(0)).Metrics(); m.Utilisation != 1 {
		t.Fatalf("Cap 0: utilisation %v, want 1", m.Utilisation)
	}
	r := NewRegistry()
	r.For("a").OnRequest()
	r.For("b")
	if got := r.Metrics(); len(got) != 2 || got["a"].Requests != 1 || got["b"].Requests != 0 {
		t.Fatalf("Registry.Metrics = %+v", got)
	}
}
