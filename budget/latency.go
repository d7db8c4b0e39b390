package budget

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// The latency histogram: one bucket below 1.024 µs, then four buckets per
// power of two up to 2^37 ns (about 137 s), each at most 25% wide. It
// keeps two windows of latWindow observations and answers from both, so a
// quantile describes the last latWindow to 2×latWindow attempts.
const (
	latMinShift = 10 // the first octave starts at 2^10 ns
	latOctaves  = 27
	latSub      = 4
	latBuckets  = 1 + latOctaves*latSub
	latWindow   = 1024
)

// latency is a fixed-size histogram of attempt durations: 872 bytes, no
// allocation, no lock.
type latency struct {
	n      atomic.Uint64
	counts [2][latBuckets]atomic.Uint32
}

// latBucket returns the bucket of d.
func latBucket(d time.Duration) int {
	if d < 1<<latMinShift {
		return 0
	}
	ns := uint64(d)
	e := bits.Len64(ns) - 1
	if e >= latMinShift+latOctaves {
		return latBuckets - 1
	}
	sub := int(ns>>(e-2)) & (latSub - 1)
	return 1 + (e-latMinShift)*latSub + sub
}

// latUpper returns the upper edge of bucket i: every duration in it is
// shorter.
func latUpper(i int) time.Duration {
	if i == 0 {
		return 1 << latMinShift
	}
	i--
	e := latMinShift + i/latSub
	sub := i % latSub
	return time.Duration(uint64(1)<<e + uint64(sub+1)<<(e-2))
}

func (h *latency) observe(d time.Duration) {
	k := h.n.Add(1) - 1
	w := (k / latWindow) & 1
	if k%latWindow == 0 && k > 0 {
		// A new window starts: forget the one before the last. Adds that
		// race with the reset may be lost, which a histogram can afford.
		for i := range h.counts[w] {
			h.counts[w][i].Store(0)
		}
	}
	h.counts[w][latBucket(d)].Add(1)
}

func (h *latency) quantile(q float64) time.Duration {
	if !(q > 0) { // also NaN
		return 0
	}
	q = math.Min(q, 1)
	var c [latBuckets]uint64
	var total uint64
	for w := range h.counts {
		for i := range h.counts[w] {
			n := uint64(h.counts[w][i].Load())
			c[i] += n
			total += n
		}
	}
	if total == 0 {
		return 0
	}
	rank := uint64(math.Ceil(q * float64(total)))
	var seen uint64
	for i, n := range c {
		if seen += n; seen >= rank {
			return latUpper(i)
		}
	}
	return latUpper(latBuckets - 1)
}

// ObserveLatency records how long one attempt to the dependency took, for
// LatencyQuantile. The retry package records every first attempt that
// succeeds: the service time of the healthy dependency, which a retry needs
// to be of use. It does not allocate or lock.
func (b *Budget) ObserveLatency(d time.Duration) {
	b.lat.observe(max(d, 0))
}

// LatencyQuantile returns the q-quantile (0 < q ≤ 1) of the durations
// recorded by ObserveLatency over the last 1024 to 2048 of them, rounded up
// to the edge of its histogram bucket (at most 25% above the true value,
// and at most about 137 s), or 0 when none was recorded or q is not in
// (0, 1]. It does not allocate or lock.
func (b *Budget) LatencyQuantile(q float64) time.Duration {
	if q > 1 {
		return 0
	}
	return b.lat.quantile(q)
}
