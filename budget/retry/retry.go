package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// A Policy says how Do retries. The zero Policy is invalid: MaxAttempts
// must be set, so that every retry loop states its limit. Check a Policy
// where it is built with Validate; Do checks it again at each call.
type Policy struct {
	// MaxAttempts is the most attempts Do makes, the first included: 1
	// never retries, 4 retries up to three times. It must be at least 1.
	MaxAttempts int

	// InitialDelay and MaxDelay set the backoff: before the n-th retry
	// Do waits a uniformly random time in [0, min(MaxDelay,
	// InitialDelay·2ⁿ⁻¹)] ("full jitter", so that clients that failed
	// together do not retry together). Both must not be negative; a
	// MaxDelay of 0 leaves the growth uncapped, a positive one must not be
	// below InitialDelay. An InitialDelay of 0 retries at once.
	InitialDelay time.Duration
	MaxDelay     time.Duration

	// Budget, when not nil, is the retry budget of the dependency that op
	// calls: Do calls its OnRequest once, asks its TryRetry before each
	// retry, and stops with the last error when it refuses. It also
	// records the duration of every first attempt that succeeds
	// (Budget.ObserveLatency), the dependency's healthy service time, from
	// which Do refuses retries that could not finish before the
	// context's deadline. Without a Budget, a failing dependency gets
	// MaxAttempts times its load.
	Budget *budget.Budget

	// ShouldRetry reports whether an error is worth retrying (a timeout, a
	// 503) or final (a 400, a parse error). Nil retries every error.
	ShouldRetry func(error) bool

	// RetryAfter returns the delay that the dependency asked for with an
	// error, such as the Retry-After header of a 429 or 503 response
	// (HTTPRetryAfter reads it from an HTTPError). Do then waits at least
	// that long before the retry, unless that would end after the
	// context's deadline: then it stops at once with the error. Nil:
	// no error carries a delay.
	RetryAfter func(error) (time.Duration, bool)

	// OnRetry, when not nil, is called before each retry, once Do has
	// decided to make it (the budget allowed it), with the number of the
	// attempt that failed (1 for the first), its error and the wait
	// before the next attempt, which may be 0. It is not called after the
	// last attempt, nor when Do stops: log, count or tag a span here, and
	// read why Do stopped from its error (see Error). It runs on Do's
	// goroutine and delays the retry by its own duration.
	OnRetry func(attempt int, err error, wait time.Duration)

	// Clock, when not nil, is where Do reads the time and waits instead
	// of the system clock, for tests (budgettest.Clock's waits return at
	// once). The context's deadline is still a time of the system clock:
	// Do compares the Clock's Now with it.
	Clock Clock
}

// A Clock is the time as Do sees it: Now reads it, and Sleep waits for d
// or until ctx is done, returning ctx.Err() in that case and nil
// otherwise. A Clock must be safe for concurrent use if the Policy is.
type Clock interface {
	Now() time.Time
	Sleep(ctx context.Context, d time.Duration) error
}

// ErrInvalidPolicy is the error, wrapped with the reason, that Do returns
// for a Policy it cannot run, without calling the operation.
var ErrInvalidPolicy = errors.New("retry: invalid policy")

// Validate reports whether Do can run p: nil, or an error wrapping
// ErrInvalidPolicy that says what is wrong. Do makes the same check before
// any attempt; call Validate where a Policy is built (an init function, a
// constructor, a test) so that a bad one fails there and not at its first
// use.
func (p Policy) Validate() error {
	switch {
	case p.MaxAttempts < 1:
		return fmt.Errorf("%w: MaxAttempts is %d; it counts the first attempt and must be at least 1", ErrInvalidPolicy, p.MaxAttempts)
	case p.InitialDelay < 0:
		return fmt.Errorf("%w: InitialDelay %v is negative", ErrInvalidPolicy, p.InitialDelay)
	case p.MaxDelay < 0:
		return fmt.Errorf("%w: MaxDelay %v is negative", ErrInvalidPolicy, p.MaxDelay)
	case p.MaxDelay > 0 && p.MaxDelay < p.InitialDelay:
		return fmt.Errorf("%w: MaxDelay %v is below InitialDelay %v", ErrInvalidPolicy, p.MaxDelay, p.InitialDelay)
	}
	return nil
}

