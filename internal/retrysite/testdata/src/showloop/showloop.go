// Package showloop holds the loop shapes whose facts the fixer and the
// passes read: where failing paths meet, what the next iteration holds,
// the guards, the waits and the exits that make the bound.
package showloop

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

type Client struct{}

func (c *Client) Call(ctx context.Context) error { return nil }

// The classic loop: the failing paths meet before the wait; the header
// ends the attempts.
func classic(ctx context.Context, c *Client) error {
	var err error
	for i := 0; i < 3; i++ { // want `attempt=c\.Call failures=error unguarded=error meet=before time\.Sleep\(time\.Second << i\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep growing header another-attempt-if=i\+1 < 3 \[3 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second << i)
	}
	return err
}

// The wait at the top of the body, asked from the second iteration on:
// the failing paths meet in the post statement, and only failures start
// the next iteration.
func waitAtTop(ctx context.Context, c *Client) error {
	var err error
	for i := 0; i < 3; i++ { // want `attempt=c\.Call failures=error unguarded=error meet=after if err == nil \{\.\.\. \(err=err\) meet=before if i > 0 \{\.\.\. \(err=err\) meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed header another-attempt-if=i\+1 < 3 \[3 attempts\]`
		if i > 0 {
			time.Sleep(time.Second)
		}
		err = c.Call(ctx)
		if err == nil {
			break
		}
	}
	return err
}

// The last attempt returns inside the failure path: the bound is made by
// the test of the counter there, not by the header.
func lastInside(ctx context.Context, c *Client, max int) error {
	for tries := 1; ; tries++ { // want `attempt=c\.Call failures=error unguarded=error meet=before if tries == max \{\.\.\. \(err=err\) meet=before time\.Sleep\(time\.Duration\(rand\.N\(1000\)\) \*\.\.\. \(err=err\) next=failures only \(err=err\) wait=time\.Sleep random exit=tries == max on yes \[max attempts\]`
		err := c.Call(ctx)
		if err == nil {
			break
		}
		if tries == max {
			return fmt.Errorf("after %d tries: %w", tries, err)
		}
		time.Sleep(time.Duration(rand.N(1000)) * time.Millisecond)
	}
	return nil
}

// The retryable statuses continue from a switch; a 5xx is a failure with
// a nil error.
func statusSwitch(c *http.Client) (*http.Response, error) {
	for i := 0; i < 4; i++ { // want `attempt=c\.Get failures=status unguarded=status meet=before resp\.Body\.Close\(\) \(nilonstatus=err,status\) next=failures only wait=time\.Sleep fixed header another-attempt-if=i\+1 < 4 \[4 attempts\]`
		resp, err := c.Get("https://inventory.example/items")
		if err != nil {
			return nil, err
		}
		switch resp.StatusCode {
		case http.StatusServiceUnavailable, http.StatusTooManyRequests:
			resp.Body.Close()
			time.Sleep(time.Second)
			continue
		}
		return resp, nil
	}
	return nil, errors.New("inventory unavailable")
}

