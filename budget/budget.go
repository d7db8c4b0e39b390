package budget

import (
	"fmt"
	"math"
	"sync/atomic"
	"time"
)

// unit is the number of fixed-point units in one token: balances are kept
// in micro-tokens, so deposits of any Ratio down to 1e-6 add up exactly.
const unit = 1_000_000

// Defaults, and the limits that keep the fixed-point arithmetic in range.
const (
	defaultRatio        = 0.1
	defaultCap          = 100
	defaultMinPerSecond = 1

	maxCap          = 1e12 // tokens; 1e18 units still fits an int64
	maxMinPerSecond = 1e9  // one floor retry per nanosecond
)

// maxSkip bounds how many refused calls in a row may skip the clock while
// the floor is empty (see tryFloor). It bounds how late a floor retry can be
// noticed after the refusal rate drops sharply.
const maxSkip = 16

// An Option configures a Budget or a Registry. Options are checked when New
// or NewRegistry is called, which panics on an invalid one.
type Option func(*config)

// Ratio sets the tokens each original request deposits (OnRequest): the
// long-run fraction of requests that may be retried when everything fails.
// It must be in (0, 1]; the default is 0.1.
func Ratio(r float64) Option { return func(c *config) { c.ratio = r } }

// Cap sets the most tokens the budget can bank, which bounds the retries a
// sudden outage can draw from credit earned while healthy. It must be
// finite and not negative; the default is 100. A Cap below 1 leaves only the
// floor (MinPerSecond) to fund retries.
func Cap(tokens float64) Option { return func(c *config) { c.cap = tokens } }

// MinPerSecond sets the floor: retries allowed per second even when the
// requests have deposited too little, so that a low-traffic client can
// retry at all. It must be finite and not negative; 0 turns the floor off;
// the default is 1. See the package documentation for its exact semantics.
func MinPerSecond(retries float64) Option { return func(c *config) { c.minPerSecond = retries } }

// withClock makes the budget read time from now instead of the monotonic
// clock; now must never go backwards. For tests.
func withClock(now func() time.Duration) Option { return func(c *config) { c.clock = now } }

type config struct {
	ratio, cap, minPerSecond float64
	clock                    func() time.Duration
}

// newConfig applies opts over the defaults and panics if the result is
// invalid, naming the option at fault.
func newConfig(caller string, opts []Option) *config {
	c := &config{ratio: defaultRatio, cap: defaultCap, minPerSecond: defaultMinPerSecond}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	switch {
	case !(c.ratio > 0 && c.ratio <= 1): // also catches NaN
		panic(fmt.Sprintf("%s: Ratio(%v) is outside (0, 1]", caller, c.ratio))
	case math.Round(c.ratio*unit) < 1:
		panic(fmt.Sprintf("%s: Ratio(%v) is below the resolution of 1e-6 tokens", caller, c.ratio))
	case math.IsNaN(c.cap):
		panic(fmt.Sprintf("%s: Cap(%v) is not a number", caller, c.cap))
	case c.cap < 0:
		panic(fmt.Sprintf("%s: Cap(%v) is negative", caller, c.cap))
	case c.cap > maxCap:
		panic(fmt.Sprintf("%s: Cap(%v) exceeds the maximum of %g tokens", caller, c.cap, float64(maxCap)))
	case math.IsNaN(c.minPerSecond):
		panic(fmt.Sprintf("%s: MinPerSecond(%v) is not a number", caller, c.minPerSecond))
	case c.minPerSecond < 0:
		panic(fmt.Sprintf("%s: MinPerSecond(%v) is negative", caller, c.minPerSecond))
	case c.minPerSecond > maxMinPerSecond:
		panic(fmt.Sprintf("%s: MinPerSecond(%v) exceeds the maximum of %g per second", caller, c.minPerSecond, float64(maxMinPerSecond)))
	}
	return c
}

// cacheLine separates the fields that different goroutines write, so that
// a write to one does not evict the others from other cores' caches. 128
// bytes covers CPUs that fetch cache lines in adjacent pairs.
const cacheLine = 128

// A Budget is the retry budget of one dependency: a token bucket that every
// original request fills by Ratio tokens and every retry drains by one,
// bounded by Cap, plus a floor of MinPerSecond retries per second. Create it
// with New (or Registry.For); the zero Budget refuses every retry. A Budget
// is safe for concurrent use and must not be copied.
type Budget struct {
	// Read-only after New.
	ratio     int64 // units deposited by OnRequest
	cap       int64 // most units the bucket holds
	interval  int64 // nanoseconds per floor retry; 0: no floor
	tolerance int64 // nanoseconds of floor credit banked beyond one retry
	now       func() int64
	_         [cacheLine]byte

	// Written on every call.
	tokens   atomic.Int64 // units in the bucket, in [0, cap]
	requests atomic.Uint64
	allowed  atomic.Uint64
	refused  atomic.Uint64
	_        [cacheLine - 32]byte

	// The floor, written when the bucket is empty.
	floorTAT atomic.Int64 // when the floor is full again (GCRA's theoretical arrival time)
	// Refused calls skip the clock while refused < nextCheck.
	nextCheck     atomic.Uint64
	lastCheck     atomic.Int64  // clock at the last floor check
	lastCheckRefs atomic.Uint64 // refused at the last floor check
	_             [cacheLine - 32]byte
}

