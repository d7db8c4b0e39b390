package loops

import (
	"context"
	"errors"
	"net/http"
	"syscall"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

type Service struct{ orders *Client }

func (s *Service) counted(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `retry loop makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load`
		if err := s.orders.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) variable(ctx context.Context, n int) error {
	for i := 0; i < n; i++ { // want `retry loop makes up to n attempts with no retry budget: a failing dependency gets that many times its load`
		if err := s.orders.Get(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (s *Service) untilDone(ctx context.Context) error {
	for { // want `retry loop is bounded only by time \(the context or a deadline\), with no retry budget`
		err := s.orders.Get(ctx)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

// The context's own error, read in the init of the exit's if or just
// before it, bounds the loop by time.
func (s *Service) untilCanceled(ctx context.Context) error {
	for { // want `retry loop is bounded only by time \(the context or a deadline\), with no retry budget`
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := s.orders.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

func (s *Service) untilCanceledBefore(ctx context.Context) error {
	for { // want `retry loop is bounded only by time \(the context or a deadline\), with no retry budget`
		done := ctx.Err()
		if done != nil {
			return done
		}
		if err := s.orders.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Its look-alike: an error read in the init that is not the context's
// is no time bound.
func (s *Service) untilReady(ctx context.Context, ready func() error) error {
	for { // want `retry loop retries without bound`
		if err := ready(); err != nil {
			return err
		}
		if err := s.orders.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
}

func forever(c *http.Client, req *http.Request) *http.Response {
	for { // want `retry loop retries without bound and with no retry budget: a failing dependency gets unbounded load`
		resp, err := c.Do(req)
		if err == nil {
			return resp
		}
		time.Sleep(time.Second)
	}
}

// Test files and startup code are judged like any other code.
func init() {
	c := &Client{}
	for i := 0; i < 10; i++ { // want `up to 10 attempts`
		if c.Get(context.Background()) == nil {
			break
		}
	}
	for i := 0; i < 10; i++ { // want `up to 10 attempts`
		if err := c.Get(context.Background()); err == nil {
			break
		}
	}
}

// A directive without a reason, or for another pass, silences nothing.
func notSuppressed(c *Client) {
	//lint:ignore fixedattempts
	for i := 0; i < 5; i++ { // want `up to 5 attempts`
		if c.Get(context.Background()) == nil {
			break
		}
	}
	//lint:ignore sharedbudget reasons of its own
	for i := 0; i < 5; i++ { // want `up to 5 attempts`
		if c.Get(context.Background()) == nil {
			break
		}
	}
}

// A budget made for the call bounds one request, not the fleet's retries:
// it is no budget (docs/design.md, Budgets).
type attempts struct{ left int }

func (a *attempts) TryRetry() bool { a.left--; return a.left >= 0 }

func perRequestCounter(ctx context.Context, c *Client) error {
	tries := &attempts{left: 2}
	for { // want `retry loop makes as many attempts as tries.TryRetry allows, with no retry budget`
		err := c.Get(ctx)
		if err == nil || !tries.TryRetry() {
			return err
		}
	}
}

func isTransient(err error) bool { return err != nil }

// The look-alike of a conflict-only retry: a classifier of transient
// errors is no exemption.
func transientOnly(ctx context.Context, c *Client) error {
	for { // want `retry loop retries without bound`
		err := c.Get(ctx)
		if err == nil || !isTransient(err) {
			return err
		}
	}
}

var connect = func() error { return nil }

// Its look-alike: a refused connection is a failing dependency.
func refused() error {
	for { // want `retry loop retries without bound`
		err := connect()
		if err != syscall.ECONNREFUSED {
			return err
		}
		time.Sleep(time.Second)
	}
}

// A loop that stops on a state it does not count.
func untilFull(ctx context.Context, c *Client, items []string) error {
	for { // want `retry loop stops on a condition that does not count its attempts, with no retry budget`
		if err := c.Get(ctx); err == nil {
			return nil
		}
		if len(items) > 3 {
			return errors.New("full")
		}
		items = append(items, "x")
	}
}

type Broker struct{ c *Client }

type brokers struct{ live []*Broker }

func (b *brokers) leastLoaded() *Broker {
	if len(b.live) == 0 {
		return nil
	}
	return b.live[0]
}

func (b *brokers) drop() { b.live = b.live[1:] }

// Failover through the brokers a picker hands out, one attempt each.
func (b *brokers) refresh(ctx context.Context) error {
	for br := b.leastLoaded(); br != nil; br = b.leastLoaded() { // want `retry loop tries each endpoint b\.leastLoaded\(\) hands out in turn, with no retry budget: when all fail, one request makes one call per endpoint`
		if err := br.c.Get(ctx); err == nil {
			return nil
		}
		b.drop()
	}
	return errors.New("out of brokers")
}

// Error is a package's own error interface: its nil is success, as
// error's is.
type Error interface {
	error
	Code() int
}

func (s *Service) info() (string, Error) { return "", nil }

func (s *Service) infoWithRetry(n int) (res string, err Error) {
	for i := 0; i < n; i++ { // want `retry loop makes up to n attempts with no retry budget`
		if res, err = s.info(); err == nil {
			return res, nil
		}
		time.Sleep(time.Second)
	}
	return "", err
}

// Result is an answer, no error: it has methods but no Error.
type Result interface {
	Code() int
}

func (s *Service) result() Result { return nil }

// Look-alike: it waits until the answer is gone. A Result is no error, so
// its nil is no success the loop leaves on.
func (s *Service) untilGone(n int) {
	for i := 0; i < n; i++ {
		if r := s.result(); r == nil {
			return
		}
		time.Sleep(time.Second)
	}
}

// A limit whose count starts again on the way round bounds nothing.
func (s *Service) restarted(ctx context.Context, progressed func() bool) error {
	attempts := 1
	for { // want `retry loop retries without bound \(attempts = 1 starts its count again\) and with no retry budget`
		err := s.orders.Get(ctx)
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

// So does the header's count, set back to where it starts.
func (s *Service) restartedHeader(ctx context.Context, progressed func() bool) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop retries without bound \(i = 0 starts its count again\) and with no retry budget`
		if err = s.orders.Get(ctx); err == nil {
			return nil
		}
		if progressed() {
			i = 0
		}
		time.Sleep(time.Second)
	}
	return err
}

// Look-alike: the count set past where it starts ends the retrying
// sooner; the header still bounds the attempts.
func (s *Service) givenUp(ctx context.Context, hopeless func() bool) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop makes up to 3 attempts with no retry budget`
		if err = s.orders.Get(ctx); err == nil {
			return nil
		}
		if hopeless() {
			i = 3
		}
		time.Sleep(time.Second)
	}
	return err
}
