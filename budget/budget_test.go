package budget

import (
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestInvalidOptionsPanicAtConstruction(t *testing.T) {
	for _, tc := range []struct {
		opt  Option
		want string
	}{
		{Ratio(0), "Ratio(0) is outside (0, 1]"},
		{Ratio(-0.1), "Ratio(-0.1) is outside (0, 1]"},
		{Ratio(1.5), "Ratio(1.5) is outside (0, 1]"},
		{Ratio(math.NaN()), "Ratio(NaN) is outside (0, 1]"},
		{Ratio(1e-9), "Ratio(1e-09) is below the resolution of 1e-6 tokens"},
		{Cap(-1), "Cap(-1) is negative"},
		{Cap(math.NaN()), "Cap(NaN) is not a number"},
		{Cap(math.Inf(1)), "Cap(+Inf) exceeds the maximum of 1e+12 tokens"},
		{MinPerSecond(-1), "MinPerSecond(-1) is negative"},
		{MinPerSecond(math.NaN()), "MinPerSecond(NaN) is not a number"},
		{MinPerSecond(2e9), "MinPerSecond(2e+09) exceeds the maximum of 1e+09 per second"},
	} {
		for _, ctor := range []struct {
			name string
			new  func(...Option)
		}{
			{"budget.New", func(o ...Option) { New(o...) }},
			{"budget.NewRegistry", func(o ...Option) { NewRegistry(o...) }},
		} {
			want := ctor.name + ": " + tc.want
			if got := panicOf(func() { ctor.new(tc.opt) }); got != want {
				t.Errorf("panic = %q, want %q", got, want)
			}
		}
	}
}

func panicOf(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

func TestValidEdgeOptions(t *testing.T) {
	for _, opts := range [][]Option{
		{Ratio(1)}, {Ratio(1e-6)}, {Cap(0)}, {Cap(1e12)}, {MinPerSecond(0)}, {MinPerSecond(1e9)}, {nil},
	} {
		if msg := panicOf(func() { New(opts...) }); msg != "" {
			t.Errorf("New panicked: %s", msg)
		}
	}
}

func TestDepositWithdraw(t *testing.T) {
	clock := new(fakeClock)
	b := newFake(clock, Ratio(0.25), Cap(2), MinPerSecond(0))
	if b.TryRetry() {
		t.Fatal("a new budget without floor allowed a retry")
	}
	for i := 0; i < 3; i++ {
		b.OnRequest()
	}
	if b.TryRetry() {
		t.Fatal("0.75 tokens paid for a retry")
	}
	b.OnRequest()
	if !b.TryRetry() {
		t.Fatal("1 token did not pay for a retry")
	}
	for i := 0; i < 100; i++ {
		b.OnRequest()
	}
	want := Stats{Requests: 104, RetriesAllowed: 1, RetriesRefused: 2, Tokens: 2}
	if got := b.Stats(); got != want {
		t.Fatalf("Stats = %+v, want %+v", got, want)
	}
	for i := 0; i < 3; i++ {
		b.TryRetry()
	}
	want = Stats{Requests: 104, RetriesAllowed: 3, RetriesRefused: 3, Tokens: 0}
	if got := b.Stats(); got != want {
		t.Fatalf("Stats = %+v, want %+v", got, want)
	}
}

// TestRatioExact checks that fixed-point deposits add up without drift.
func TestRatioExact(t *testing.T) {
	b := New(Ratio(0.1), MinPerSecond(0))
	for i := 0; i < 1000; i++ {
		b.OnRequest()
	}
	n := 0
	for b.TryRetry() {
		n++
	}
	if n != 100 {
		t.Fatalf("1000 requests at Ratio 0.1 paid for %d retries, want 100", n)
	}
}

func TestCapBelowOne(t *testing.T) {
	b := New(Cap(0.5), MinPerSecond(0))
	for i := 0; i < 100; i++ {
		b.OnRequest()
	}
	if b.TryRetry() {
		t.Fatal("Cap 0.5 paid for a retry")
	}
	if got := b.Stats().Tokens; got != 0.5 {
		t.Fatalf("Tokens = %v, want 0.5", got)
	}
}

func TestInitialCredit(t *testing.T) {
	clock := new(fakeClock)
	b := newFake(clock, MinPerSecond(3))
	n := 0
	for b.TryRetry() {
		n++
	}
	if n != 3 || b.Stats().Tokens != 0 {
		t.Fatalf("a new budget allowed %d retries (tokens %v), want the floor's 3 and an empty bucket", n, b.Stats().Tokens)
	}
	clock.advance(time.Second / 3)
	if !b.TryRetry() || b.TryRetry() {
		t.Fatal("the floor did not refill one retry in a third of a second")
	}
}

func TestZeroBudgetRefuses(t *testing.T) {
	var b Budget
	b.OnRequest()
	if b.TryRetry() {
		t.Fatal("the zero Budget allowed a retry")
	}
	if got, want := b.Stats(), (Stats{Requests: 1, RetriesRefused: 1}); got != want {
		t.Fatalf("Stats = %+v, want %+v", got, want)
	}
}

func TestNoAllocations(t *testing.T) {
	b := New()
	r := NewRegistry()
	r.For("inventory")
	for name, f := range map[string]func(){
		"OnRequest+TryRetry": func() { b.OnRequest(); b.TryRetry() },
		"TryRetry (refused)": func() { b.TryRetry() },
		"Registry.For":       func() { r.For("inventory").OnRequest() },
		"Stats":              func() { _ = b.Stats() },
	} {
		if n := testing.AllocsPerRun(1000, f); n != 0 {
			t.Errorf("%s: %v allocations, want 0", name, n)
		}
	}
}

// TestConcurrentExact hammers one budget from many goroutines with the clock
// stopped, so the floor pays exactly one retry, and checks that the totals
// reconcile exactly: every unit deposited is withdrawn or still banked, in
// the shared bucket or in a CPU's share. Then it checks that what is left
// is found: within one pooling period of refusals, every whole token left
// on any CPU pays a retry, and less than one token remains.
func TestConcurrentExact(t *testing.T) {
	for _, spread := range []bool{false, true} {
		clock := new(fakeClock)
		b := newFake(clock, Ratio(0.1), Cap(1e6)) // the Cap is never reached
		if spread {
			b.compact.Store(nil) // spread from the start, whatever collides
		}
		t.Logf("spread from the start: %v", spread)
		concurrentExact(t, b)
	}
}

func concurrentExact(t *testing.T, b *Budget) {
	const goroutines, perG, retries = 8, 20_000, 3
	var wg sync.WaitGroup
	var mu sync.Mutex
	tries := 0
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for i := 0; i < perG; i++ {
				b.OnRequest()
				for j := 0; j < retries; j++ {
					n++
					if !b.TryRetry() {
						break
					}
				}
			}
			mu.Lock()
			tries += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	s := b.Stats()
	if s.Requests != goroutines*perG {
		t.Errorf("Requests = %d, want %d", s.Requests, goroutines*perG)
	}
	if int(s.RetriesAllowed+s.RetriesRefused) != tries {
		t.Errorf("allowed %d + refused %d != %d calls", s.RetriesAllowed, s.RetriesRefused, tries)
	}
	deposited := int64(s.Requests) * b.ratio
	const floor = 1 // the clock never moved
	left := deposited - int64(s.RetriesAllowed-floor)*unit
	if got := banked(b); got != left {
		t.Errorf("bucket and shares hold %d units, want deposits %d - withdrawals %d = %d", got, deposited, s.RetriesAllowed-floor, left)
	}

	// Quiescent now: one pooling period of calls finds every whole token.
	calls := poolEvery*(len(b.all())/poolWidth+1) + 1
	extra := 0
	for i := 0; i < calls; i++ {
		if b.TryRetry() {
			extra++
		}
	}
	if int64(extra) != left/unit {
		t.Errorf("%d more retries allowed after the goroutines ended, want %d (%d units left)", extra, left/unit, left)
	}
	if got := banked(b); got != left%unit {
		t.Errorf("%d units left after pooling, want %d", got, left%unit)
	}
	t.Logf("%d goroutines, %d shares (spread %v): %+v, %d units left, %d paid after", goroutines, len(b.all()), spread(b), s, left, extra)
}

// banked returns the units of credit in the bucket: the shared part and
// every CPU's share.
func banked(b *Budget) int64 {
	shared, shares := b.balance()
	for _, c := range shares {
		shared += c
	}
	return shared
}

// TestConcurrentBounds hammers a small budget on the real clock while
// another goroutine watches that the balance stays within [0, Cap].
func TestConcurrentBounds(t *testing.T) {
	const goroutines, perG, capTokens = 8, 20_000, 5
	start := time.Now()
	b := New(Ratio(0.5), Cap(capTokens))
	var wg sync.WaitGroup
	done := make(chan struct{})
	watched := make(chan error, 1)
	go func() {
		var err error
		for {
			select {
			case <-done:
				watched <- err
				return
			default:
			}
			if tok := b.Stats().Tokens; err == nil && (tok < 0 || tok > capTokens) {
				err = fmt.Errorf("balance %v outside [0, %v]", tok, capTokens)
			}
		}
	}()
	for g := 0; g < goroutines; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < perG; i++ {
				if (i+g)%3 != 0 { // bursts of retries drain, requests refill
					b.OnRequest()
				}
				b.TryRetry()
				b.TryRetry()
			}
		}(g)
	}
	wg.Wait()
	close(done)
	if err := <-watched; err != nil {
		t.Error(err)
	}
	s := b.Stats()
	floor := 1 + time.Since(start).Seconds() // MinPerSecond 1, starting full
	if bound := 0.5*float64(s.Requests) + floor; float64(s.RetriesAllowed) > bound {
		t.Errorf("%d retries allowed, more than deposits and floor %v", s.RetriesAllowed, bound)
	}
	if s.RetriesAllowed+s.RetriesRefused != 2*goroutines*perG {
		t.Errorf("allowed %d + refused %d != %d calls", s.RetriesAllowed, s.RetriesRefused, 2*goroutines*perG)
	}
	if s.Tokens < 0 || s.Tokens > capTokens {
		t.Errorf("final balance %v outside [0, %v]", s.Tokens, capTokens)
	}
	t.Logf("%d goroutines: %+v", goroutines, s)
}

