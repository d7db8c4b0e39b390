package retry

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// A Policy says how Do retries. The zero Policy is invalid: MaxAttempts must
// be set.
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
}

// ErrInvalidPolicy is the error, wrapped with the reason, that Do returns
// for a Policy it cannot run, without calling the operation.
var ErrInvalidPolicy = errors.New("retry: invalid policy")

func (p *Policy) validate() error {
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
// If one of them says no, or the attempts are spent, Do returns the error
// of the last attempt, as op returned it, at once. It checks the context
// before each attempt and while it waits: when the context is done, it
// returns an error that matches both the context's error and the last
// attempt's with errors.Is (the context's error alone if no attempt was
// made). An invalid Policy, a nil context or a nil op make Do return an
// error wrapping ErrInvalidPolicy without calling op.
func Do(ctx context.Context, p Policy, op func(context.Context) error) error {
	if op == nil {
		return fmt.Errorf("%w: the operation is nil", ErrInvalidPolicy)
	}
	return run(ctx, &p, realEnv, op)
}

// DoValue is Do for an operation with a result: it returns the result of
// the attempt that succeeded, or the zero value and the error Do would
// return.
func DoValue[T any](ctx context.Context, p Policy, op func(context.Context) (T, error)) (T, error) {
	var v T
	if op == nil {
		return v, fmt.Errorf("%w: the operation is nil", ErrInvalidPolicy)
	}
	err := run(ctx, &p, realEnv, func(ctx context.Context) error {
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
	if err := p.validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b := p.Budget
	if b != nil {
		b.OnRequest()
	}
	var last error
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return stopped(err, last)
		}
		start := e.now()
		err := op(ctx)
		if err == nil {
			if attempt == 1 && b != nil {
				b.ObserveLatency(e.now().Sub(start))
			}
			return nil
		}
		last = err
		if attempt >= p.MaxAttempts {
			return err
		}
		if cerr := ctx.Err(); cerr != nil {
			return stopped(cerr, err)
		}
		if p.ShouldRetry != nil && !p.ShouldRetry(err) {
			return err
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
				return err // the retry could not finish in time
			}
		}
		if b != nil && !b.TryRetry() {
			return err
		}
		if wait > 0 {
			if cerr := e.sleep(ctx, wait); cerr != nil {
				return stopped(cerr, err)
			}
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

// stopped is the error of a Do that the context ended: the context's
// error, and the last attempt's if there was one.
func stopped(ctxErr, last error) error {
	if last == nil || errors.Is(last, ctxErr) {
		if last == nil {
			return ctxErr
		}
		return last
	}
	return &stoppedError{ctx: ctxErr, last: last}
}

type stoppedError struct{ ctx, last error }

func (e *stoppedError) Error() string {
	return e.last.Error() + " (retries stopped: " + e.ctx.Error() + ")"
}

func (e *stoppedError) Unwrap() []error { return []error{e.ctx, e.last} }
