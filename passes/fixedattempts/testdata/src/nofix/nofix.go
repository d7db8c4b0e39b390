package nofix

import (
	"context"
	"time"
)

type Ledger struct{}

func (l *Ledger) Post(ctx context.Context) error { return nil }

// The package does not depend on the budget module: report, but offer no
// fix that would not build.
func post(ctx context.Context, ledger *Ledger) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = ledger.Post(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// A result that cannot be written as a zero value: no fix.
type result struct{ n int }

func get(ctx context.Context, ledger *Ledger) (*result, bool) {
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err := ledger.Post(ctx); err == nil {
			return &result{}, true
		}
	}
	return nil, false
}
