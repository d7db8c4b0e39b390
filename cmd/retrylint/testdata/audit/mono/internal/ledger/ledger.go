// Package ledger implements the Ledger service: each posting is stored in
// the database.
package ledger

import (
	"context"
	"net"
	"strconv"
	"time"

	"google.golang.org/grpc"

	ledgerv1 "example.com/mono/gen/ledger/v1"
	"example.com/mono/internal/kv"
	"github.com/retrylint/retrylint/budget"
)

// Server implements ledgerv1.LedgerServer.
type Server struct {
	ledgerv1.UnimplementedLedgerServer
	db *kv.Client
}

var dbBudget = budget.New()

// Serve registers the service on a new gRPC server and serves lis.
func Serve(lis net.Listener, db *kv.Client) error {
	s := grpc.NewServer()
	ledgerv1.RegisterLedgerServer(s, &Server{db: db})
	return s.Serve(lis)
}

// Post writes the posting to the database, retrying 3 times.
func (s *Server) Post(ctx context.Context, req *ledgerv1.PostRequest) (*ledgerv1.PostResponse, error) {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.db.Put(ctx, req.GetAccount(), strconv.FormatInt(req.GetCents(), 10)); err == nil {
			return &ledgerv1.PostResponse{EntryId: req.GetAccount()}, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, err
}

// PostBudgeted retries the database within a 10% budget.
func (s *Server) PostBudgeted(ctx context.Context, req *ledgerv1.PostRequest) (*ledgerv1.PostResponse, error) {
	var err error
	dbBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if err = s.db.Put(ctx, req.GetAccount(), strconv.FormatInt(req.GetCents(), 10)); err == nil {
			return &ledgerv1.PostResponse{EntryId: req.GetAccount()}, nil
		}
		if !dbBudget.TryRetry() {
			return nil, err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, err
}
