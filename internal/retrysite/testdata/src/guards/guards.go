package guards

import (
	"context"
	"errors"
	"time"

	"github.com/retrylint/retrylint/budget"
	"github.com/sony/gobreaker"
	"golang.org/x/time/rate"
)

type Client struct{}

func (c *Client) Call(ctx context.Context) error { return nil }
func (c *Client) reload()                        {}

type tokens struct{}

func (t *tokens) TryWithdraw() bool { return true }
func (t *tokens) Take() (ok bool)   { return true } // named result still a verdict

type counter struct{}

func (c *counter) Take() int { return 0 } // not a verdict

type Service struct {
	c       *Client
	b       *budget.Budget
	lim     *rate.Limiter
	cb      *gobreaker.CircuitBreaker
	tok     *tokens
	counter *counter
}

func (s *Service) budgetGuard(ctx context.Context) error {
	s.b.OnRequest()
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.b.TryRetry`
		err := s.c.Call(ctx)
		if err == nil {
			return nil
		}
		if !s.b.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// The budget asked only when another attempt follows: after the last
// attempt the header ends the loop, so every retry is guarded. Each form
// of the test that says whether another attempt follows counts.
func (s *Service) guardBeforeNext(ctx context.Context, n int) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.b.TryRetry`
		err := s.c.Call(ctx)
		if err == nil {
			return nil
		}
		if i+1 < 3 && !s.b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	for attempt := 1; attempt <= n; attempt++ { // want `loop \[n attempts\] guard=s.b.TryRetry`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if attempt == n {
			break
		}
		if !s.b.TryRetry() {
			break
		}
	}
	for i := 0; i < n; i++ { // want `loop \[n attempts\] guard=s.b.TryRetry`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if i < n-1 {
			if !s.b.TryRetry() {
				break
			}
			time.Sleep(time.Second)
		}
	}
	// A range over an integer: its key is the counter, the range its bound.
	for i := range 3 { // want `loop \[3 attempts\] guard=s.b.TryRetry`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if i+1 < 3 && !s.b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	for i := range n { // want `loop \[n attempts\] guard=s.b.TryRetry`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if i == n-1 {
			break
		}
		if !s.b.TryRetry() {
			break
		}
	}
	return errors.New("gave up")
}

