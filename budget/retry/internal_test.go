package retry

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"testing"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// fakeEnv is a clock that only moves when Do waits, recording the waits,
// with a chosen random source.
type fakeEnv struct {
	t     time.Time
	waits []time.Duration
}

func (f *fakeEnv) env(rnd func(int64) int64) *env {
	return &env{
		now: func() time.Time { return f.t },
		sleep: func(_ context.Context, d time.Duration) error {
			f.waits = append(f.waits, d)
			f.t = f.t.Add(d)
			return nil
		},
		rand: rnd,
	}
}

var errDown = errors.New("down")

func failing(context.Context) error { return errDown }

func TestBackoffCeilings(t *testing.T) {
	// With the random source at its maximum, the waits are the ceilings:
	// InitialDelay doubling, capped at MaxDelay.
	top := func(n int64) int64 { return n - 1 }
	for _, tc := range []struct {
		p    Policy
		want []time.Duration
	}{
		{Policy{MaxAttempts: 6, InitialDelay: 100 * time.Millisecond, MaxDelay: time.Second},
			[]time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, time.Second}},
		{Policy{MaxAttempts: 4, InitialDelay: time.Second}, // no cap
			[]time.Duration{time.Second, 2 * time.Second, 4 * time.Second}},
		{Policy{MaxAttempts: 3}, nil},                           // no delay: no wait at all
		{Policy{MaxAttempts: 70, InitialDelay: time.Hour}, nil}, // saturates, never overflows (checked below)
	} {
		f := &fakeEnv{t: time.Unix(0, 0)}
		if err := run(context.Background(), &tc.p, f.env(top), failing); !errors.Is(err, errDown) || !errors.Is(err, ErrAttempts) {
			t.Fatalf("%+v: Do = %v", tc.p, err)
		}
		if tc.p.MaxAttempts == 70 {
			for i, w := range f.waits {
				if w <= 0 {
					t.Fatalf("wait %d = %v: the doubling overflowed", i, w)
				}
			}
			continue
		}
		if len(f.waits) != len(tc.want) {
			t.Fatalf("%+v: waits %v, want %v", tc.p, f.waits, tc.want)
		}
		for i := range tc.want {
			if f.waits[i] != tc.want[i] {
				t.Fatalf("%+v: waits %v, want %v", tc.p, f.waits, tc.want)
			}
		}
	}
}

func TestBackoffFullJitter(t *testing.T) {
	// With a real random source, the n-th wait is spread over the whole
	// of [0, ceiling]: no wait above it, and both halves used.
	rng := rand.New(rand.NewSource(1))
	p := Policy{MaxAttempts: 4, InitialDelay: 100 * time.Millisecond, MaxDelay: 300 * time.Millisecond}
	ceilings := []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 300 * time.Millisecond}
	low := make([]int, 3)
	const runs = 2000
	for i := 0; i < runs; i++ {
		f := &fakeEnv{t: time.Unix(0, 0)}
		_ = run(context.Background(), &p, f.env(rng.Int63n), failing)
		for k, w := range f.waits {
			if w < 0 || w > ceilings[k] {
				t.Fatalf("retry %d waited %v, outside [0, %v]", k+1, w, ceilings[k])
			}
			if w < ceilings[k]/2 {
				low[k]++
			}
		}
	}
	for k, n := range low {
		if share := float64(n) / runs; share < 0.45 || share > 0.55 {
			t.Errorf("retry %d: %.3f of the waits in the lower half, want about 0.5", k+1, share)
		}
	}
}

func TestDeadlineCountsTheWait(t *testing.T) {
	// Without latency data the wait alone must fit: a 1 s ceiling with
	// the source at its maximum does not fit in 500 ms.
	f := &fakeEnv{t: time.Now()}
	ctx, cancel := context.WithDeadline(context.Background(), f.t.Add(500*time.Millisecond))
	defer cancel()
	calls := 0
	p := Policy{MaxAttempts: 3, InitialDelay: time.Second}
	err := run(ctx, &p, f.env(func(n int64) int64 { return n - 1 }), func(context.Context) error { calls++; return errDown })
	if !errors.Is(err, errDown) || !errors.Is(err, ErrDeadline) || calls != 1 || len(f.waits) != 0 {
		t.Fatalf("Do = %v after %d attempts and waits %v, want no retry", err, calls, f.waits)
	}
}

// The seeds' tables, through Do: deterministic simulations with a clock
// that moves only when Do waits, and failures drawn from a seeded source.

