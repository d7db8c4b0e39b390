package perdep

import (
	"context"
	"fmt"
	"time"
)

// KV is a store whose requests are built by a chain of calls.
type KV interface {
	Txn(ctx context.Context) Txn
}

// Txn is a request being built; Commit sends it.
type Txn interface {
	If(cmp string) Txn
	Commit() error
}

type Leases struct{ kv, locks KV }

// Each chain starts from a field of its own, so each loop gets its own
// budget (kvBudget, locksBudget), though both fields have one type.
func (l *Leases) Put(ctx context.Context, key string) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = l.kv.Txn(ctx).If(key).Commit(); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("put %s: %w", key, err)
}

func (l *Leases) Lock(ctx context.Context, key string) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = l.locks.Txn(ctx).If(key).Commit(); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("lock %s: %w", key, err)
}
