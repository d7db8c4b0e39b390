package negative

import (
	"context"
	"errors"
	"time"

	"golang.org/x/time/rate"
)

// A limiter asked before the loop limits the first attempt only: no
// retry is guarded by it, so it is no shared retry budget.

type Limited struct {
	inventory *Inventory
	payments  *Payments
	lim       *rate.Limiter
}

// Before the loop: the first attempt only.
func (l *Limited) reserveOnce(ctx context.Context) error {
	if !l.lim.Allow() {
		return errors.New("rate limited")
	}
	for i := 0; i < 3; i++ {
		if err := l.inventory.Reserve(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (l *Limited) chargeOnce(ctx context.Context) error {
	if !l.lim.Allow() {
		return errors.New("rate limited")
	}
	for i := 0; i < 3; i++ {
		if err := l.payments.Charge(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