// A counter that counts down: another attempt follows while r-1 > 0.
func countdown(ctx context.Context, c *Client) error {
	var err error
	for r := 3; r > 0; r-- { // want `attempt=c\.Call failures=error unguarded=error meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed exit=r > 0 on no header another-attempt-if=r-1 > 0 \[3 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Its guard asks only when another attempt follows: no failure goes
// unguarded, the last one needs none.
func countdownGuarded(ctx context.Context, c *Client, b *budget.Budget) error {
	var err error
	for r := 3; r >= 1; r-- { // want `attempt=c\.Call failures=error meet=before if r-1 >= 1 && !b\.TryRetry\(\) \{\.\.\. \(err=err\) meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) guard=b\.TryRetry \(on failure\) wait=time\.Sleep fixed exit=r >= 1 on no header another-attempt-if=r-1 >= 1 \[3 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		if r-1 >= 1 && !b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// Its look-alike asks only while two more attempts may follow: the
// failure before the last attempt goes round unguarded.
func countdownShort(ctx context.Context, c *Client, b *budget.Budget) error {
	var err error
	for r := 3; r > 0; r-- { // want `attempt=c\.Call failures=error unguarded=error meet=before if r-2 > 0 && !b\.TryRetry\(\) \{\.\.\. \(err=err\) meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) guard=b\.TryRetry \(on failure\) wait=time\.Sleep fixed exit=r > 0 on no header another-attempt-if=r-1 > 0 \[3 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		if r-2 > 0 && !b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// A guarded loop: the budget is asked after a failure, before the wait;
// no failure goes unguarded.
func guarded(ctx context.Context, c *Client, b *budget.Budget) error {
	var err error
	for i := 0; i < 3; i++ { // want `attempt=c\.Call failures=error meet=before if !b\.TryRetry\(\) \{\.\.\. \(err=err\) meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) guard=b\.TryRetry \(on failure\) wait=time\.Sleep fixed header another-attempt-if=i\+1 < 3 \[3 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		if !b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// A wait that cancellation interrupts, in a select: the wait is the
// timer's channel, the other clause leaves the loop.
func selectWait(ctx context.Context, c *Client) error {
	for attempt := 0; attempt < 5; attempt++ { // want `attempt=c\.Call failures=error unguarded=error meet=before select \{\.\.\. \(err=err\) meet=after select \{\.\.\. \(err=err\) next=failures only \(err=err\) wait=time\.After growing header another-attempt-if=attempt\+1 < 5 \[5 attempts\]`
		err := c.Call(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-time.After(100 * time.Millisecond * time.Duration(attempt+1)):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return errors.New("gave up")
}

// Retried until the deadline: the clock bounds the loop.
func untilDeadline(ctx context.Context, c *Client) error {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) { // want `attempt=c\.Call failures=error unguarded=error meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed exit=time\.Now\(\)\.Before\(deadline\) on no header \[time\-bounded\]`
		if err := c.Call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("timed out")
}

// Each iteration sends the next item: different work, not a retry, so
// there is no Loop.
func drain(ctx context.Context, c *Client, items []string) error {
	for range items {
		if err := c.Call(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Ranges over an integer: with a key, the header's test is the key's; with
// none, naming the key gives it; a count the body changes gives none.
func ranged(ctx context.Context, c *Client, n int) error {
	var err error
	for i := range 3 { // want `attempt=c\.Call failures=error unguarded=error meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed header another-attempt-if=i\+1 < 3 \[3 attempts\]`
		_ = i
		if err = c.Call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	for range n { // want `attempt=c\.Call failures=error unguarded=error meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed header keyed-by-k-another-attempt-if=k\+1 < n \[n attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	for range n { // want `attempt=c\.Call failures=error unguarded=error meet=before n-- \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed header \[n attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		n--
		time.Sleep(time.Second)
	}
	return err
}

// Policy decides whether another attempt follows the n-th.
type Policy interface{ Retry(n int) bool }

// A policy's verdict in one condition with the success test: its false
// branch is reached only by failing paths, so the point after it is the
// meeting point.
func policyExit(ctx context.Context, c *Client, p Policy) error {
	var err error
	for n := 1; ; n++ { // want `attempt=c\.Call failures=error unguarded=error meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed exit=!p\.Retry\(n\) on yes exit=!p\.Retry\(n\) on yes \[unknown bound\]`
		err = c.Call(ctx)
		if err == nil || !p.Retry(n) {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// The first attempt is made before the loop, which runs only after it
// failed: every iteration is a retry (primed), and the bound counts it.
func primed(ctx context.Context, c *Client) error {
	err := c.Call(ctx)
	for r := 0; err != nil && r < 3; r++ { // want `attempt=c\.Call failures=error unguarded=error next=failures only \(err=err\) wait=time\.Sleep fixed header primed=c\.Call \[4 attempts\]`
		time.Sleep(time.Second)
		err = c.Call(ctx)
	}
	return err
}

// Its look-alike: the same call before the loop, but the loop runs
// whatever it returned, so the body makes the first attempt of its own.
func notPrimed(ctx context.Context, c *Client) error {
	_ = c.Call(ctx)
	var err error
	for r := 0; r < 3; r++ { // want `attempt=c\.Call failures=error unguarded=error meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed header another-attempt-if=r\+1 < 3 \[3 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// The header counts the attempts, and a test of the body takes the last
// one out before the wait (attempt == max holds on the last attempt
// only): a last exit, which the fixer joins.
func lastOut(ctx context.Context, c *Client, max int) error {
	var err error
	for attempt := 0; attempt <= max; attempt++ { // want `attempt=c\.Call failures=error unguarded=error meet=before if attempt == max \{\.\.\. \(err=err\) meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed header last-exit=attempt == max on yes another-attempt-if=attempt\+1 <= max \[max\+1 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		if attempt == max {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// The look-alike: the test of the body holds on an attempt before the
// last (the second), so it is no last exit.
func secondOut(ctx context.Context, c *Client, max int) error {
	var err error
	for attempt := 0; attempt <= max; attempt++ { // want `attempt=c\.Call failures=error unguarded=error meet=before if attempt == 1 \{\.\.\. \(err=err\) meet=before time\.Sleep\(time\.Second\) \(err=err\) next=failures only \(err=err\) wait=time\.Sleep fixed header another-attempt-if=attempt\+1 <= max \[max\+1 attempts\]`
		if err = c.Call(ctx); err == nil {
			return nil
		}
		if attempt == 1 {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}
