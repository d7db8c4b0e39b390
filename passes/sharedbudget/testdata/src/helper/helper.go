package helper

import (
	"context"

	"example.com/inventory"
	"example.com/payments"
	"example.com/retryhelp"
	"github.com/retrylint/retrylint/budget"
)

type Orders struct{}

func (o *Orders) Get(ctx context.Context) error { return nil }

type Service struct {
	orders *Orders
	b      *budget.Budget // want `retry budget Service.b guards retries to orders and payments`
}

var common = budget.New() // want `retry budget common guards retries to inventory and orders`

// retryWith is a retry helper of this package: it takes a budget and an
// operation.
func retryWith(b *budget.Budget, op func() error) error {
	for {
		err := op()
		if err == nil || !b.TryRetry() {
			return err
		}
	}
}

func (s *Service) local(ctx context.Context) {
	retryWith(common, func() error { return inventory.Reserve(ctx, "x") })
	retryWith(common, func() error { return s.orders.Get(ctx) })
}

// The helper lives in another package: its budget parameter is known
// through a fact.
func (s *Service) imported(ctx context.Context) {
	retryhelp.Do(ctx, s.b, func(ctx context.Context) error { return s.orders.Get(ctx) })
	retryhelp.Do(ctx, s.b, func(ctx context.Context) error { return payments.Charge(ctx, 100) })
}

// An operation passed as a method value.
func (s *Service) methodValue(ctx context.Context) {
	retryhelp.Do(ctx, s.b, s.orders.Get)
}