func TestRegistry(t *testing.T) {
	r := NewRegistry(Ratio(0.5), MinPerSecond(0))
	inv, pay := r.For("inventory"), r.For("payments")
	if inv == pay {
		t.Fatal("two dependencies share a budget")
	}
	if r.For("inventory") != inv {
		t.Fatal("For returned a new budget for a known dependency")
	}
	inv.OnRequest()
	inv.OnRequest()
	if !inv.TryRetry() || pay.TryRetry() {
		t.Fatal("budgets are not independent, or the Registry's options were not applied")
	}
	r.For("auth")
	var got []string
	r.Each(func(dep string, b *Budget) {
		got = append(got, dep)
		if r.For(dep) != b { // fn may call For
			t.Errorf("Each passed another budget for %s", dep)
		}
	})
	if strings.Join(got, ",") != "auth,inventory,payments" {
		t.Fatalf("Each visited %v, want sorted names", got)
	}
}

func TestZeroRegistry(t *testing.T) {
	var r Registry
	r.Each(func(string, *Budget) { t.Fatal("an empty Registry visited a budget") })
	b := r.For("x")
	for i := 0; i < 10; i++ {
		b.OnRequest()
	}
	if got := b.Stats().Tokens; got != 1 {
		t.Fatalf("the zero Registry's budget holds %v tokens after 10 requests, want 1 (Ratio 0.1)", got)
	}
}

func TestRegistryConcurrent(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	seen := make([][]*Budget, 8)
	for g := range seen {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				seen[g] = append(seen[g], r.For(fmt.Sprint("dep", i%10)))
			}
			r.Each(func(string, *Budget) {})
		}(g)
	}
	wg.Wait()
	n := 0
	r.Each(func(string, *Budget) { n++ })
	if n != 10 {
		t.Fatalf("%d budgets, want 10", n)
	}
	for g := range seen {
		for i, b := range seen[g] {
			if b != seen[0][i] {
				t.Fatalf("goroutines got different budgets for dep%d", i%10)
			}
		}
	}
}
