package budget

import (
	"sync"
	"testing"
	"time"
)

func TestRegistryReset(t *testing.T) {
	r := NewRegistry(MinPerSecond(0))
	// An earlier test leaves credit behind.
	old := r.For("inventory")
	for i := 0; i < 20; i++ {
		old.OnRequest()
	}
	if !r.For("inventory").TryRetry() {
		t.Fatal("the credit of 20 requests did not pay a retry")
	}
	r.Reset()
	fresh := r.For("inventory")
	if fresh == old {
		t.Fatal("For returned the budget from before Reset")
	}
	if s := fresh.Stats(); s != (Stats{}) {
		t.Fatalf("a budget after Reset has %+v, want nothing", s)
	}
	if fresh.TryRetry() {
		t.Fatal("a budget after Reset allowed a retry on credit from before it")
	}
	// The old budget still works, outside the registry.
	if !old.TryRetry() {
		t.Fatal("the budget from before Reset lost its credit")
	}
	n := 0
	r.Each(func(string, *Budget) { n++ })
	if n != 1 {
		t.Fatalf("Each saw %d budgets after Reset and one For, want 1", n)
	}
	r.Reset()
	if m := r.Metrics(); len(m) != 0 {
		t.Fatalf("Metrics after Reset = %v, want none", m)
	}
	var zero Registry
	zero.Reset() // the zero Registry too
	if zero.For("x") == nil {
		t.Fatal("For after resetting the zero Registry returned nil")
	}
}

func TestRegistryResetConcurrent(t *testing.T) {
	r := NewRegistry()
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				b := r.For("dep")
				b.OnRequest()
				b.TryRetry()
				if i%100 == 0 {
					r.Reset()
				}
			}
		}()
	}
	wg.Wait()
	if r.For("dep") == nil {
		t.Fatal("no budget after concurrent resets")
	}
}

func TestClockOption(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	b := New(Clock(clock), MinPerSecond(2)) // the floor banks 2 retries a second
	for i := 0; i < 2; i++ {
		if !b.TryRetry() {
			t.Fatalf("floor retry %d refused", i+1)
		}
	}
	for i := 0; i < 100; i++ {
		if b.TryRetry() {
			t.Fatalf("a retry allowed at the same instant after the floor was spent (call %d)", i)
		}
	}
	now = now.Add(499 * time.Millisecond)
	for i := 0; i < 20; i++ { // past any refusals that skip the clock
		if b.TryRetry() {
			t.Fatal("a floor retry allowed before its 500ms")
		}
	}
	now = now.Add(time.Millisecond)
	allowed := false
	for i := 0; i < 20 && !allowed; i++ {
		allowed = b.TryRetry()
	}
	if !allowed {
		t.Fatal("no floor retry 500ms after the floor was spent")
	}
	// nil is the system clock.
	if b := New(Clock(nil)); !b.TryRetry() {
		t.Fatal("a budget on the system clock refused its first floor retry")
	}
}
