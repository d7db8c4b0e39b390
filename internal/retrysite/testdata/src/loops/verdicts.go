package loops

import (
	"context"
	"time"
)

// Retry helpers of held-out code (issue 30), each beside the look-alike
// that must stay silent.

// ---- A verdict that says more than yes or no ----

type caller struct {
	c   *Client
	max int
}

// shouldRetry says whether to retry, and why not.
func (p *caller) shouldRetry(err error, v string, n int) (bool, string) {
	if n >= p.max {
		return false, "max retries"
	}
	return err != nil, ""
}

// The verdict is the first of two results: the loop goes round while the
// classifier of the attempt's error says retry, as many times as it
// allows.
func (p *caller) get(ctx context.Context) (string, error) {
	var v string
	var err error
	for n := 0; ; { // want `loop \[unknown bound\] delay=fixed dep=c`
		v, err = p.c.Get(ctx, "k")
		retry, reason := p.shouldRetry(err, v, n)
		if !retry {
			_ = reason
			break
		}
		n++
		time.Sleep(time.Second)
	}
	return v, err
}

// next says whether there is more, and where it starts.
func (p *caller) next(err error, v string) (bool, string) { return v != "", v }

// Look-alike: the verdict's name says nothing of a failure (more pages,
// the next key): success goes round as well.
func (p *caller) walk(ctx context.Context) error {
	var err error
	for n := 0; ; {
		var v string
		v, err = p.c.Get(ctx, "k")
		more, _ := p.next(err, v)
		if !more {
			break
		}
		n++
		time.Sleep(time.Second)
	}
	return err
}

// ---- A count that starts again ----

func withAttempt(ctx context.Context, n int) context.Context { return ctx }

// The count restarts at its first value after progress: the attempt's
// number, handed on, still names the same operation.
func runCall(ctx context.Context, call func(context.Context) error, progressed func() bool) error {
	attempts := 1
	for { // want `loop \[time-bounded\] delay=fixed`
		err := call(withAttempt(ctx, attempts))
		if err == nil {
			return nil
		}
		if progressed() {
			attempts = 1
		}
		attempts++
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// Look-alike: the variable jumps to a value it did not start from, so
// it is no count of attempts: each call is given a different position.
func runFrom(ctx context.Context, call func(context.Context) error, progressed func() bool) error {
	pos := 1
	for {
		err := call(withAttempt(ctx, pos))
		if err == nil {
			return nil
		}
		if progressed() {
			pos = 100
		}
		pos++
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// A count with a limit that starts again on the way round: the limit
// bounds nothing.
func runCounted(ctx context.Context, call func(context.Context) error, progressed func() bool) error {
	attempts := 1
	for { // want `loop \[unbounded\] delay=fixed`
		err := call(withAttempt(ctx, attempts))
		if err == nil {
			return nil
		}
		if progressed() {
			attempts = 1
		}
		if attempts >= 3 {
			return err
		}
		attempts++
		time.Sleep(time.Second)
	}
}

// Look-alike: the count starts again only on the way out, so the limit
// still bounds the attempts.
func runCountedOut(ctx context.Context, call func(context.Context) error) error {
	attempts := 1
	for { // want `loop \[3 attempts\] delay=fixed`
		err := call(withAttempt(ctx, attempts))
		if err == nil {
			attempts = 1
			return nil
		}
		if attempts >= 3 {
			return err
		}
		attempts++
		time.Sleep(time.Second)
	}
}

// ---- A verdict kept in a variable that says retry ----

// retryCond is a condition of the caller's: nothing says what it holds for.
type retryCond func(string, error) bool

// The flag starts as the error's test, and any condition may set it: the
// variable's name says what the conditions hold for, and each value it
// is given goes on with what it says.
func backoffOp(op func() (string, error), max int, conds []retryCond) error {
	var err error
	for attempt := 0; attempt <= max; attempt++ { // want `loop \[max\+1 attempts\] delay=exponential`
		var v string
		v, err = op()
		needsRetry := err != nil
		for _, cond := range conds {
			needsRetry = cond(v, err)
			if needsRetry {
				break
			}
		}
		if !needsRetry {
			return err
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return err
}

// The same kept once: retry := cond(v, err).
func backoffOne(op func() (string, error), max int, cond retryCond) error {
	var err error
	for attempt := 0; attempt <= max; attempt++ { // want `loop \[max\+1 attempts\] delay=exponential`
		var v string
		v, err = op()
		if retry := cond(v, err); !retry {
			return err
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return err
}

// Look-alike: the flag says the work is done, and a condition of the
// caller's may say so of any answer: an answer that is not done goes
// round, polling.
func untilDone(op func() (string, error), max int, conds []retryCond) error {
	var err error
	for attempt := 0; attempt <= max; attempt++ {
		var v string
		v, err = op()
		done := err == nil
		for _, cond := range conds {
			done = cond(v, err)
			if done {
				break
			}
		}
		if done {
			return err
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return err
}

// Look-alike: the same kept once, in ok.
func untilOK(op func() (string, error), max int, cond retryCond) error {
	var err error
	for attempt := 0; attempt <= max; attempt++ {
		var v string
		v, err = op()
		if ok := cond(v, err); ok {
			return err
		}
		time.Sleep(time.Duration(attempt) * time.Second)
	}
	return err
}

// ---- A nil stream is no answer ----

type watcher interface {
	Watch(ctx context.Context) (watchStream, error)
	Lookup(ctx context.Context) (any, error)
}

type watchStream interface{ Recv() (string, error) }

func isHalt(err error) bool { return err == context.Canceled }

// grow waits, and says how long to wait the next time.
func grow(d time.Duration) time.Duration {
	time.Sleep(d)
	return d + d/4
}

// Opening a stream until one opens: a nil stream with no error goes
// round too, but only a failure gives a nil stream, so success leaves.
func openWatch(ctx context.Context, w watcher) (ws watchStream, err error) {
	backoff := time.Millisecond
	for { // want `loop \[time-bounded\] delay=exponential dep=w`
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		if ws, err = w.Watch(ctx); ws != nil && err == nil {
			break
		}
		if isHalt(err) {
			return nil, err
		}
		backoff = grow(backoff)
	}
	return ws, nil
}

// Look-alike: a nil value of any type is an empty answer, which the loop
// waits to see filled.
func waitValue(ctx context.Context, w watcher) (any, error) {
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		default:
		}
		if v, err := w.Lookup(ctx); v != nil && err == nil {
			return v, nil
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: the stream's failures leave; only a nil stream goes round,
// which a failure does not give.
func openOnce(ctx context.Context, w watcher) (watchStream, error) {
	for {
		ws, err := w.Watch(ctx)
		if err != nil {
			return nil, err
		}
		if ws != nil {
			return ws, nil
		}
		time.Sleep(time.Second)
	}
}
