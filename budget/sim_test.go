package budget

import (
	"math"
	"math/rand"
	"sync/atomic"
	"testing"
	"time"
)

// fakeClock is a clock for tests that moves only when told, and counts how
// often it is read.
type fakeClock struct {
	t     atomic.Int64
	reads atomic.Int64
}

func (c *fakeClock) now() time.Duration {
	c.reads.Add(1)
	return time.Duration(c.t.Load())
}

func (c *fakeClock) advance(d time.Duration) { c.t.Add(int64(d)) }

// newFake returns a budget that reads clock.
func newFake(clock *fakeClock, opts ...Option) *Budget {
	return New(append(opts, withClock(clock.now))...)
}

// simResult counts what one simulated layer sent and achieved.
type simResult struct {
	requests, attempts, successes int
}

// load is the attempts the dependency saw per original request.
func (r simResult) load() float64 { return float64(r.attempts) / float64(r.requests) }

func (r simResult) successRate() float64 { return float64(r.successes) / float64(r.requests) }

// simulate runs one layer of a client: requests original requests, each
// tried once and retried up to retries times, each attempt failing with
// probability fail, drawn from a math/rand source seeded with seed. Before
// each request the clock (if any) advances by tick. A nil budget retries
// unconditionally; otherwise each retry asks b.TryRetry first, and a
// refusal ends the request with its last error.
func simulate(seed int64, requests, retries int, fail float64, b *Budget, clock *fakeClock, tick time.Duration) simResult {
	rng := rand.New(rand.NewSource(seed))
	var r simResult
	for i := 0; i < requests; i++ {
		if clock != nil {
			clock.advance(tick)
		}
		if b != nil {
			b.OnRequest()
		}
		r.requests++
		for attempt := 0; attempt <= retries; attempt++ {
			if attempt > 0 && b != nil && !b.TryRetry() {
				break
			}
			r.attempts++
			if rng.Float64() >= fail {
				r.successes++
				break
			}
		}
	}
	return r
}

const (
	simSeed     = 1
	simRequests = 10_000
	simRetries  = 3
	// simTick spreads the simulated requests over 10 s, so the default
	// floor of 1 retry per second funds at most 11 of them.
	simTick = time.Millisecond
)

// TestSimulation reproduces the figures of the design: one layer, 10,000
// requests, up to 3 retries, a 10% budget against none.
func TestSimulation(t *testing.T) {
	for _, tc := range []struct {
		fail                 float64
		withBudget, noBudget float64 // load, ±0.01
	}{
		{fail: 0.01, withBudget: 1.01, noBudget: 1.01},
		{fail: 0.30, withBudget: 1.10, noBudget: 1.41},
		{fail: 1.00, withBudget: 1.10, noBudget: 4.00},
	} {
		clock := new(fakeClock)
		b := newFake(clock) // Ratio 0.1, Cap 100, MinPerSecond 1
		with := simulate(simSeed, simRequests, simRetries, tc.fail, b, clock, simTick)
		without := simulate(simSeed, simRequests, simRetries, tc.fail, nil, nil, 0)
		t.Logf("fail %3.0f%%: load %.4f× with a 10%% budget (success %.4f), %.4f× without (success %.4f)",
			100*tc.fail, with.load(), with.successRate(), without.load(), without.successRate())

		if got := with.load(); math.Abs(got-tc.withBudget) > 0.01 {
			t.Errorf("fail %v: load with budget = %.4f, want %.2f±0.01", tc.fail, got, tc.withBudget)
		}
		if got := without.load(); math.Abs(got-tc.noBudget) > 0.01 {
			t.Errorf("fail %v: load without budget = %.4f, want %.2f±0.01", tc.fail, got, tc.noBudget)
		}
		// Without a budget the expected load is 1 + p + p² + p³.
		p := tc.fail
		if got, want := without.load(), 1+p+p*p+p*p*p; math.Abs(got-want) > 0.01 {
			t.Errorf("fail %v: load without budget = %.4f, expected %.4f", tc.fail, got, want)
		}
		// The budget pays Ratio per request, the floor at most 11 over 10 s.
		s := b.Stats()
		if s.Requests != simRequests || int(s.Requests+s.RetriesAllowed) != with.attempts {
			t.Errorf("fail %v: stats %+v do not match %d attempts", tc.fail, s, with.attempts)
		}
		if most := 0.1*simRequests + 11; float64(s.RetriesAllowed) > most {
			t.Errorf("fail %v: %d retries allowed, more than %v", tc.fail, s.RetriesAllowed, most)
		}

		// Success rates: without a budget, 1 - p⁴; with one, only the
		// retries the budget pays for can rescue a request.
		if got, want := without.successRate(), 1-math.Pow(p, 4); math.Abs(got-want) > 0.01 {
			t.Errorf("fail %v: success without budget = %.4f, expected %.4f", tc.fail, got, want)
		}
		switch tc.fail {
		case 0.01: // demand (1%) is far below the budget (10%): nothing is refused
			if with.successRate() < 0.999 || s.RetriesRefused != 0 {
				t.Errorf("fail 1%%: success with budget = %.4f, refused %d", with.successRate(), s.RetriesRefused)
			}
		case 0.30: // 70% succeed at once; ~0.1 retries per request, each 70% likely to work
			if got := with.successRate(); got < 0.75 || got > 0.80 {
				t.Errorf("fail 30%%: success with budget = %.4f, want in [0.75, 0.80]", got)
			}
		case 1.00:
			if with.successes != 0 || without.successes != 0 {
				t.Errorf("fail 100%%: successes %d and %d, want 0", with.successes, without.successes)
			}
		}
	}
}

