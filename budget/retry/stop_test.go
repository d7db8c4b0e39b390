package retry_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/retrylint/retrylint/budget/retry"
)

// stepClock is a Clock whose Sleep returns at once and moves its time on,
// recording the waits.
type stepClock struct {
	mu    sync.Mutex
	t     time.Time
	waits []time.Duration
}

func (c *stepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *stepClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
	c.waits = append(c.waits, d)
	return nil
}

var errUnavailable = errors.New("inventory: 503 service unavailable")

type retryCall struct {
	attempt int
	err     error
	wait    time.Duration
}

func TestOnRetry(t *testing.T) {
	clock := &stepClock{t: time.Now()}
	var calls []retryCall
	attempts := 0
	err := retry.Do(context.Background(), retry.Policy{
		MaxAttempts:  4,
		InitialDelay: time.Second,
		Clock:        clock,
		OnRetry: func(attempt int, err error, wait time.Duration) {
			if attempt != attempts {
				t.Errorf("OnRetry(%d) after attempt %d", attempt, attempts)
			}
			calls = append(calls, retryCall{attempt, err, wait})
		},
	}, func(context.Context) error {
		attempts++
		return attemptError{attempts}
	})
	if diff := stoppedWith(err, attemptError{4}, retry.ErrAttempts, 4); diff != "" {
		t.Fatalf("Do = %v: %s", err, diff)
	}
	// Before each of the three retries, none after the fourth attempt,
	// each with the wait that Do then made.
	if len(calls) != 3 || len(clock.waits) != 3 {
		t.Fatalf("OnRetry called %d times and %d waits, want 3 each: %+v", len(calls), len(clock.waits), calls)
	}
	for i, c := range calls {
		if c.attempt != i+1 || c.err != (attemptError{i + 1}) || c.wait != clock.waits[i] {
			t.Errorf("call %d: OnRetry(%d, %v, %v), want (%d, attempt %d failed, %v)", i, c.attempt, c.err, c.wait, i+1, i+1, clock.waits[i])
		}
		if ceiling := time.Second << i; c.wait < 0 || c.wait > ceiling {
			t.Errorf("call %d: wait %v outside [0, %v]", i, c.wait, ceiling)
		}
	}
}

func TestOnRetryOnlyForRetriesMade(t *testing.T) {
	// A refused, inadmissible or final retry is not announced.
	tight, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		p      retry.Policy
		reason error
	}{
		{"budget", context.Background(), retry.Policy{MaxAttempts: 3, Budget: budget.New(budget.MinPerSecond(0))}, retry.ErrBudget},
		// The wait is uniform in [0, InitialDelay]: a delay of a million
		// hours leaves a wait under the minute left one chance in 6·10⁷
		// (an hour left one in 60).
		{"deadline", tight, retry.Policy{MaxAttempts: 3, InitialDelay: 1e6 * time.Hour}, retry.ErrDeadline},
		{"final", context.Background(), retry.Policy{MaxAttempts: 3, ShouldRetry: func(error) bool { return false }}, retry.ErrFinal},
		{"one attempt", context.Background(), retry.Policy{MaxAttempts: 1}, retry.ErrAttempts},
	} {
		announced := 0
		tc.p.OnRetry = func(int, error, time.Duration) { announced++ }
		err := retry.Do(tc.ctx, tc.p, func(context.Context) error { return errUnavailable })
		if diff := stoppedWith(err, errUnavailable, tc.reason, 1); diff != "" || announced != 0 {
			t.Errorf("%s: Do = %v after %d OnRetry calls, want none: %s", tc.name, err, announced, diff)
		}
	}
}

func TestStopReasonContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 5, InitialDelay: time.Hour}, func(context.Context) error {
		cancel() // ends the wait before the second attempt
		return errUnavailable
	})
	if diff := stoppedWith(err, errUnavailable, context.Canceled, 1); diff != "" {
		t.Fatalf("Do = %v: %s", err, diff)
	}
	if errors.Is(err, retry.ErrAttempts) || errors.Is(err, retry.ErrBudget) || errors.Is(err, retry.ErrDeadline) || errors.Is(err, retry.ErrFinal) {
		t.Fatalf("Do = %v matches a reason other than the context's", err)
	}
}

func TestSuccessIsNil(t *testing.T) {
	calls := 0
	err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 3}, func(context.Context) error {
		if calls++; calls < 3 {
			return errUnavailable
		}
		return nil
	})
	if err != nil || calls != 3 {
		t.Fatalf("Do = %v after %d attempts, want nil after 3", err, calls)
	}
}

