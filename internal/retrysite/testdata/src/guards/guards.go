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
