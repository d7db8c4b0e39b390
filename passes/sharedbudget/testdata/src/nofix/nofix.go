package nofix

import (
	"context"

	"github.com/retrylint/retrylint/budget"
)

type Inventory struct{}

func (i *Inventory) Reserve(ctx context.Context) error { return nil }

type Payments struct{}

func (p *Payments) Charge(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	payments  *Payments
}

// Exported: other packages may use it.
var DefaultBudget = budget.New() // want `retry budget DefaultBudget guards retries to inventory and payments`

func (s *Service) reserve(ctx context.Context) error {
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !DefaultBudget.TryRetry() {
			return err
		}
	}
}

func (s *Service) charge(ctx context.Context) error {
	for {
		if err := s.payments.Charge(ctx); err == nil || !DefaultBudget.TryRetry() {
			return err
		}
	}
}

// The deposit serves both dependencies.
var both = budget.New() // want `retry budget both guards retries to inventory and payments`

func (s *Service) handle(ctx context.Context) error {
	both.OnRequest()
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !both.TryRetry() {
			break
		}
	}
	for {
		if err := s.payments.Charge(ctx); err == nil || !both.TryRetry() {
			return err
		}
	}
}

// A use whose dependency is unknown.
var some = budget.New() // want `retry budget some guards retries to inventory and payments`

func (s *Service) reserveSome(ctx context.Context) error {
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !some.TryRetry() {
			return err
		}
	}
}

func (s *Service) chargeSome(ctx context.Context) error {
	for {
		if err := s.payments.Charge(ctx); err == nil || !some.TryRetry() {
			return err
		}
	}
}

func (s *Service) self(ctx context.Context) error {
	for {
		if err := s.reserveAndCharge(ctx); err == nil || !some.TryRetry() {
			return err
		}
	}
}

// reserveAndCharge reaches two dependencies: its callers' is unknown.
func (s *Service) reserveAndCharge(ctx context.Context) error {
	if err := s.inventory.Reserve(ctx); err != nil {
		return err
	}
	return s.payments.Charge(ctx)
}

// Written without keys somewhere: a new field would break the literal.
type Unkeyed struct {
	inventory *Inventory
	payments  *Payments
	b         *budget.Budget // want `retry budget Unkeyed.b guards retries to inventory and payments`
}

var _ = Unkeyed{&Inventory{}, &Payments{}, budget.New()}

func (u *Unkeyed) reserve(ctx context.Context) error {
	for {
		if err := u.inventory.Reserve(ctx); err == nil || !u.b.TryRetry() {
			return err
		}
	}
}

func (u *Unkeyed) charge(ctx context.Context) error {
	for {
		if err := u.payments.Charge(ctx); err == nil || !u.b.TryRetry() {
			return err
		}
	}
}

// Initialised from a parameter: two fields would hold the same budget.
type Given struct {
	inventory *Inventory
	payments  *Payments
	b         *budget.Budget // want `retry budget Given.b guards retries to inventory and payments`
}

func newGiven(b *budget.Budget) *Given { return &Given{b: b} }

func (g *Given) reserve(ctx context.Context) error {
	for {
		if err := g.inventory.Reserve(ctx); err == nil || !g.b.TryRetry() {
			return err
		}
	}
}

func (g *Given) charge(ctx context.Context) error {
	for {
		if err := g.payments.Charge(ctx); err == nil || !g.b.TryRetry() {
			return err
		}
	}
}

// A map entry with a constant key: the map may hold no other key.
type Mapped struct {
	inventory *Inventory
	payments  *Payments
	budgets   map[string]*budget.Budget
}

func (m *Mapped) reserve(ctx context.Context) error {
	for {
		if err := m.inventory.Reserve(ctx); err == nil || !m.budgets["all"].TryRetry() { // want `retry budget Mapped.budgets\["all"\] guards retries to inventory and payments`
			return err
		}
	}
}

func (m *Mapped) charge(ctx context.Context) error {
	for {
		if err := m.payments.Charge(ctx); err == nil || !m.budgets["all"].TryRetry() {
			return err
		}
	}
}

// Used in two files.
var split = budget.New() // want `retry budget split guards retries to inventory and payments`

func (s *Service) reserveSplit(ctx context.Context) error {
	for {
		if err := s.inventory.Reserve(ctx); err == nil || !split.TryRetry() {
			return err
		}
	}
}