func TestErrorMessage(t *testing.T) {
	for _, tc := range []struct {
		err  *retry.Error
		want string
	}{
		{&retry.Error{Err: errUnavailable, Reason: retry.ErrBudget, Attempts: 1},
			"inventory: 503 service unavailable (retries stopped after 1 attempt: budget refused the retry)"},
		{&retry.Error{Err: errUnavailable, Reason: retry.ErrAttempts, Attempts: 4},
			"inventory: 503 service unavailable (retries stopped after 4 attempts: attempts exhausted)"},
		{&retry.Error{Err: errUnavailable, Reason: context.DeadlineExceeded, Attempts: 2},
			"inventory: 503 service unavailable (retries stopped after 2 attempts: context deadline exceeded)"},
		// The context's error is not repeated when the attempt returned it.
		{&retry.Error{Err: fmt.Errorf("get: %w", context.Canceled), Reason: context.Canceled, Attempts: 1},
			"get: context canceled (retries stopped after 1 attempt)"},
		// A reason of an inner Do is repeated: it is another layer's.
		{&retry.Error{Err: &retry.Error{Err: errUnavailable, Reason: retry.ErrFinal, Attempts: 1}, Reason: retry.ErrFinal, Attempts: 1},
			"inventory: 503 service unavailable (retries stopped after 1 attempt: error is not retryable) (retries stopped after 1 attempt: error is not retryable)"},
		{&retry.Error{Err: errUnavailable}, "inventory: 503 service unavailable"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func TestNestedDo(t *testing.T) {
	// The inner layer's budget refuses; the outer layer then spends its
	// attempts. errors.As finds the outer reason, errors.Is both.
	inner := retry.Policy{MaxAttempts: 3, Budget: budget.New(budget.MinPerSecond(0))}
	outer := retry.Policy{MaxAttempts: 2}
	err := retry.Do(context.Background(), outer, func(ctx context.Context) error {
		return retry.Do(ctx, inner, func(context.Context) error { return errUnavailable })
	})
	var re *retry.Error
	if !errors.As(err, &re) || re.Reason != retry.ErrAttempts || re.Attempts != 2 {
		t.Fatalf("Do = %v, want the outer Do's ErrAttempts after 2 attempts first", err)
	}
	if !errors.Is(err, retry.ErrBudget) || !errors.Is(err, errUnavailable) {
		t.Fatalf("Do = %v, want it to match the inner ErrBudget and the dependency's error", err)
	}
}

func TestValidate(t *testing.T) {
	for _, p := range []retry.Policy{
		{},
		{MaxAttempts: 3, InitialDelay: -time.Second},
		{MaxAttempts: 3, InitialDelay: time.Second, MaxDelay: time.Millisecond},
	} {
		verr := p.Validate()
		derr := retry.Do(context.Background(), p, func(context.Context) error { return nil })
		if !errors.Is(verr, retry.ErrInvalidPolicy) || derr == nil || verr.Error() != derr.Error() {
			t.Errorf("%+v: Validate() = %v and Do = %v, want the same ErrInvalidPolicy", p, verr, derr)
		}
	}
	for _, p := range []retry.Policy{
		{MaxAttempts: 1},
		{MaxAttempts: 4, InitialDelay: 50 * time.Millisecond, MaxDelay: time.Second, Budget: budget.New()},
	} {
		if err := p.Validate(); err != nil {
			t.Errorf("%+v: Validate() = %v, want nil", p, err)
		}
	}
}

func TestClockDeadline(t *testing.T) {
	// With a Clock, Do waits on it, not in real time, and deadline
	// admission compares its time with the context's deadline: Do retries
	// while the waits fit in the second before the deadline, then stops
	// with ErrDeadline.
	clock := &stepClock{t: time.Now()}
	ctx, cancel := context.WithDeadline(context.Background(), clock.t.Add(time.Second))
	defer cancel()
	attempts := 0
	start := time.Now()
	err := retry.Do(ctx, retry.Policy{MaxAttempts: 10, InitialDelay: 400 * time.Millisecond, Clock: clock},
		func(context.Context) error { attempts++; return errUnavailable })
	if time.Since(start) > 100*time.Millisecond {
		t.Fatalf("Do slept in real time: %v", time.Since(start))
	}
	if diff := stoppedWith(err, errUnavailable, retry.ErrDeadline, attempts); diff != "" {
		t.Fatalf("Do = %v: %s", err, diff)
	}
	var waited time.Duration
	for _, w := range clock.waits {
		waited += w
	}
	if len(clock.waits) != attempts-1 || waited >= time.Second {
		t.Fatalf("%d attempts, waits %v: want one wait per retry, less than the second to the deadline in all", attempts, clock.waits)
	}
}