// TestSimulationRatios checks that under a full outage the load is
// 1 + Ratio, whatever the Ratio.
func TestSimulationRatios(t *testing.T) {
	for _, ratio := range []float64{0.05, 0.1, 0.2} {
		clock := new(fakeClock)
		b := newFake(clock, Ratio(ratio))
		r := simulate(simSeed, simRequests, simRetries, 1, b, clock, simTick)
		floor := 1 + (simRequests * simTick).Seconds() // at most, at 1 per second
		bound := 1 + ratio + (defaultCap+floor)/simRequests
		t.Logf("ratio %.2f, fail 100%%: load %.4f× (bound %.4f)", ratio, r.load(), bound)
		if got := r.load(); got > bound || got < 1+ratio-0.01 {
			t.Errorf("ratio %v: load %.4f, want in [%.4f, %.4f]", ratio, got, 1+ratio-0.01, bound)
		}
	}
}

// TestOutageAfterHealthyPeriod checks that credit banked while healthy
// funds at most Cap retries of a sudden outage, plus Ratio per new request.
func TestOutageAfterHealthyPeriod(t *testing.T) {
	for _, capTokens := range []float64{10, 100} {
		clock := new(fakeClock)
		b := newFake(clock, Cap(capTokens))
		healthy := simulate(simSeed, 100_000, simRetries, 0, b, clock, simTick)
		if s := b.Stats(); s.Tokens != capTokens {
			t.Fatalf("cap %v: after %d healthy requests the bucket holds %v tokens, want Cap", capTokens, healthy.requests, s.Tokens)
		}
		const outage = 2000
		before := b.Stats().RetriesAllowed
		start := clock.now()
		r := simulate(simSeed, outage, simRetries, 1, b, clock, simTick)
		retries := b.Stats().RetriesAllowed - before
		floor := 1 + (clock.now() - start).Seconds()
		bound := capTokens + 0.1*outage + floor
		t.Logf("cap %v: outage of %d requests after a healthy period: %d retries (bound %v), load %.3f×",
			capTokens, outage, retries, bound, r.load())
		if float64(retries) > bound || float64(retries) < capTokens+0.1*outage-1 {
			t.Errorf("cap %v: %d retries in the outage, want in [%v, %v]", capTokens, retries, capTokens+0.1*outage-1, bound)
		}
	}
}

