package negative

import (
	"context"
	"errors"

	"github.com/retrylint/retrylint/budget"
)

// One budget per dependency.
var (
	reserveBudget = budget.New()
	chargeBudget  = budget.New()
)

type PerDep struct {
	inventory       *Inventory
	payments        *Payments
	inventoryBudget *budget.Budget
	paymentsBudget  *budget.Budget
}

func (p *PerDep) reserve(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := p.inventory.Reserve(ctx); err == nil || !p.inventoryBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (p *PerDep) charge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := p.payments.Charge(ctx); err == nil || !p.paymentsBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (p *PerDep) reserveVar(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := p.inventory.Reserve(ctx); err == nil || !reserveBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func (p *PerDep) chargeVar(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := p.payments.Charge(ctx); err == nil || !chargeBudget.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}