// Look-alikes: the test is not the header's bound, so a failure of an
// attempt that is not the last can skip the budget.
func (s *Service) guardBeforeOther(ctx context.Context, n, m int) error {
	for i := 0; i < n; i++ { // want `loop \[n attempts\] delay=fixed dep=c$`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if i+1 < m && !s.b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=fixed dep=c$`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if i+1 < 2 && !s.b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	// A range whose bound the test does not read, and one whose key is
	// not the test's counter.
	for i := range n { // want `loop \[n attempts\] delay=fixed dep=c$`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if i+1 < m && !s.b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	j := 0
	for range 3 { // want `loop \[3 attempts\] delay=fixed dep=c$`
		if s.c.Call(ctx) == nil {
			return nil
		}
		if j+1 < 3 && !s.b.TryRetry() {
			break
		}
		time.Sleep(time.Second)
	}
	_ = j
	return errors.New("gave up")
}

func (s *Service) limiter(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.lim.Wait`
		if err := s.lim.Wait(ctx); err != nil {
			return err
		}
		if err := s.c.Call(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (s *Service) breaker(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.cb.Execute`
		_, err := s.cb.Execute(func() (interface{}, error) { return nil, s.c.Call(ctx) })
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) ownType(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.tok.TryWithdraw`
		if err := s.c.Call(ctx); err == nil || !s.tok.TryWithdraw() {
			return err
		}
	}
	return nil
}

// allowRetry wraps the budget: a function that returns its verdict.
func (s *Service) allowRetry() bool {
	return s.tok.Take()
}

func (s *Service) wrapped(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.allowRetry`
		if err := s.c.Call(ctx); err == nil || !s.allowRetry() {
			return err
		}
	}
	return nil
}

// Take with an int result is not a budget's verdict.
func (s *Service) notAGuard(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=none`
		_ = s.counter.Take()
		if err := s.c.Call(ctx); err == nil {
			return nil
		}
	}
	return nil
}

// ---- A guard counts only on the paths that ask it ----

// Throttle is a budget that a retrier may be given.
type Throttle interface {
	AllowRetry(n uint, err error) bool
}

// Retrier asks its throttle only when it was configured with one: nil by
// default, so the retries are unbudgeted unless someone sets it.
type Retrier struct {
	c        *Client
	throttle Throttle
}

func (r *Retrier) throttledIfSet(ctx context.Context) error {
	var err error
	for n := uint(0); n < 10; n++ { // want `loop \[10 attempts\] delay=fixed`
		if err = r.c.Call(ctx); err == nil {
			return nil
		}
		if r.throttle != nil && !r.throttle.AllowRetry(n, err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alike: a nil throttle stops the retrying, so every retry asked one.
func (r *Retrier) throttledOrStop(ctx context.Context) error {
	var err error
	for n := uint(0); n < 10; n++ { // want `loop \[10 attempts\] guard=r.throttle.AllowRetry delay=fixed`
		if err = r.c.Call(ctx); err == nil {
			return nil
		}
		if r.throttle == nil || !r.throttle.AllowRetry(n, err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

var shared = &tokens{}

// Look-alike: a package-level budget asked on every failing path.
func (r *Retrier) packageBudget(ctx context.Context) error {
	var err error
	for n := 0; n < 10; n++ { // want `loop \[10 attempts\] guard=shared.TryWithdraw delay=fixed`
		if err = r.c.Call(ctx); err == nil {
			return nil
		}
		if !shared.TryWithdraw() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// The same throttle behind a nil test of its own, then asked: budgeted.
func (r *Retrier) throttledElseStop(ctx context.Context) error {
	var err error
	for n := uint(0); n < 10; n++ { // want `loop \[10 attempts\] guard=r.throttle.AllowRetry delay=fixed`
		if err = r.c.Call(ctx); err == nil {
			return nil
		}
		if r.throttle == nil {
			return err
		}
		if !r.throttle.AllowRetry(n, err) {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// ---- A guard counts only when its refusal stops the retrying ----

// The refusal only skips the wait: the next attempt comes anyway.
func (s *Service) refusalSkipsWait(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=`
		if err = s.c.Call(ctx); err == nil {
			return nil
		}
		if s.tok.TryWithdraw() {
			time.Sleep(time.Second)
		}
	}
	return err
}

// The refusal is counted and ignored.
func (s *Service) refusalIgnored(ctx context.Context) error {
	var err error
	logged := 0
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=`
		if err = s.c.Call(ctx); err == nil {
			return nil
		}
		if !s.tok.TryWithdraw() {
			logged++
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alike: the allowed side goes round, the refusal returns.
func (s *Service) allowedGoesRound(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.tok.TryWithdraw`
		if err = s.c.Call(ctx); err == nil {
			return nil
		}
		if s.tok.TryWithdraw() {
			time.Sleep(time.Second)
			continue
		}
		return err
	}
	return err
}

