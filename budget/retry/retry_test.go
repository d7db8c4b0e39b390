package retry_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/retry"
)

// attemptError is the error of one attempt, numbered, so that a test can
// tell which attempt's error Do returned.
type attemptError struct{ n int }

func (e attemptError) Error() string { return fmt.Sprintf("attempt %d failed", e.n) }

// fakeDep is a dependency whose calls fail with probability fail, drawn
// from a seeded source.
type fakeDep struct {
	fail  float64
	rng   *rand.Rand
	calls int
}

func newDep(fail float64) *fakeDep { return &fakeDep{fail: fail, rng: rand.New(rand.NewSource(1))} }

func (d *fakeDep) call(context.Context) error {
	d.calls++
	if d.rng.Float64() < d.fail {
		return attemptError{d.calls}
	}
	return nil
}

// stoppedWith reports how err differs from the *retry.Error of a Do that
// stopped for reason after the given attempts with the last error last,
// or "" if it does not.
func stoppedWith(err, last, reason error, attempts int) string {
	var re *retry.Error
	switch {
	case !errors.As(err, &re):
		return fmt.Sprintf("%v (%T) is not a *retry.Error", err, err)
	case re.Err != last:
		return fmt.Sprintf("its last error is %v, want %v", re.Err, last)
	case re.Reason != reason:
		return fmt.Sprintf("its reason is %v, want %v", re.Reason, reason)
	case re.Attempts != attempts:
		return fmt.Sprintf("it counts %d attempts, want %d", re.Attempts, attempts)
	case !errors.Is(err, last) || !errors.Is(err, reason):
		return "errors.Is does not match both the last error and the reason"
	case !strings.HasPrefix(err.Error(), last.Error()):
		return fmt.Sprintf("its message %q does not start with the last error's", err)
	}
	return ""
}

func TestAlwaysFailingWithoutBudget(t *testing.T) {
	d := newDep(1)
	for i := 0; i < 10; i++ {
		before := d.calls
		err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 4}, d.call)
		if d.calls-before != 4 {
			t.Fatalf("%d attempts, want 4", d.calls-before)
		}
		if diff := stoppedWith(err, attemptError{d.calls}, retry.ErrAttempts, 4); diff != "" {
			t.Fatalf("Do returned %v: %s", err, diff)
		}
	}
}

func TestAlwaysFailingWithBudget(t *testing.T) {
	d := newDep(1)
	b := budget.New(budget.MinPerSecond(0))
	for i := 0; i < 100; i++ {
		err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: b}, d.call)
		if !errors.Is(err, attemptError{d.calls}) || !errors.Is(err, retry.ErrBudget) {
			t.Fatalf("request %d: Do returned %v, want the last attempt's error (attempt %d) and ErrBudget", i, err, d.calls)
		}
	}
	// Each request deposits 0.1: ten requests pay for one retry, and
	// every request ends on a refused retry.
	if d.calls != 110 {
		t.Fatalf("100 requests to a dead dependency made %d attempts, want 110", d.calls)
	}
	if s := b.Stats(); s.Requests != 100 || s.RetriesAllowed != 10 || s.RetriesRefused != 100 {
		t.Fatalf("budget stats %+v, want 100 requests, 10 retries allowed, 100 refused", s)
	}
}

func TestFailing30Percent(t *testing.T) {
	d := newDep(0.3)
	b := budget.New(budget.MinPerSecond(0))
	ok := 0
	const requests = 10_000
	for i := 0; i < requests; i++ {
		if retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: b}, d.call) == nil {
			ok++
		}
	}
	load := float64(d.calls) / requests
	t.Logf("30%% failing: load %.4f×, success %.4f", load, float64(ok)/requests)
	if load < 1.09 || load > 1.11 {
		t.Errorf("load %.4f×, want 1.10±0.01", load)
	}
	if rate := float64(ok) / requests; rate < 0.75 || rate > 0.80 {
		t.Errorf("success %.4f, want in [0.75, 0.80]", rate)
	}
}

func TestHealthy(t *testing.T) {
	d := newDep(0)
	b := budget.New()
	for i := 0; i < 1000; i++ {
		if err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 3, Budget: b}, d.call); err != nil {
			t.Fatal(err)
		}
	}
	if d.calls != 1000 {
		t.Fatalf("%d attempts for 1000 healthy requests", d.calls)
	}
	if s := b.Stats(); s.Requests != 1000 || s.RetriesAllowed+s.RetriesRefused != 0 {
		t.Fatalf("budget stats %+v, want 1000 requests and no retry asked", s)
	}
	if b.LatencyQuantile(0.99) == 0 {
		t.Fatal("no latency recorded for successful first attempts")
	}
}

