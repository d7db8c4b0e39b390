// Package backoffs holds retry loops whose wait between attempts the
// backoff classification must tell apart: each positive beside the
// look-alike that must not be classified the same way.
package backoffs

import (
	"context"
	"delays"
	"math/rand"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/googleapis/gax-go/v2"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

// ---- 6: a backoff value's own jitter ---------------------------------------

// cenkalti's NewExponentialBackOff randomizes by 0.5 unless told not to.
func exponentialValue(ctx context.Context, c *Client) {
	b := backoff.NewExponentialBackOff()
	for i := 0; i < 3; i++ { // want `delay=exponential\+jitter`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(b.NextBackOff())
	}
}

// A factor of 0 is no jitter.
func exponentialNoFactor(ctx context.Context, c *Client) {
	b := backoff.NewExponentialBackOff(backoff.WithRandomizationFactor(0))
	for i := 0; i < 3; i++ { // want `delay=exponential( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(b.NextBackOff())
	}
}

// A constant backoff, through a wrapper that passes its waits on.
func constantValue(ctx context.Context, c *Client) {
	b := backoff.WithMaxRetries(backoff.NewConstantBackOff(time.Second), 3)
	for i := 0; i < 3; i++ { // want `delay=fixed( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(b.NextBackOff())
	}
}

// A BackOff handed in: the table cannot tell which.
func someValue(ctx context.Context, c *Client, b backoff.BackOff) {
	for i := 0; i < 3; i++ { // want `delay=yes( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(b.NextBackOff())
	}
}

// gax's Backoff pauses with full jitter; gax.Sleep is the wait.
func gaxPause(ctx context.Context, c *Client) error {
	bo := gax.Backoff{Initial: time.Second}
	for { // want `delay=exponential\+jitter`
		err := c.Get(ctx)
		if err == nil {
			return nil
		}
		if err := gax.Sleep(ctx, bo.Pause()); err != nil {
			return err
		}
	}
}

// A fixed gax.Sleep is fixed.
func gaxFixed(ctx context.Context, c *Client) error {
	for { // want `delay=fixed( |$)`
		err := c.Get(ctx)
		if err == nil {
			return nil
		}
		if err := gax.Sleep(ctx, time.Second); err != nil {
			return err
		}
	}
}

// ---- 1: a wait inside another function -------------------------------------

// waitFor waits d or until ctx ends.
func waitFor(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func waitHelper(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ { // want `delay=fixed( |$)`
		if c.Get(ctx) == nil {
			return nil
		}
		if err := waitFor(ctx, 100*time.Millisecond); err != nil {
			return err
		}
	}
	return nil
}

// logFor takes a duration but does not wait: no delay.
func logFor(ctx context.Context, d time.Duration) error {
	_ = d.String()
	return nil
}

func notAWait(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ { // want `delay=none`
		if c.Get(ctx) == nil {
			return nil
		}
		if err := logFor(ctx, time.Second); err != nil {
			return err
		}
	}
	return nil
}

// A sleeper function value of a context and a duration (gax's).
func sleeperValue(ctx context.Context, c *Client, sp func(context.Context, time.Duration) error) error {
	for i := 0; i < 3; i++ { // want `delay=fixed( |$)`
		if c.Get(ctx) == nil {
			return nil
		}
		if err := sp(ctx, time.Second); err != nil {
			return err
		}
	}
	return nil
}

// ---- 4: jitter only when the random value flows into the wait --------------

// jitter returns d plus up to half of it, at random.
func jitter(d time.Duration) time.Duration {
	return d + time.Duration(rand.Int63n(int64(d/2)+1))
}

func jitterInCallee(ctx context.Context, c *Client) {
	for i := 0; i < 3; i++ { // want `delay=fixed\+jitter`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(jitter(time.Second))
	}
}

// Jitter and growth computed in another package, known by its facts.
func jitterAcross(ctx context.Context, c *Client) {
	for i := 0; i < 3; i++ { // want `delay=exponential\+jitter`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(delays.Jitter(delays.Exp(i)))
	}
}

// Growth in another package, without jitter.
func growthAcross(ctx context.Context, c *Client) {
	for i := 0; i < 3; i++ { // want `delay=exponential( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(delays.Exp(i))
	}
}

// A random pick of the next address is no jitter of the wait.
func randomAddress(ctx context.Context, cs []*Client) {
	for i := 0; i < 3; i++ { // want `delay=fixed( |$)`
		c := cs[(rand.Int()+i)%len(cs)]
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// ---- 2: fixed only when the duration does not change -------------------------

type policy struct{ cur time.Duration }

func (p *policy) Next() time.Duration { p.cur *= 2; return p.cur }

// The policy decides: unclassified.
func policyNext(ctx context.Context, c *Client, p *policy) {
	for i := 0; i < 3; i++ { // want `delay=yes( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(p.Next())
	}
}

// A parameter does not change between attempts: fixed.
func paramWait(ctx context.Context, c *Client, d time.Duration) {
	for i := 0; i < 3; i++ { // want `delay=fixed( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(d)
	}
}

// A schedule indexed by the attempt changes with it.
func schedule(ctx context.Context, c *Client, waits [3]time.Duration) {
	for i := 0; i < 3; i++ { // want `delay=exponential( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(waits[i])
	}
}

// ---- 3: growth however it is written -----------------------------------------

func halfAgain(ctx context.Context, c *Client) {
	d := 100 * time.Millisecond
	for i := 0; i < 5; i++ { // want `delay=exponential( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(d)
		d += d / 2
	}
}

func capped(ctx context.Context, c *Client) {
	d := 100 * time.Millisecond
	for i := 0; i < 5; i++ { // want `delay=exponential( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(d)
		d = min(d*2, 5*time.Second)
	}
}

func calcDelay(try int) time.Duration { return time.Duration(1<<try) * time.Millisecond }

func grownInCallee(ctx context.Context, c *Client) {
	for try := 0; try < 5; try++ { // want `delay=exponential( |$)`
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(calcDelay(try))
	}
}

// A shift that is no part of the wait does not make it grow.
func shiftElsewhere(ctx context.Context, c *Client, flags int) {
	for i := 0; i < 5; i++ { // want `delay=fixed( |$)`
		flags |= 1 << i
		if c.Get(ctx) == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// ---- 5: selects ---------------------------------------------------------------

// A select on time.After of a constant is a fixed wait.
func selectAfter(ctx context.Context, c *Client) error {
	for { // want `delay=fixed( |$)`
		if c.Get(ctx) == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// A non-blocking look at the context is no wait: a hot loop.
func hotLoop(ctx context.Context, c *Client) error {
	for { // want `delay=none`
		if c.Get(ctx) == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
	}
}

// ---- timers other than time's --------------------------------------------------

type timer interface {
	Start(d time.Duration)
	C() <-chan time.Time
}

type clock interface {
	After(d time.Duration) <-chan time.Time
}

// A timer interface started with the policy's wait: cenkalti v5's loop.
func timerStart(ctx context.Context, c *Client, t timer) error {
	b := backoff.NewExponentialBackOff()
	for { // want `delay=exponential\+jitter`
		if c.Get(ctx) == nil {
			return nil
		}
		t.Start(b.NextBackOff())
		select {
		case <-t.C():
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// A clock's After of a constant.
func clockAfter(ctx context.Context, c *Client, k clock) error {
	for { // want `delay=fixed( |$)`
		if c.Get(ctx) == nil {
			return nil
		}
		select {
		case <-k.After(time.Second):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// newTimer makes a timer of d and its cancel.
func newTimer(d time.Duration) (*time.Timer, func()) {
	t := time.NewTimer(d)
	return t, func() { t.Stop() }
}

// A timer made by a function of a duration that grows with the attempt.
func timerOfCall(ctx context.Context, c *Client) error {
	for i := 0; i < 5; i++ { // want `delay=exponential( |$)`
		if c.Get(ctx) == nil {
			return nil
		}
		t, cancel := newTimer(time.Duration(1<<i) * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			cancel()
			return ctx.Err()
		}
	}
	return nil
}

// Another timer's Start says nothing of the one waited on.
func otherTimer(ctx context.Context, c *Client, t1, t2 timer) error {
	for { // want `delay=yes( |$)`
		if c.Get(ctx) == nil {
			return nil
		}
		t1.Start(time.Second)
		select {
		case <-t2.C():
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

type retryOpts struct {
	backoff func(attempt int) time.Duration
}

// waitBackoff waits for a duration it works out itself.
func waitBackoff(ctx context.Context, attempt int, o *retryOpts) error {
	t := time.NewTimer(o.backoff(attempt))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// A function of the package that waits for a duration of its own is a
// wait the analysis does not classify.
func computedWaitHelper(ctx context.Context, c *Client, o *retryOpts) error {
	for i := 0; i < 3; i++ { // want `delay=yes`
		if c.Get(ctx) == nil {
			return nil
		}
		if err := waitBackoff(ctx, i, o); err != nil {
			return err
		}
	}
	return nil
}

// record waits only in a goroutine it starts: no wait between attempts.
func record(ctx context.Context, attempt int) error {
	go func() { time.Sleep(time.Second) }()
	return nil
}

func noWaitInside(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ { // want `delay=none`
		if c.Get(ctx) == nil {
			return nil
		}
		if err := record(ctx, i); err != nil {
			return err
		}
	}
	return nil
}
