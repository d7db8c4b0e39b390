package fixfield

import (
	"context"
	"errors"

	"github.com/retrylint/retrylint/budget"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
	budget    *budget.Budget // want `retry budget Service.budget guards retries to inventory and payments`
}

func NewService() *Service {
	return &Service{
		inventory: &Inventory{},
		payments:  &Payments{},
		budget:    budget.New(),
	}
}

func (s *Service) reserve(ctx context.Context) error {
	s.budget.OnRequest()
	for i := 0; i < 3; i++ {
		if err := s.inventory.Reserve(ctx); err == nil || !s.budget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (s *Service) charge(ctx context.Context) error {
	b := s.budget
	b.OnRequest()
	for i := 0; i < 3; i++ {
		if err := s.payments.Charge(ctx); err == nil || !b.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

// Initialised by an assignment.
type Worker struct {
	inventory *Inventory
	payments  *Payments
	retries   *budget.Budget // want `retry budget Worker.retries guards retries to inventory and payments`
}

func newWorker() *Worker {
	w := &Worker{inventory: &Inventory{}, payments: &Payments{}}
	w.retries = budget.New(budget.Cap(20))
	return w
}

func (w *Worker) reserve(ctx context.Context) error {
	for {
		if err := w.inventory.Reserve(ctx); err == nil || !w.retries.TryRetry() {
			return err
		}
	}
}

func (w *Worker) charge(ctx context.Context) error {
	for {
		if err := w.payments.Charge(ctx); err == nil || !w.retries.TryRetry() {
			return err
		}
	}
}

// Initialised in a one-line literal.
type Small struct {
	inventory *Inventory
	payments  *Payments
	b         *budget.Budget // want `retry budget Small.b guards retries to inventory and payments`
}

func newSmall() *Small { return &Small{b: budget.New(), inventory: &Inventory{}} }

func (s *Small) reserve(ctx context.Context) error {
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !s.b.TryRetry() {
			return err
		}
	}
}

func (s *Small) charge(ctx context.Context) error {
	for {
		if err := s.payments.Charge(ctx); err == nil || !s.b.TryRetry() {
			return err
		}
	}
}