// Do calls op until it succeeds, and at most p.MaxAttempts times. Before
// each retry it checks, in this order, that:
//
//   - the error is worth retrying (p.ShouldRetry);
//   - the wait (the backoff, or the dependency's Retry-After if longer)
//     and the dependency's observed p99 attempt time both fit before the
//     context's deadline, if it has one;
//   - the budget allows the retry (p.Budget.TryRetry).
//
// Then it calls p.OnRetry, waits and tries again. If a check says no, or
// the attempts are spent, Do returns at once an *Error that wraps the
// error of the last attempt, as op returned it, and why it stopped:
// ErrFinal, ErrDeadline, ErrBudget or ErrAttempts. It checks the context
// before each attempt and while it waits: when the context is done, the
// *Error's reason is the context's error (the context's error alone, not
// wrapped, if no attempt was made). When op succeeds, Do returns nil. An
// invalid Policy, a nil context or a nil op make Do return an error
// wrapping ErrInvalidPolicy without calling op.
func Do(ctx context.Context, p Policy, op func(context.Context) error) error {
	if op == nil {
		return fmt.Errorf("%w: the operation is nil", ErrInvalidPolicy)
	}
	return run(ctx, &p, p.env(), op)
}

// DoValue is Do for an operation with a result: it returns the result of
// the attempt that succeeded, or the zero value and the error Do would
// return.
func DoValue[T any](ctx context.Context, p Policy, op func(context.Context) (T, error)) (T, error) {
	var v T
	if op == nil {
		return v, fmt.Errorf("%w: the operation is nil", ErrInvalidPolicy)
	}
	err := run(ctx, &p, p.env(), func(ctx context.Context) error {
		r, err := op(ctx)
		if err == nil {
			v = r
		}
		return err
	})
	return v, err
}

// env is what Do takes from the outside world, replaced in tests.
type env struct {
	now   func() time.Time
	sleep func(ctx context.Context, d time.Duration) error // ctx.Err() if it ends first
	rand  func(n int64) int64                              // uniform in [0, n)
}

var realEnv = &env{now: time.Now, sleep: sleep, rand: rand.Int63n}

// env returns the env of p's Clock, or the real one.
func (p *Policy) env() *env {
	if p.Clock == nil {
		return realEnv
	}
	return &env{now: p.Clock.Now, sleep: p.Clock.Sleep, rand: rand.Int63n}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func run(ctx context.Context, p *Policy, e *env, op func(context.Context) error) error {
	if ctx == nil {
		return fmt.Errorf("%w: the context is nil", ErrInvalidPolicy)
	}
	if err := p.Validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b := p.Budget
	if b != nil {
		b.OnRequest()
	}
	for attempt := 1; ; attempt++ {
		start := e.now()
		err := op(ctx)
		if err == nil {
			if attempt == 1 && b != nil {
				b.ObserveLatency(e.now().Sub(start))
			}
			return nil
		}
		if attempt >= p.MaxAttempts {
			return &Error{Err: err, Reason: ErrAttempts, Attempts: attempt}
		}
		if cerr := ctx.Err(); cerr != nil {
			return &Error{Err: err, Reason: cerr, Attempts: attempt}
		}
		if p.ShouldRetry != nil && !p.ShouldRetry(err) {
			return &Error{Err: err, Reason: ErrFinal, Attempts: attempt}
		}
		wait := p.backoff(e, attempt)
		if p.RetryAfter != nil {
			if d, ok := p.RetryAfter(err); ok && d > wait {
				wait = d
			}
		}
		if deadline, ok := ctx.Deadline(); ok {
			var p99 time.Duration
			if b != nil {
				p99 = b.LatencyQuantile(0.99)
			}
			if !e.now().Add(wait + p99).Before(deadline) {
				return &Error{Err: err, Reason: ErrDeadline, Attempts: attempt}
			}
		}
		if b != nil && !b.TryRetry() {
			return &Error{Err: err, Reason: ErrBudget, Attempts: attempt}
		}
		if p.OnRetry != nil {
			p.OnRetry(attempt, err, wait)
		}
		if wait > 0 {
			if cerr := e.sleep(ctx, wait); cerr != nil {
				return &Error{Err: err, Reason: cerr, Attempts: attempt}
			}
		}
		if cerr := ctx.Err(); cerr != nil {
			return &Error{Err: err, Reason: cerr, Attempts: attempt}
		}
	}
}

// backoff returns the full-jitter wait before retry n (n ≥ 1): uniform in
// [0, min(MaxDelay, InitialDelay·2ⁿ⁻¹)].
func (p *Policy) backoff(e *env, n int) time.Duration {
	if p.InitialDelay == 0 {
		return 0
	}
	ceiling := p.InitialDelay
	for i := 1; i < n && (p.MaxDelay == 0 || ceiling < p.MaxDelay); i++ {
		if ceiling > maxDuration/2 {
			ceiling = maxDuration
			break
		}
		ceiling *= 2
	}
	if p.MaxDelay > 0 && ceiling > p.MaxDelay {
		ceiling = p.MaxDelay
	}
	if ceiling == maxDuration {
		return time.Duration(e.rand(int64(maxDuration)))
	}
	return time.Duration(e.rand(int64(ceiling) + 1))
}

const maxDuration = time.Duration(1<<63 - 1)
