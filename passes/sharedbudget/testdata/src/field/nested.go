package field

import (
	"context"

	"github.com/retrylint/retrylint/budget"
)

// Dependencies kept in a struct of the package's own: each field is one.
type Deps struct {
	inventory *Inventory
	payments  *Payments
}

type Handler struct {
	deps Deps
}

var handlerBudget = budget.New() // want `retry budget handlerBudget guards retries to inventory and payments`

func (h *Handler) reserve(ctx context.Context) error {
	for {
		if err := h.deps.inventory.Reserve(ctx); err == nil || !handlerBudget.TryRetry() {
			return err
		}
	}
}

func (h *Handler) charge(ctx context.Context) error {
	for {
		if err := h.deps.payments.Charge(ctx); err == nil || !handlerBudget.TryRetry() {
			return err
		}
	}
}
