package budget

import (
	"math/rand"
	"sync"
	"testing"
)

// The tests in this file make calls on chosen shares of a budget (by
// pointing compact at the share), so that what happens when requests and
// retries run on different processors is deterministic.

func share(b *Budget, i int) *shard { return &b.all()[i] }

// onRequest and tryRetry call OnRequest and TryRetry as if from the
// processor whose share is s.
func (b *Budget) onRequest(s *shard) { b.compact.Store(s); b.OnRequest() }

func (b *Budget) tryRetry(s *shard) bool { b.compact.Store(s); return b.TryRetry() }

// capacity returns free + every share's room and credit + the shared
// tokens, which must always equal Cap once no call is running.
func capacity(b *Budget) int64 {
	total := b.free.Load() + b.tokens.Load()
	for i := range b.all() {
		room, credit := unpack(b.all()[i].share.Load())
		total += room + credit
	}
	return total
}

func TestSharesHandoff(t *testing.T) {
	// Ten requests on one processor pay for a retry on another, at its
	// first refusal.
	b := New(withShares(4), MinPerSecond(0))
	for i := 0; i < 10; i++ {
		b.onRequest(share(b, 0))
	}
	if !b.tryRetry(share(b, 1)) {
		t.Fatal("a token deposited on CPU 0 did not pay for a retry on CPU 1")
	}
	if b.tryRetry(share(b, 2)) || b.tryRetry(share(b, 0)) {
		t.Fatal("one token paid for two retries")
	}
	if got := capacity(b); got != b.cap {
		t.Fatalf("capacity %d, want Cap %d", got, b.cap)
	}
}

func TestSharesFractionsAddUp(t *testing.T) {
	// Deposits of 0.1 spread over four processors make whole tokens
	// together: 40 requests, 4 retries.
	b := New(withShares(4), MinPerSecond(0))
	for i := 0; i < 40; i++ {
		b.onRequest(share(b, i%4)) // 1 token in all, 0.1 at a time on each
	}
	n := 0
	for i := 0; i < poolEvery; i++ {
		if b.tryRetry(share(b, 3)) {
			n++
		}
	}
	if n != 4 {
		t.Fatalf("40 requests at Ratio 0.1 over 4 CPUs paid for %d retries, want 4", n)
	}
	if got := b.Stats().Tokens; got != 0 {
		t.Fatalf("Tokens = %v after the retries, want 0", got)
	}
}

func TestSharesPoolWithinPeriod(t *testing.T) {
	// A processor that has just refused finds a token deposited elsewhere
	// within poolEvery refusals, never later.
	b := New(withShares(2), MinPerSecond(0))
	s0, s1 := share(b, 0), share(b, 1)
	if b.tryRetry(s1) { // the first refusal pools, and finds nothing
		t.Fatal("an empty budget paid")
	}
	for i := 0; i < 10; i++ {
		b.onRequest(s0)
	}
	refusals := 0
	for !b.tryRetry(s1) {
		if refusals++; refusals > poolEvery {
			t.Fatalf("a token on CPU 0 was not found after %d refusals on CPU 1", refusals)
		}
	}
	if refusals != poolEvery-1 {
		t.Errorf("paid after %d refusals, want %d (the next pooling)", refusals, poolEvery-1)
	}
	// CPU 0 itself pays at once.
	for i := 0; i < 10; i++ {
		b.onRequest(s0)
	}
	if !b.tryRetry(s0) {
		t.Fatal("CPU 0 did not pay with its own token")
	}
}

func TestSharesCapExact(t *testing.T) {
	// Requests spread over many processors fill the bucket to Cap
	// exactly, not beyond, and retries on one processor then drain it
	// exactly, within two poolings per four other shares.
	for _, capTokens := range []float64{0.5, 2, 7.3} {
		b := New(withShares(8), Cap(capTokens), Ratio(0.25), MinPerSecond(0))
		for i := 0; i < 1000; i++ {
			b.onRequest(share(b, (i*5)%8))
		}
		if got := b.Stats().Tokens; got != capTokens {
			t.Errorf("Cap %v: Tokens = %v after 1000 requests, want Cap", capTokens, got)
		}
		if got := capacity(b); got != b.cap {
			t.Errorf("Cap %v: capacity %d, want %d", capTokens, got, b.cap)
		}
		n := 0
		for i := 0; i < poolEvery*(8/poolWidth+1); i++ {
			if b.tryRetry(share(b, 3)) {
				n++
			}
		}
		if want := int(capTokens); n != want {
			t.Errorf("Cap %v: a full bucket paid for %d retries, want %d", capTokens, n, want)
		}
	}
}

