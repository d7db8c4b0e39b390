package field

import (
	"context"

	pkgerrors "example.com/errors"
	"github.com/retrylint/retrylint/budget"
)

// An error-wrapping package is no dependency: the wrapped call is the
// attempt, so the budget serves inventory and payments.
var wrapBudget = budget.New() // want `retry budget wrapBudget guards retries to inventory and payments`

func (s *Service) wrapped(ctx context.Context) error {
	for {
		err := pkgerrors.Wrap(s.inventory.Reserve(ctx), "reserve")
		if err == nil || !wrapBudget.TryRetry() {
			return err
		}
	}
}

func (s *Service) plain(ctx context.Context) error {
	for {
		err := s.payments.Charge(ctx)
		if err == nil || !wrapBudget.TryRetry() {
			return err
		}
	}
}
