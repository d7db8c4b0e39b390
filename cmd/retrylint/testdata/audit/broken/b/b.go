// Package b loads; one of its test files does not.
package b

import (
	"context"
	"time"
)

type Store struct{}

func (s *Store) Put(ctx context.Context) error { return nil }

type B struct{ store *Store }

func (b *B) Save(ctx context.Context) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = b.store.Put(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