// The answer kept in a variable and ignored.
func (s *Service) verdictIgnored(ctx context.Context) error {
	var err error
	refused := 0
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=`
		if err = s.c.Call(ctx); err == nil {
			return nil
		}
		ok := s.tok.TryWithdraw()
		if !ok {
			refused++
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alike: the answer kept in a variable, and a refusal returns.
func (s *Service) verdictKept(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.tok.TryWithdraw`
		if err = s.c.Call(ctx); err == nil {
			return nil
		}
		ok := s.tok.TryWithdraw()
		if !ok {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

// A limiter's refusal logged, and the retrying goes on.
func (s *Service) waitIgnored(ctx context.Context) error {
	var err error
	refused := 0
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=`
		if err = s.c.Call(ctx); err == nil {
			return nil
		}
		if werr := s.lim.Wait(ctx); werr != nil {
			refused++
		}
	}
	return err
}

// Look-alike: a limiter's refusal returns.
func (s *Service) waitRefusalReturns(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.lim.Wait`
		if err = s.c.Call(ctx); err == nil {
			return nil
		}
		if s.lim.Wait(ctx) != nil {
			return err
		}
	}
	return err
}

// The attempt and the check in one condition: the check is asked after
// each failure, and its refusal returns.
func (s *Service) inAttemptCond(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] guard=s.tok.TryWithdraw`
		if s.c.Call(ctx) == nil || !s.tok.TryWithdraw() {
			return errors.New("done")
		}
	}
	return nil
}

// A flag the first iteration sets tells a retry from the first attempt,
// where the counter cannot (the body moves it): guarded.
func (s *Service) flagGuard(ctx context.Context, start, n int) error {
	retrying := false
	for i := start; i < n; i++ { // want `loop \[n attempts\] guard=s.b.TryRetry`
		if retrying && !s.b.TryRetry() {
			break
		}
		retrying = true
		err := s.c.Call(ctx)
		if err == nil {
			return nil
		}
		if errors.Is(err, context.DeadlineExceeded) {
			start = i
			continue
		}
	}
	return errors.New("gave up")
}

// Look-alike: the flag is cleared before every attempt, so the budget is
// never asked: unguarded.
func (s *Service) flagCleared(ctx context.Context, n int) error {
	retrying := false
	for i := 0; i < n; i++ { // want `loop \[n attempts\] delay=none`
		if retrying && !s.b.TryRetry() {
			break
		}
		retrying = false
		if err := s.c.Call(ctx); err == nil {
			return nil
		}
		retrying = true
		retrying = false
	}
	return errors.New("gave up")
}

var (
	errMoved    = errors.New("moved")
	errAsk      = errors.New("ask")
	errReadOnly = errors.New("read only")
	errLoading  = errors.New("loading")
	errClosed   = errors.New("closed")
	errBusy     = errors.New("busy")
)

// A guard asked from the second attempt on, at the top of a body with
// many ways round: the paths that reach the head are too many to keep
// what every variable holds, but the counter is kept, so each retry is
// seen to ask the budget: guarded.
func (s *Service) manyWaysGuard(ctx context.Context, n int) error {
	var moved, ask, readOnly, loading, fresh, closed, busy bool
	var err error
	for attempt := 0; attempt <= n; attempt++ { // want `loop \[n\+1 attempts\] guard=s.b.TryRetry`
		if readOnly || loading || closed || busy || fresh {
			s.c.reload()
		}
		if attempt > 0 && !s.b.TryRetry() {
			break
		}
		if attempt > 0 && !moved && !ask {
			time.Sleep(time.Second)
		}
		if ask {
			ask = false
			err = s.c.Call(ctx)
		} else {
			err = s.c.Call(ctx)
		}
		if err == nil {
			return nil
		}
		switch {
		case errors.Is(err, errReadOnly):
			readOnly = true
		case errors.Is(err, errLoading):
			loading = true
		case errors.Is(err, context.DeadlineExceeded):
			fresh = true
		case errors.Is(err, errMoved):
			moved = true
		case errors.Is(err, errAsk):
			ask = true
		case errors.Is(err, errClosed):
			closed = true
		case errors.Is(err, errBusy):
			busy = true
		default:
			return err
		}
	}
	return err
}

// Look-alike: the same body, but the budget is asked only from the third
// attempt on, so the second goes unasked: unguarded.
func (s *Service) manyWaysLate(ctx context.Context, n int) error {
	var moved, ask, readOnly, loading, fresh, closed, busy bool
	var err error
	for attempt := 0; attempt <= n; attempt++ { // want `loop \[n\+1 attempts\] delay=`
		if readOnly || loading || closed || busy || fresh {
			s.c.reload()
		}
		if attempt > 1 && !s.b.TryRetry() {
			break
		}
		if attempt > 0 && !moved && !ask {
			time.Sleep(time.Second)
		}
		if ask {
			ask = false
			err = s.c.Call(ctx)
		} else {
			err = s.c.Call(ctx)
		}
		if err == nil {
			return nil
		}
		switch {
		case errors.Is(err, errReadOnly):
			readOnly = true
		case errors.Is(err, errLoading):
			loading = true
		case errors.Is(err, context.DeadlineExceeded):
			fresh = true
		case errors.Is(err, errMoved):
			moved = true
		case errors.Is(err, errAsk):
			ask = true
		case errors.Is(err, errClosed):
			closed = true
		case errors.Is(err, errBusy):
			busy = true
		default:
			return err
		}
	}
	return err
}
