package pkgvar

import (
	"context"

	"github.com/retrylint/retrylint/budget"
)

// Two package variables are two dependencies.
var (
	inventoryClient = &Inventory{}
	paymentsClient  = &Payments{}
)

type Inventory struct{}

func (i *Inventory) Get(ctx context.Context) error { return nil }

var clientBudget = budget.New() // want `retry budget clientBudget guards retries to inventoryClient and paymentsClient`

func getInventory(ctx context.Context) error {
	for {
		if err := inventoryClient.Get(ctx); err == nil || !clientBudget.TryRetry() {
			return err
		}
	}
}

func getPayments(ctx context.Context) error {
	for {
		if err := paymentsClient.Charge(ctx, 1); err == nil || !clientBudget.TryRetry() {
			return err
		}
	}
}