func TestOnlyFirstAttemptsAreObserved(t *testing.T) {
	// Successes after a retry are not healthy traffic: the p99 stays
	// that of the first attempts.
	b := budget.New(budget.Ratio(1))
	for i := 0; i < 20; i++ {
		b.OnRequest() // credit for the retries
	}
	calls := 0
	slowRetry := func(context.Context) error {
		if calls++; calls%2 == 1 {
			return errors.New("first attempt fails")
		}
		time.Sleep(20 * time.Millisecond) // the retry is slow, and succeeds
		return nil
	}
	for i := 0; i < 5; i++ {
		if err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 2, Budget: b}, slowRetry); err != nil {
			t.Fatal(err)
		}
	}
	if got := b.LatencyQuantile(0.99); got != 0 {
		t.Fatalf("p99 = %v after only retries succeeded, want 0 (nothing observed)", got)
	}
}

func TestRefusedRetryReturnsLastError(t *testing.T) {
	b := budget.New(budget.MinPerSecond(0)) // empty: refuses the first retry
	first := errors.New("the first attempt's error")
	calls := 0
	err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 5, Budget: b}, func(context.Context) error {
		calls++
		return first
	})
	if diff := stoppedWith(err, first, retry.ErrBudget, 1); diff != "" || calls != 1 {
		t.Fatalf("Do = %v after %d attempts, want the first attempt's error after 1: %s", err, calls, diff)
	}
	if s := b.Stats(); s.RetriesRefused != 1 {
		t.Fatalf("budget stats %+v, want one refused retry", s)
	}
}

func TestCancellationDuringWait(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	failed := make(chan struct{})
	last := errors.New("503")
	calls := 0
	done := make(chan error, 1)
	go func() {
		done <- retry.Do(ctx, retry.Policy{
			MaxAttempts: 3,
			RetryAfter:  func(error) (time.Duration, bool) { return time.Hour, true },
		}, func(context.Context) error {
			calls++
			close(failed)
			return last
		})
	}()
	<-failed
	cancel() // Do is waiting an hour, or about to
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !errors.Is(err, last) {
			t.Fatalf("Do = %v, want an error matching both context.Canceled and the last error", err)
		}
		if calls != 1 {
			t.Fatalf("%d attempts, want 1", calls)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Do kept waiting after its context was cancelled")
	}
}

func TestCancelledBeforeFirstAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	b := budget.New()
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 3, Budget: b}, func(context.Context) error {
		t.Fatal("op called with a cancelled context")
		return nil
	})
	if err != context.Canceled {
		t.Fatalf("Do = %v, want context.Canceled", err)
	}
	if s := b.Stats(); s.Requests != 0 {
		t.Fatalf("a request that was never made was counted: %+v", s)
	}
}

func TestCancelledDuringAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 3}, func(context.Context) error {
		calls++
		cancel()
		return attemptError{calls}
	})
	if calls != 1 || !errors.Is(err, context.Canceled) || !errors.Is(err, attemptError{1}) {
		t.Fatalf("Do = %v after %d attempts, want 1 attempt and both errors", err, calls)
	}
	if !strings.Contains(err.Error(), "attempt 1 failed") {
		t.Fatalf("message %q does not name the last error", err)
	}
}

func TestRetryAfterBeyondDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	b := budget.New(budget.Ratio(1))
	b.OnRequest() // a token, so only the deadline can refuse
	busy := &retry.HTTPError{StatusCode: http.StatusTooManyRequests, RetryAfter: time.Minute}
	calls := 0
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 3, Budget: b, RetryAfter: retry.HTTPRetryAfter}, func(context.Context) error {
		calls++
		return busy
	})
	if diff := stoppedWith(err, busy, retry.ErrDeadline, 1); diff != "" || calls != 1 {
		t.Fatalf("Do = %v after %d attempts, want the 429 after 1: %s", err, calls, diff)
	}
	if ctx.Err() != nil {
		t.Fatal("Do waited for the deadline instead of returning at once")
	}
	if s := b.Stats(); s.RetriesAllowed+s.RetriesRefused != 0 {
		t.Fatalf("the budget was asked for a retry that could not fit: %+v", s)
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := budget.New(budget.Ratio(1))
	const delay = 30 * time.Millisecond
	var times []time.Time
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 2, Budget: b, RetryAfter: retry.HTTPRetryAfter}, func(context.Context) error {
		times = append(times, time.Now())
		if len(times) == 1 {
			return &retry.HTTPError{StatusCode: http.StatusServiceUnavailable, RetryAfter: delay}
		}
		return nil
	})
	if err != nil || len(times) != 2 {
		t.Fatalf("Do = %v after %d attempts, want success after 2", err, len(times))
	}
	if gap := times[1].Sub(times[0]); gap < delay {
		t.Fatalf("retried after %v, before the Retry-After of %v", gap, delay)
	}
	if s := b.Stats(); s.RetriesAllowed != 1 {
		t.Fatalf("the Retry-After retry did not go through the budget: %+v", s)
	}
}

