package perdep

import (
	"context"
	"time"
)

// Warehouse has an inventory too: another dependency of the same name,
// so the two budgets are told apart by their owner's type.
type Warehouse struct{ inventory Store }

func (w *Warehouse) Restock(ctx context.Context, item string) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = w.inventory.Put(ctx, item); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Payments again, in another file: the same budget as Charge's, declared
// once.
func (s *Shop) Refund(ctx context.Context, amount string) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = s.payments.Put(ctx, "-"+amount); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}
