package negative

import (
	"context"

	pkgerrors "example.com/errors"
	"github.com/retrylint/retrylint/budget"
)

// An error-wrapping package is no dependency: the wrapped call's
// dependency is not known here.
var wrapBudget = budget.New()

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