// New returns a budget for one dependency, starting with an empty bucket
// and a full floor. It panics if an option is invalid: a Ratio outside
// (0, 1], a negative Cap or MinPerSecond, or a NaN or out-of-range value.
func New(opts ...Option) *Budget {
	return newBudget(newConfig("budget.New", opts))
}

func newBudget(c *config) *Budget {
	b := &Budget{
		ratio: int64(math.Round(c.ratio * unit)),
		cap:   int64(math.Round(c.cap * unit)),
	}
	if c.clock != nil {
		clock := c.clock
		b.now = func() int64 { return int64(clock()) }
	} else {
		start := time.Now()
		b.now = func() int64 { return int64(time.Since(start)) }
	}
	if c.minPerSecond > 0 {
		b.interval = max(1, int64(math.Round(float64(time.Second)/c.minPerSecond)))
		// The floor banks one second's worth of retries, and at least one.
		b.tolerance = max(0, int64(time.Second)-b.interval)
		t := b.now()
		b.floorTAT.Store(t)
		b.lastCheck.Store(t)
	}
	return b
}

// OnRequest records one original request and deposits Ratio tokens, up to
// Cap. Call it once per logical request, not once per attempt. It does not
// allocate, lock or read the clock.
func (b *Budget) OnRequest() {
	b.requests.Add(1)
	for {
		t := b.tokens.Load()
		if t >= b.cap {
			return
		}
		if b.tokens.CompareAndSwap(t, min(t+b.ratio, b.cap)) {
			return
		}
	}
}

// TryRetry asks to make one retry. It withdraws one token and reports true,
// or, when the bucket holds less than a whole token, draws on the floor; it
// reports false when neither can pay, and then the caller must stop
// retrying and return the error of the last attempt. It does not allocate
// or lock; a refusal while the floor is empty usually costs a few atomic
// operations and no clock read.
func (b *Budget) TryRetry() bool {
	for {
		t := b.tokens.Load()
		if t < unit {
			break
		}
		if b.tokens.CompareAndSwap(t, t-unit) {
			b.allowed.Add(1)
			return true
		}
	}
	if b.interval == 0 || b.refused.Load() < b.nextCheck.Load() {
		b.refused.Add(1)
		return false
	}
	return b.tryFloor()
}

// tryFloor reads the clock and grants a floor retry if one is due, using
// the generic cell rate algorithm: floorTAT is the time at which the floor
// would be full again, and a retry is due when floorTAT - now is at most the
// tolerance. When none is due it estimates how many refusals will arrive
// before one is, and lets half of them (at most maxSkip) skip the clock.
func (b *Budget) tryFloor() bool {
	now := b.now()
	for {
		tat := b.floorTAT.Load()
		if tat-now > b.tolerance {
			b.schedule(now, tat-b.tolerance-now)
			b.refused.Add(1)
			return false
		}
		if b.floorTAT.CompareAndSwap(tat, max(tat, now)+b.interval) {
			b.allowed.Add(1)
			return true
		}
	}
}

// schedule sets how many refusals may skip the clock, given that the next
// floor retry is due in wait nanoseconds: half the refusals expected by
// then at the rate seen since the previous check, at most maxSkip. A slow
// refusal rate reads the clock on every refusal; a fast one, once every
// maxSkip refusals.
func (b *Budget) schedule(now, wait int64) {
	r := b.refused.Load()
	prevAt := b.lastCheck.Swap(now)
	prevR := b.lastCheckRefs.Swap(r)
	var skip uint64
	if dt := now - prevAt; dt > 0 && r > prevR {
		expected := float64(r-prevR) / float64(dt) * float64(wait) / 2
		switch {
		case expected >= maxSkip:
			skip = maxSkip
		case expected >= 1:
			skip = uint64(expected)
		}
	}
	b.nextCheck.Store(r + skip)
}

// Stats is a point-in-time view of a Budget, for metrics. The counters only
// grow; the fields are read one by one, so under concurrent use they need
// not add up exactly.
type Stats struct {
	Requests       uint64  // calls of OnRequest
	RetriesAllowed uint64  // calls of TryRetry that reported true
	RetriesRefused uint64  // calls of TryRetry that reported false
	Tokens         float64 // credit in the bucket, in retries, in [0, Cap]; the floor's is not included
}

// Stats returns the budget's counters and balance. It does not lock.
func (b *Budget) Stats() Stats {
	return Stats{
		Requests:       b.requests.Load(),
		RetriesAllowed: b.allowed.Load(),
		RetriesRefused: b.refused.Load(),
		Tokens:         float64(b.tokens.Load()) / unit,
	}
}
