package owntype

import (
	"context"
	"errors"
	"sync"
)

// tokens is the service's own retry budget.
type tokens struct {
	mu sync.Mutex
	n  float64
}

func (t *tokens) TryWithdraw() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.n < 1 {
		return false
	}
	t.n--
	return true
}

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
	retries   tokens // want `retry budget Service.retries guards retries to inventory and payments`
}

func (s *Service) reserve(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		// The check before the attempt runs only after a failure.
		if i > 0 && !s.retries.TryWithdraw() {
			return errors.New("retry budget exhausted")
		}
		if err := s.inventory.Reserve(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (s *Service) charge(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err != nil {
			if !s.retries.TryWithdraw() {
				return err
			}
		}
		if err = s.payments.Charge(ctx); err == nil {
			return nil
		}
	}
	return err
}
