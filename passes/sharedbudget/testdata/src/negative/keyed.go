package negative

import (
	"context"

	"github.com/retrylint/retrylint/budget"
)

// Registries keyed by the dependency.
var registry = budget.NewRegistry()

type Keyed struct {
	inventory *Inventory
	payments  *Payments
	budgets   map[string]*budget.Budget
}

func (k *Keyed) call(ctx context.Context, dep string, f func(context.Context) error) error {
	for {
		err := f(ctx)
		if err == nil || !registry.For(dep).TryRetry() {
			return err
		}
	}
}

func (k *Keyed) reserve(ctx context.Context) error {
	host := "inventory"
	for {
		err := k.inventory.Reserve(ctx)
		if err == nil || !k.budgets[host].TryRetry() {
			return err
		}
	}
}

func (k *Keyed) charge(ctx context.Context, dep string) error {
	for {
		err := k.payments.Charge(ctx)
		if err == nil || !k.budgets[dep].TryRetry() {
			return err
		}
	}
}

// Constant keys, one per dependency.
func (k *Keyed) reserveConst(ctx context.Context) error {
	for {
		err := k.inventory.Reserve(ctx)
		if err == nil || !registry.For("inventory").TryRetry() {
			return err
		}
	}
}

func (k *Keyed) chargeConst(ctx context.Context) error {
	for {
		err := k.payments.Charge(ctx)
		if err == nil || !registry.For("payments").TryRetry() {
			return err
		}
	}
}

func (k *Keyed) chargeVarKey(ctx context.Context) error {
	name := "payments"
	name += "-v2"
	for {
		err := k.payments.Charge(ctx)
		if err == nil || !registry.For(name).TryRetry() {
			return err
		}
	}
}