func TestRetryAfterStillNeedsTheBudget(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	b := budget.New(budget.MinPerSecond(0))
	busy := &retry.HTTPError{StatusCode: http.StatusServiceUnavailable, RetryAfter: time.Millisecond}
	calls := 0
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 3, Budget: b, RetryAfter: retry.HTTPRetryAfter}, func(context.Context) error {
		calls++
		return busy
	})
	if diff := stoppedWith(err, busy, retry.ErrBudget, 1); diff != "" || calls != 1 {
		t.Fatalf("Do = %v after %d attempts, want the 503 after 1, the empty budget refusing: %s", err, calls, diff)
	}
}

func TestDeadlineAdmission(t *testing.T) {
	slow := budget.New(budget.Ratio(1))
	fast := budget.New(budget.Ratio(1))
	for i := 0; i < 100; i++ {
		slow.ObserveLatency(300 * time.Millisecond)
		fast.ObserveLatency(time.Millisecond)
		slow.OnRequest()
		fast.OnRequest()
	}
	for _, tc := range []struct {
		name   string
		b      *budget.Budget
		calls  int
		reason error
	}{
		{"p99 300ms, 200ms left", slow, 1, retry.ErrDeadline}, // the retry cannot finish: no retry
		{"p99 1ms, 200ms left", fast, 3, retry.ErrAttempts},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
		calls := 0
		before := tc.b.Stats().RetriesAllowed
		err := retry.Do(ctx, retry.Policy{MaxAttempts: 3, Budget: tc.b}, func(context.Context) error {
			calls++
			return attemptError{calls}
		})
		cancel()
		if diff := stoppedWith(err, attemptError{calls}, tc.reason, tc.calls); calls != tc.calls || diff != "" {
			t.Errorf("%s: Do = %v after %d attempts, want the last error after %d: %s", tc.name, err, calls, tc.calls, diff)
		}
		if got := tc.b.Stats().RetriesAllowed - before; got != uint64(tc.calls-1) {
			t.Errorf("%s: %d retries taken from the budget, want %d", tc.name, got, tc.calls-1)
		}
	}
}

func TestShouldRetry(t *testing.T) {
	permanent := errors.New("400 bad request")
	calls := 0
	err := retry.Do(context.Background(), retry.Policy{
		MaxAttempts: 5,
		ShouldRetry: func(err error) bool { return err != permanent },
	}, func(context.Context) error {
		if calls++; calls == 2 {
			return permanent
		}
		return errors.New("timeout")
	})
	if diff := stoppedWith(err, permanent, retry.ErrFinal, 2); diff != "" || calls != 2 {
		t.Fatalf("Do = %v after %d attempts, want the permanent error after 2: %s", err, calls, diff)
	}
}

func TestDoValue(t *testing.T) {
	calls := 0
	v, err := retry.DoValue(context.Background(), retry.Policy{MaxAttempts: 3, InitialDelay: time.Microsecond}, func(context.Context) (string, error) {
		if calls++; calls < 3 {
			return "partial", errors.New("flaky")
		}
		return "stock: 7", nil
	})
	if v != "stock: 7" || err != nil || calls != 3 {
		t.Fatalf("DoValue = %q, %v after %d attempts", v, err, calls)
	}
	v, err = retry.DoValue(context.Background(), retry.Policy{MaxAttempts: 2}, func(context.Context) (string, error) {
		return "partial", errors.New("down")
	})
	if v != "" || err == nil {
		t.Fatalf("DoValue = %q, %v; want the zero value and the error", v, err)
	}
}

