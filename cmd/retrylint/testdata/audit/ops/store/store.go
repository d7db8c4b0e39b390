// Package store retries reads a number of times that comes from its
// configuration, and waits for a deadline.
package store

import (
	"context"
	"time"
)

type DB struct{}

func (d *DB) Query(ctx context.Context) error { return nil }

type Config struct{ MaxTries int }

type Store struct {
	db  *DB
	cfg Config
}

// Get retries cfg.MaxTries times: a count that is not known.
func (s *Store) Get(ctx context.Context) error {
	var err error
	for i := 0; i < s.cfg.MaxTries; i++ {
		if err = s.db.Query(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Wait retries until the context is done: bounded only by time.
func (s *Store) Wait(ctx context.Context) error {
	for ctx.Err() == nil {
		if err := s.db.Query(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}

// Warm is polled once at start-up; the team accepted its retries.
func (s *Store) Warm(ctx context.Context) error {
	var err error
	//lint:ignore fixedattempts polled once at start-up, before traffic
	for i := 0; i < 10; i++ {
		if err = s.db.Query(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
