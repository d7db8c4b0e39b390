// Package api serves requests: it retries the store, whose own retries
// multiply with its.
package api

import (
	"context"
	"time"

	"example.com/ops/conn"
	"example.com/ops/store"
)

type Server struct {
	store *store.Store
	conn  *conn.Conn
}

// Read retries Get twice: 2 × an unknown number.
func (s *Server) Read(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = s.store.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Publish retries Open four times: 4 × 3 = 12 at the broker.
func (s *Server) Publish(ctx context.Context) error {
	var err error
	for i := 0; i < 4; i++ {
		if err = s.conn.Open(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
