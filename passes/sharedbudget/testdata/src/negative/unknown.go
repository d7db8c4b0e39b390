package negative

import (
	"context"
	"net/http"

	"github.com/retrylint/retrylint/budget"
	"github.com/sony/gobreaker"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

var anyBudget = budget.New()

// The receiver is a parameter: each caller may pass another dependency.
func viaParam(ctx context.Context, c *Client) error {
	for {
		if err := c.Get(ctx); err == nil || !anyBudget.TryRetry() {
			return err
		}
	}
}

// An HTTP client whose URL is not known reaches any host.
func viaHTTP(ctx context.Context, url string) (*http.Response, error) {
	for {
		resp, err := http.Get(url)
		if err == nil || !anyBudget.TryRetry() {
			return resp, err
		}
	}
}

func viaClient(ctx context.Context, req *http.Request) (*http.Response, error) {
	for {
		resp, err := http.DefaultClient.Do(req)
		if err == nil || !anyBudget.TryRetry() {
			return resp, err
		}
	}
}

// A function of this package may call anything.
func local(ctx context.Context) error { return nil }

func viaLocal(ctx context.Context) error {
	for {
		if err := local(ctx); err == nil || !anyBudget.TryRetry() {
			return err
		}
	}
}

// The receiver itself: a method of the service calling its own helper,
// whose body reaches two dependencies, so no one of them.
func (s *Service) viaSelf(ctx context.Context) error {
	for {
		if err := s.reserveAndCharge(ctx); err == nil || !anyBudget.TryRetry() {
			return err
		}
	}
}

func (s *Service) reserveAndCharge(ctx context.Context) error {
	if err := s.inventory.Reserve(ctx); err != nil {
		return err
	}
	return s.payments.Charge(ctx)
}

// Sites whose attempts reach two dependencies tell nothing about either.
func (s *Service) both(ctx context.Context) error {
	return retryWith(anyBudget, func() error {
		if err := s.inventory.Reserve(ctx); err != nil {
			return err
		}
		return s.payments.Charge(ctx)
	})
}

// The one known dependency of anyBudget.
func (s *Service) known(ctx context.Context) error {
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !anyBudget.TryRetry() {
			return err
		}
	}
}

// A helper's own loop asks its parameter: the budget of each call.
func retryWith(b *budget.Budget, op func() error) error {
	for {
		err := op()
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}

// A budget made in place is per call.
func (s *Service) fresh(ctx context.Context) error {
	b := budget.New()
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !b.TryRetry() {
			return err
		}
	}
}

func (s *Service) fresh2(ctx context.Context) error {
	b := budget.New()
	for {
		if err := s.payments.Charge(ctx); err == nil || !b.TryRetry() {
			return err
		}
	}
}

// A reassigned local is not one budget.
func (s *Service) reassigned(ctx context.Context, other *budget.Budget) error {
	b := inventoryBudget
	if other != nil {
		b = other
	}
	for {
		if err := s.payments.Charge(ctx); err == nil || !b.TryRetry() {
			return err
		}
	}
}

// A circuit breaker shared by two dependencies is not a retry budget.
var breaker = gobreaker.NewCircuitBreaker(gobreaker.Settings{Name: "all"})

func (s *Service) broken(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		_, err := breaker.Execute(func() (interface{}, error) { return nil, s.inventory.Reserve(ctx) })
		if err == nil {
			return nil
		}
	}
	return nil
}

func (s *Service) broken2(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		_, err := breaker.Execute(func() (interface{}, error) { return nil, s.payments.Charge(ctx) })
		if err == nil {
			return nil
		}
	}
	return nil
}