// layer runs requests through Do against a dependency failing with
// probability fail, and returns the attempts and successes.
func layer(t *testing.T, requests, maxAttempts int, fail float64, b *budget.Budget) (attempts, successes int) {
	t.Helper()
	rng := rand.New(rand.NewSource(1))
	f := &fakeEnv{t: time.Unix(0, 0)}
	e := f.env(rng.Int63n)
	p := Policy{MaxAttempts: maxAttempts, InitialDelay: 10 * time.Millisecond, MaxDelay: time.Second, Budget: b}
	for i := 0; i < requests; i++ {
		err := run(context.Background(), &p, e, func(context.Context) error {
			attempts++
			if rng.Float64() < fail {
				return errDown
			}
			return nil
		})
		if err == nil {
			successes++
		}
	}
	return attempts, successes
}

func TestSimulationOneLayer(t *testing.T) {
	const requests = 10_000
	for _, tc := range []struct {
		fail                 float64
		withBudget, noBudget float64 // load, ±0.01
	}{
		{0.01, 1.01, 1.01},
		{0.30, 1.10, 1.41},
		{1.00, 1.10, 4.00},
	} {
		with, okWith := layer(t, requests, 4, tc.fail, budget.New())
		without, okWithout := layer(t, requests, 4, tc.fail, nil)
		lw, lo := float64(with)/requests, float64(without)/requests
		t.Logf("fail %3.0f%%: load %.4f× with a 10%% budget (success %.4f), %.4f× without (success %.4f)",
			100*tc.fail, lw, float64(okWith)/requests, lo, float64(okWithout)/requests)
		if math.Abs(lw-tc.withBudget) > 0.01 {
			t.Errorf("fail %v: load with budget %.4f, want %.2f±0.01", tc.fail, lw, tc.withBudget)
		}
		if math.Abs(lo-tc.noBudget) > 0.01 {
			t.Errorf("fail %v: load without budget %.4f, want %.2f±0.01", tc.fail, lo, tc.noBudget)
		}
	}
	// 10,000 requests to a dead dependency, 3 attempts each: 30,000
	// attempts without a budget, about 11,000 with one.
	with, _ := layer(t, requests, 3, 1, budget.New())
	without, _ := layer(t, requests, 3, 1, nil)
	if without != 30_000 || with < 10_950 || with > 11_150 {
		t.Errorf("3 attempts, dependency down: %d attempts without a budget (want 30000), %d with (want about 11000)", without, with)
	}
}

// chain runs requests through three layers of Do (gateway, service,
// client), each retrying the next, in front of a dependency that is down,
// and returns the calls the dependency received per original request.
func chain(t *testing.T, requests, maxAttempts int, budgets bool) float64 {
	t.Helper()
	f := &fakeEnv{t: time.Unix(0, 0)}
	e := f.env(rand.New(rand.NewSource(1)).Int63n)
	calls := 0
	dependency := func(context.Context) error { calls++; return errDown }
	next := dependency
	for hop := 0; hop < 3; hop++ {
		p := Policy{MaxAttempts: maxAttempts, InitialDelay: 10 * time.Millisecond, MaxDelay: time.Second}
		if budgets {
			p.Budget = budget.New() // one per hop: each layer's own dependency
		}
		inner := next
		next = func(ctx context.Context) error { return run(ctx, &p, e, inner) }
	}
	for i := 0; i < requests; i++ {
		if err := next(context.Background()); !errors.Is(err, errDown) {
			t.Fatalf("the chain returned %v, want the dependency's error", err)
		}
	}
	return float64(calls) / float64(requests)
}

func TestSimulationThreeLayers(t *testing.T) {
	const requests = 10_000
	for _, tc := range []struct {
		attempts int
		budgets  bool
		want     float64
		tol      float64
	}{
		{3, false, 27, 0},
		{4, false, 64, 0},
		{3, true, 1.331, 0.01}, // 1.1³
		{4, true, 1.331, 0.01},
	} {
		got := chain(t, requests, tc.attempts, tc.budgets)
		t.Logf("3 layers of %d attempts, budgets %v: %.4f× at the dependency", tc.attempts, tc.budgets, got)
		if math.Abs(got-tc.want) > tc.tol {
			t.Errorf("3 layers of %d attempts, budgets %v: %.4f× at the dependency, want %v±%v", tc.attempts, tc.budgets, got, tc.want, tc.tol)
		}
	}
}
