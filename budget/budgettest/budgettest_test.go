package budgettest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/budgettest"
	"github.com/retrylint/retrylint/budget/retry"
)

var errDown = errors.New("inventory: 503")

func down(calls *int) func(context.Context) error {
	return func(context.Context) error { *calls++; return errDown }
}

func TestAllow(t *testing.T) {
	b := budgettest.Allow()
	for i := 0; i < 100_000; i++ {
		if !b.TryRetry() {
			t.Fatalf("retry %d refused", i+1)
		}
	}
	for i := 0; i < 100; i++ {
		calls := 0
		err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: b}, down(&calls))
		if calls != 4 || !errors.Is(err, retry.ErrAttempts) {
			t.Fatalf("request %d: %d attempts and %v, want 4 and ErrAttempts", i, calls, err)
		}
	}
	if s := b.Stats(); s.Requests != 100 || s.RetriesAllowed != 100_300 || s.RetriesRefused != 0 {
		t.Fatalf("stats %+v, want 100 requests, 100300 retries, none refused", s)
	}
}

func TestRefuse(t *testing.T) {
	b := budgettest.Refuse()
	for i := 0; i < 10_000; i++ {
		b.OnRequest() // credit that an ordinary budget would bank
	}
	for i := 0; i < 100; i++ {
		calls := 0
		err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: b}, down(&calls))
		if calls != 1 || !errors.Is(err, retry.ErrBudget) {
			t.Fatalf("request %d: %d attempts and %v, want 1 and ErrBudget", i, calls, err)
		}
	}
}

func TestRegistries(t *testing.T) {
	allow, refuse := budgettest.AllowAll(), budgettest.RefuseAll()
	for _, dep := range []string{"inventory", "payments"} {
		if !allow.For(dep).TryRetry() || refuse.For(dep).TryRetry() {
			t.Fatalf("%s: AllowAll or RefuseAll did not decide as named", dep)
		}
	}
}

func TestClockDrivesTheFloor(t *testing.T) {
	clock := budgettest.NewClock(time.Unix(0, 0))
	b := budget.New(clock.Option()) // floor: 1 retry a second
	if !b.TryRetry() {
		t.Fatal("the full floor refused its retry")
	}
	for i := 0; i < 50; i++ {
		if b.TryRetry() {
			t.Fatal("a second floor retry in the same instant")
		}
	}
	clock.Advance(999 * time.Millisecond)
	for i := 0; i < 50; i++ {
		if b.TryRetry() {
			t.Fatal("a floor retry before its second")
		}
	}
	clock.Advance(time.Millisecond)
	allowed := false
	for i := 0; i < 20 && !allowed; i++ { // refusals may skip the clock 16 times
		allowed = b.TryRetry()
	}
	if !allowed {
		t.Fatal("no floor retry after a second on the clock")
	}
}

func TestClockInDo(t *testing.T) {
	start := time.Now()
	clock := budgettest.NewClock(start)
	calls := 0
	err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 5, InitialDelay: time.Hour, Clock: clock}, down(&calls))
	if !errors.Is(err, retry.ErrAttempts) || calls != 5 {
		t.Fatalf("Do = %v after %d attempts, want ErrAttempts after 5", err, calls)
	}
	if real := time.Since(start); real > time.Second {
		t.Fatalf("Do took %v of real time with hour-long waits on a fake clock", real)
	}
	waits := clock.Waits()
	var total time.Duration
	for _, w := range waits {
		total += w
	}
	if len(waits) != 4 || clock.Now().Sub(start) != total {
		t.Fatalf("waits %v and the clock moved %v, want 4 waits adding up to the move", waits, clock.Now().Sub(start))
	}
}

func TestClockSleepCancelled(t *testing.T) {
	clock := budgettest.NewClock(time.Unix(100, 0))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := clock.Sleep(ctx, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("Sleep on a cancelled context = %v, want context.Canceled", err)
	}
	if !clock.Now().Equal(time.Unix(100, 0)) || len(clock.Waits()) != 0 {
		t.Fatal("a cancelled Sleep moved the clock")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("Advance(-1s) did not panic")
		}
	}()
	clock.Advance(-time.Second)
}