// TestFloorLowTraffic checks that a client sending one request per second
// can retry every request thanks to the floor, and not without it.
func TestFloorLowTraffic(t *testing.T) {
	const requests = 60
	for _, tc := range []struct {
		minPerSecond float64
		want         uint64 // retries
	}{
		// Ratio pays one retry in ten requests; the floor one each
		// second, or every other second. The credit the floor starts with
		// lapses before the first request, as it banks only one retry.
		{minPerSecond: 1, want: requests/10 + requests},
		{minPerSecond: 0.5, want: requests/10 + requests/2},
		{minPerSecond: 0, want: requests / 10},
	} {
		clock := new(fakeClock)
		b := newFake(clock, MinPerSecond(tc.minPerSecond))
		r := simulate(simSeed, requests, simRetries, 1, b, clock, time.Second)
		s := b.Stats()
		t.Logf("MinPerSecond %v, 1 request/s, fail 100%%: %d retries for %d requests, load %.2f×",
			tc.minPerSecond, s.RetriesAllowed, requests, r.load())
		if tc.minPerSecond == 1 && s.RetriesAllowed < requests {
			t.Errorf("MinPerSecond 1: %d retries for %d requests, want one each at least", s.RetriesAllowed, requests)
		}
		if s.RetriesAllowed != tc.want {
			t.Errorf("MinPerSecond %v: %d retries, want %d", tc.minPerSecond, s.RetriesAllowed, tc.want)
		}
	}
}

// TestFloorNeverExceeds drives the floor alone (Cap 0) with random gaps and
// checks that it never grants more than its burst plus MinPerSecond per
// elapsed second, and that with steady callers it grants nearly that.
func TestFloorNeverExceeds(t *testing.T) {
	rng := rand.New(rand.NewSource(simSeed))
	for _, mps := range []float64{0.5, 1, 3, 10, 1000} {
		clock := new(fakeClock)
		b := newFake(clock, Cap(0), MinPerSecond(mps))
		burst := math.Max(1, math.Floor(mps))
		for i := 0; i < 200_000; i++ {
			clock.advance(time.Duration(rng.Int63n(int64(200 * time.Microsecond))))
			b.TryRetry()
			if i%1000 == 0 {
				el := clock.now().Seconds()
				if got := float64(b.Stats().RetriesAllowed); got > burst+mps*el+1e-9 {
					t.Fatalf("MinPerSecond %v: %v floor retries after %.3fs, more than %v", mps, got, el, burst+mps*el)
				}
			}
		}
		el := clock.now().Seconds()
		got := float64(b.Stats().RetriesAllowed)
		t.Logf("MinPerSecond %v: %v floor retries in %.2fs, %d clock reads for %d calls", mps, got, el, clock.reads.Load(), 200_000)
		if got < mps*el-1 || got > burst+mps*el {
			t.Errorf("MinPerSecond %v: %v floor retries in %.2fs, want about %.1f", mps, got, el, mps*el)
		}
	}
}

// TestFloorClockReads checks that refusals in an outage rarely read the
// clock, and that a floor retry is still noticed within maxSkip refusals
// when the refusal rate then drops to one per second.
func TestFloorClockReads(t *testing.T) {
	clock := new(fakeClock)
	b := newFake(clock, Cap(0))
	const calls = 1_001_000 // one per microsecond: just over a second of outage
	for i := 0; i < calls; i++ {
		clock.advance(time.Microsecond)
		b.TryRetry()
	}
	reads := clock.reads.Load()
	t.Logf("%d refusals at 1/µs read the clock %d times; %d floor retries", calls, reads, b.Stats().RetriesAllowed)
	if reads > calls/maxSkip+1000 {
		t.Errorf("%d refusals read the clock %d times, want at most %d", calls, reads, calls/maxSkip+1000)
	}
	if got := b.Stats().RetriesAllowed; got != 2 { // at 0 s and at 1 s
		t.Errorf("%d floor retries in 1 s, want 2", got)
	}

	// Traffic falls to one call per second: each should get the floor
	// retry that is due, after at most maxSkip stale skips.
	before := b.Stats().RetriesAllowed
	const slow = 100
	for i := 0; i < slow; i++ {
		clock.advance(time.Second)
		b.TryRetry()
	}
	if got := b.Stats().RetriesAllowed - before; got < slow-maxSkip {
		t.Errorf("after the rate drop, %d of %d calls got the floor retry due, want at least %d", got, slow, slow-maxSkip)
	}
}