func TestSharesRefillAfterFull(t *testing.T) {
	// A full bucket drops deposits. The room a retry frees on one
	// processor serves that processor's next deposits, up to one token;
	// beyond that, other processors' deposits can use it too.
	b := New(withShares(4), Cap(3), Ratio(0.5), MinPerSecond(0))
	for i := 0; i < 100; i++ {
		b.onRequest(share(b, 0))
	}
	if !b.full.Load() {
		t.Fatal("a full bucket did not set the full hint")
	}
	if !b.tryRetry(share(b, 3)) {
		t.Fatal("a full bucket refused a retry")
	}
	b.onRequest(share(b, 1)) // share 3 keeps the room for itself
	if got := b.Stats().Tokens; got != 2 {
		t.Fatalf("Tokens = %v after a deposit on another processor, want 2", got)
	}
	b.onRequest(share(b, 3))
	b.onRequest(share(b, 3))
	if got := b.Stats().Tokens; got != 3 {
		t.Fatalf("Tokens = %v after two deposits on the processor that retried, want 3", got)
	}
	// Two retries on share 2 free two tokens of room there: one is its
	// own, the other share 1 may take.
	if !b.tryRetry(share(b, 2)) || !b.tryRetry(share(b, 2)) {
		t.Fatal("retries refused with 3 tokens")
	}
	if b.full.Load() {
		t.Fatal("room that others can take left the full hint set")
	}
	b.onRequest(share(b, 1))
	b.onRequest(share(b, 1))
	if got := b.Stats().Tokens; got != 2 {
		t.Fatalf("Tokens = %v after share 1 used share 2's spare room, want 2", got)
	}
	if got := capacity(b); got != b.cap {
		t.Fatalf("capacity %d, want %d", got, b.cap)
	}
}

// TestSharesModel drives a budget with random calls on random shares and
// checks, after every call, that capacity is conserved and the balance
// within [0, Cap]; that every retry paid was deposited; and at the end that
// one pooling period of calls finds every whole token left.
func TestSharesModel(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, n := range []int{1, 2, 4, 8} {
		for _, capTokens := range []float64{0, 1, 3, 100} {
			b := New(withShares(n), Cap(capTokens), Ratio(0.3), MinPerSecond(0))
			var deposited, paid int64 // units; deposited is bounded by the room
			for step := 0; step < 20_000; step++ {
				s := share(b, rng.Intn(n))
				before := banked(b)
				if rng.Intn(3) > 0 {
					b.onRequest(s)
					deposited += banked(b) - before // what the bucket accepted
					if got := banked(b) - before; got < 0 || got > b.ratio {
						t.Fatalf("n %d cap %v: a deposit changed the balance by %d units", n, capTokens, got)
					}
				} else if b.tryRetry(s) {
					paid++
					if got := before - banked(b); got != unit {
						t.Fatalf("n %d cap %v: a retry withdrew %d units", n, capTokens, got)
					}
				} else if banked(b) != before {
					t.Fatalf("n %d cap %v: a refusal changed the balance", n, capTokens)
				}
				if got := capacity(b); got != b.cap {
					t.Fatalf("n %d cap %v, step %d: capacity %d, want %d", n, capTokens, step, got, b.cap)
				}
				if bal := banked(b); bal < 0 || bal > b.cap {
					t.Fatalf("n %d cap %v: balance %d outside [0, %d]", n, capTokens, bal, b.cap)
				}
			}
			if got := deposited - paid*unit; got != banked(b) {
				t.Fatalf("n %d cap %v: deposits %d - retries %d != balance %d", n, capTokens, deposited, paid, banked(b))
			}
			left := banked(b)
			extra := int64(0)
			for i := 0; i < poolEvery*(n/poolWidth+1); i++ {
				if b.tryRetry(share(b, 0)) {
					extra++
				}
			}
			if extra != left/unit || banked(b) != left%unit {
				t.Errorf("n %d cap %v: %d units left paid for %d retries, leaving %d", n, capTokens, left, extra, banked(b))
			}
		}
	}
}

