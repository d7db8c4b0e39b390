// Package gateway serves user requests and retries orders.
package gateway

import (
	"context"
	"net/http"
	"time"

	"example.com/shop/orders"
	"example.com/shop/retryx"
	"github.com/retrylint/retrylint/budget"
)

type Server struct{ orders *orders.Client }

var ordersBudget = budget.New()

// ServeHTTP knows the request's deadline and retries orders 3 times:
// 3 × 3 × 3 = 27 calls to the database per user request.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	for i := 0; i < 3; i++ { // want `retries nest: up to 3 attempts here × 3 in orders.\(\*Client\).Get × 3 in ledger.\(\*Client\).Post = 27 calls per request at the deepest dependency when it fails; keep the retry in gateway.\(\*Server\).ServeHTTP, the outermost layer that has the request's deadline`
		if err := s.orders.Get(ctx, r.URL.Path); err == nil {
			w.WriteHeader(http.StatusOK)
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	w.WriteHeader(http.StatusBadGateway)
}

// Handle4 retries orders 4 times: 4 × 4 × 4 = 64.
func (s *Server) Handle4(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 4; i++ { // want `= 64 calls per request at the deepest dependency`
		if err = s.orders.Get4(ctx, id); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// HandleBudgeted retries within a 10% budget at every hop:
// 1.1 × 1.1 × 1.1 ≈ 1.33, and nothing is reported.
func (s *Server) HandleBudgeted(ctx context.Context, id string) error {
	var err error
	ordersBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if err = s.orders.GetBudgeted(ctx, id); err == nil {
			return nil
		}
		if !ordersBudget.TryRetry() {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// HandleHelper nests the shared helper three deep: 27.
func (s *Server) HandleHelper(ctx context.Context, id string) error {
	return retryx.Do(ctx, func(ctx context.Context) error { // want `= 27 calls per request`
		return s.orders.GetHelper(ctx, id)
	})
}

// HandleOnce calls orders once: the 9 of orders.Get reaches the database,
// but nothing nests here.
func (s *Server) HandleOnce(ctx context.Context, id string) error {
	return s.orders.Get(ctx, id)
}

// HandleVia retries orders.GetVia, which retries 3 times through an
// interface whose retries are unknown: at least 9.
func (s *Server) HandleVia(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts here × 3 in orders.\(\*Client\).GetVia = at least 9 calls`
		if err = s.orders.GetVia(ctx, id); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}
