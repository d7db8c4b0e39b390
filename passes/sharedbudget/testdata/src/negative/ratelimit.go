package negative

import (
	"context"
	"errors"
	"time"

	"golang.org/x/time/rate"
)

// One rate limiter for all outgoing calls is a client-side quota, not a
// retry budget: it is asked before every attempt, the first included.
var quota = rate.NewLimiter(rate.Every(time.Millisecond), 100)

type Limited struct {
	inventory *Inventory
	payments  *Payments
	lim       *rate.Limiter
}

func (l *Limited) reserve(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := quota.Wait(ctx); err != nil {
			return err
		}
		if err := l.inventory.Reserve(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (l *Limited) charge(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		quota.Wait(ctx)
		if err := l.payments.Charge(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// In the loop condition: asked before the first attempt.
func (l *Limited) reserveCond(ctx context.Context) error {
	for i := 0; i < 3 && l.lim.Allow(); i++ {
		if err := l.inventory.Reserve(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (l *Limited) chargeCond(ctx context.Context) error {
	for l.lim.Allow() {
		if err := l.payments.Charge(ctx); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
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