// TestSharesConcurrentCapacity hammers a small budget spread over 4 shares
// from many goroutines, on whatever processors run them, with requests,
// retries and a full bucket, and checks that capacity is conserved exactly.
func TestSharesConcurrentCapacity(t *testing.T) {
	b := New(withShares(4), Cap(5), Ratio(0.5), MinPerSecond(0))
	b.compact.Store(nil) // spread
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20_000; i++ {
				b.OnRequest()
				if i%(2+g) == 0 { // some fill, some drain
					b.TryRetry()
					b.TryRetry()
				}
			}
		}(g)
	}
	wg.Wait()
	if got := capacity(b); got != b.cap {
		t.Fatalf("capacity %d after the goroutines, want %d", got, b.cap)
	}
	s := b.Stats()
	if s.Tokens < 0 || s.Tokens > 5 {
		t.Fatalf("Tokens = %v, outside [0, 5]", s.Tokens)
	}
	if float64(s.RetriesAllowed) > 0.5*float64(s.Requests) {
		t.Fatalf("%d retries allowed for %d requests at Ratio 0.5", s.RetriesAllowed, s.Requests)
	}
}

// TestSharesStayLocal checks the property that makes the budget cheap
// under contention, without timing: in the benchmarks' three states, with
// two processors taking turns, a call almost never writes a word that the
// other processor's calls write (its share) or that both write (the shared
// part, the free capacity, the full hint, the floor). Each such write moves
// a cache line between cores.
func TestSharesStayLocal(t *testing.T) {
	for _, tc := range []struct {
		name    string
		opts    []Option
		fill    int  // requests before the measure
		request bool // OnRequest before each TryRetry
		most    float64
	}{
		{"healthy", []Option{Ratio(1)}, 200, true, 0.001},
		// In an outage, a processor pools every 16 refusals and moves
		// credit about every other time: about 1 call in 32.
		{"outage", nil, 0, true, 0.04},
		{"refused", nil, 0, false, 0.001},
	} {
		clock := new(fakeClock)
		b := newFake(clock, append(tc.opts, withShares(2))...)
		for i := 0; i < tc.fill; i++ {
			b.onRequest(share(b, i%2))
		}
		for b.tryRetry(share(b, 0)) || b.tryRetry(share(b, 1)) {
			if tc.fill > 0 {
				break
			}
		}
		shared := func() [4]int64 {
			full := int64(0)
			if b.full.Load() {
				full = 1
			}
			return [4]int64{b.tokens.Load(), b.free.Load(), full, b.floorTAT.Load()}
		}
		const calls = 100_000
		crossings := 0
		for i := 0; i < calls; i++ {
			own, other := share(b, i%2), share(b, 1-i%2)
			before, otherBefore := shared(), other.share.Load()
			if tc.request {
				b.onRequest(own)
			}
			b.tryRetry(own)
			if shared() != before || other.share.Load() != otherBefore {
				crossings++
			}
		}
		got := float64(crossings) / calls
		s := b.Stats()
		t.Logf("%s: %.4f of the calls wrote a line the other processor writes; %.3f retries per call", tc.name, got, float64(s.RetriesAllowed)/float64(s.RetriesAllowed+s.RetriesRefused))
		if got > tc.most {
			t.Errorf("%s: %.4f of the calls wrote a line the other processor writes, want at most %v", tc.name, got, tc.most)
		}
	}
}

func TestSpreadOnlyWhenCallsCollide(t *testing.T) {
	// One goroutine never collides: the budget stays a single share, and
	// every call lands on it.
	b := New(withShares(4))
	for i := 0; i < 100_000; i++ {
		b.OnRequest()
		b.TryRetry()
	}
	if spread(b) {
		t.Fatal("a budget used by one goroutine spread")
	}
	for i := 1; i < 4; i++ {
		if s := share(b, i); s.requests.Load()+s.allowed.Load()+s.refused.Load() != 0 {
			t.Fatalf("share %d was used before the budget spread", i)
		}
	}
	// Collisions spread it, after spreadAfter of them; then calls use the
	// share of their processor.
	for i := 0; i < spreadAfter-1; i++ {
		b.collided()
	}
	if spread(b) {
		t.Fatalf("spread after %d collisions, want %d", spreadAfter-1, spreadAfter)
	}
	b.collided()
	if !spread(b) {
		t.Fatalf("not spread after %d collisions", spreadAfter)
	}
	if got, want := b.local(), share(b, cpu()&b.mask); got != want {
		// The goroutine may have moved between the two reads: retry once.
		if got, want = b.local(), share(b, cpu()&b.mask); got != want {
			t.Fatal("a spread budget did not use the processor's share")
		}
	}
	// A budget with a single share never spreads.
	one := New(withShares(1))
	for i := 0; i < spreadAfter; i++ {
		one.collided()
	}
	if spread(one) {
		t.Fatal("a budget with one share spread")
	}
}

func spread(b *Budget) bool { return b.compact.Load() == nil }