func TestInvalidPolicy(t *testing.T) {
	op := func(context.Context) error { t.Fatal("op called with an invalid policy"); return nil }
	for _, tc := range []struct {
		p    retry.Policy
		want string
	}{
		{retry.Policy{}, "MaxAttempts is 0; it counts the first attempt and must be at least 1"},
		{retry.Policy{MaxAttempts: -2}, "MaxAttempts is -2"},
		{retry.Policy{MaxAttempts: 3, InitialDelay: -time.Second}, "InitialDelay -1s is negative"},
		{retry.Policy{MaxAttempts: 3, MaxDelay: -1}, "MaxDelay -1ns is negative"},
		{retry.Policy{MaxAttempts: 3, InitialDelay: time.Second, MaxDelay: time.Millisecond}, "MaxDelay 1ms is below InitialDelay 1s"},
	} {
		err := retry.Do(context.Background(), tc.p, op)
		if !errors.Is(err, retry.ErrInvalidPolicy) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Do(%+v) = %v, want ErrInvalidPolicy: ...%s", tc.p, err, tc.want)
		}
	}
	var noContext context.Context // nil: the case under test
	if err := retry.Do(noContext, retry.Policy{MaxAttempts: 1}, op); !errors.Is(err, retry.ErrInvalidPolicy) {
		t.Errorf("Do(nil context) = %v", err)
	}
	if err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 1}, nil); !errors.Is(err, retry.ErrInvalidPolicy) {
		t.Errorf("Do(nil op) = %v", err)
	}
	if _, err := retry.DoValue[int](context.Background(), retry.Policy{MaxAttempts: 1}, nil); !errors.Is(err, retry.ErrInvalidPolicy) {
		t.Errorf("DoValue(nil op) = %v", err)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"120", 2 * time.Minute, true},
		{" 0 ", 0, true},
		{"Sun, 01 Mar 2026 12:00:30 GMT", 30 * time.Second, true},
		{"Sun, 01 Mar 2026 11:00:00 GMT", 0, true}, // in the past: now
		{"", 0, false},
		{"-5", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999999999", 0, false},
	} {
		got, ok := retry.ParseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseRetryAfter(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNewHTTPError(t *testing.T) {
	for _, tc := range []struct {
		status int
		header string
		want   time.Duration
		msg    string
	}{
		{429, "2", 2 * time.Second, "HTTP 429 Too Many Requests (Retry-After 2s)"},
		{503, "1", time.Second, "HTTP 503 Service Unavailable (Retry-After 1s)"},
		{500, "2", 0, "HTTP 500 Internal Server Error"}, // Retry-After counts for 429 and 503 only
		{503, "", 0, "HTTP 503 Service Unavailable"},
	} {
		resp := &http.Response{StatusCode: tc.status, Header: http.Header{}}
		if tc.header != "" {
			resp.Header.Set("Retry-After", tc.header)
		}
		e := retry.NewHTTPError(resp)
		if e.RetryAfter != tc.want || e.Error() != tc.msg {
			t.Errorf("%d %q: %v (%q), want %v (%q)", tc.status, tc.header, e.RetryAfter, e.Error(), tc.want, tc.msg)
		}
		d, ok := retry.HTTPRetryAfter(fmt.Errorf("inventory: %w", e))
		if d != tc.want || ok != (tc.want > 0) {
			t.Errorf("%d %q: HTTPRetryAfter = %v, %v", tc.status, tc.header, d, ok)
		}
	}
	if _, ok := retry.HTTPRetryAfter(errors.New("plain")); ok {
		t.Error("HTTPRetryAfter found a delay in a plain error")
	}
}

func TestConcurrentDo(t *testing.T) {
	// Many goroutines share one budget; the totals reconcile.
	b := budget.New(budget.MinPerSecond(0))
	var attempts atomic.Int64
	done := make(chan struct{})
	const goroutines, perG = 8, 500
	for g := 0; g < goroutines; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := 0; i < perG; i++ {
				_ = retry.Do(context.Background(), retry.Policy{MaxAttempts: 4, Budget: b}, func(context.Context) error {
					attempts.Add(1)
					return errors.New("down")
				})
			}
		}()
	}
	for g := 0; g < goroutines; g++ {
		<-done
	}
	s := b.Stats()
	if s.Requests != goroutines*perG || int64(s.Requests+s.RetriesAllowed) != attempts.Load() {
		t.Fatalf("stats %+v do not match %d attempts", s, attempts.Load())
	}
	if s.RetriesAllowed > goroutines*perG/10 {
		t.Fatalf("%d retries for %d requests at Ratio 0.1", s.RetriesAllowed, s.Requests)
	}
}
