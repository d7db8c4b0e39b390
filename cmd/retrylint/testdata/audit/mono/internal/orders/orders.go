// Package orders implements the Orders service: it posts each order to
// the ledger and tells notify.
package orders

import (
	"context"
	"net"
	"net/http"
	"strings"
	"time"

	"google.golang.org/grpc"

	ledgerv1 "example.com/mono/gen/ledger/v1"
	ordersv1 "example.com/mono/gen/orders/v1"
	"github.com/retrylint/retrylint/budget"
)

// Server implements ordersv1.OrdersServer.
type Server struct {
	ordersv1.UnimplementedOrdersServer
	ledger    ledgerv1.LedgerClient
	notifyURL string
}

var ledgerBudget = budget.New()

// Serve registers the service on a new gRPC server and serves lis.
func Serve(lis net.Listener, ledger ledgerv1.LedgerClient, notifyURL string) error {
	s := grpc.NewServer()
	ordersv1.RegisterOrdersServer(s, &Server{ledger: ledger, notifyURL: notifyURL})
	return s.Serve(lis)
}

// Place posts the order to the ledger, retrying 3 times, then tells
// notify, retrying twice.
func (s *Server) Place(ctx context.Context, req *ordersv1.PlaceRequest) (*ordersv1.PlaceResponse, error) {
	var resp *ledgerv1.PostResponse
	var err error
	for i := 0; i < 3; i++ {
		if resp, err = s.ledger.Post(ctx, &ledgerv1.PostRequest{Account: req.GetAccount(), Cents: req.GetCents()}); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return nil, err
	}
	for i := 0; i < 2; i++ {
		if err = s.notify(ctx, req.GetOrderId()); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	return &ordersv1.PlaceResponse{EntryId: resp.GetEntryId()}, err
}

// PlaceBudgeted retries the ledger within a 10% budget.
func (s *Server) PlaceBudgeted(ctx context.Context, req *ordersv1.PlaceRequest) (*ordersv1.PlaceResponse, error) {
	var err error
	ledgerBudget.OnRequest()
	for i := 0; i < 3; i++ {
		var resp *ledgerv1.PostResponse
		if resp, err = s.ledger.PostBudgeted(ctx, &ledgerv1.PostRequest{Account: req.GetAccount(), Cents: req.GetCents()}); err == nil {
			return &ordersv1.PlaceResponse{EntryId: resp.GetEntryId()}, nil
		}
		if !ledgerBudget.TryRetry() {
			return nil, err
		}
		time.Sleep(100 * time.Millisecond)
	}
	return nil, err
}

// notify posts the order to the notify service.
func (s *Server) notify(ctx context.Context, id string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.notifyURL+"/v1/notify", strings.NewReader(id))
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
