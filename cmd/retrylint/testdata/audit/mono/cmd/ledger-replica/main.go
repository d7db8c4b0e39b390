// Command ledger-replica serves the Ledger service from a standby region:
// a second implementation of the same service, which retries the database
// twice.
package main

import (
	"context"
	"log"
	"net"
	"os"
	"time"

	"google.golang.org/grpc"

	ledgerv1 "example.com/mono/gen/ledger/v1"
	"example.com/mono/internal/kv"
)

type replica struct {
	ledgerv1.UnimplementedLedgerServer
	db *kv.Client
}

func (r *replica) Post(ctx context.Context, req *ledgerv1.PostRequest) (*ledgerv1.PostResponse, error) {
	var err error
	for i := 0; i < 2; i++ {
		if err = r.db.Put(ctx, "replica-"+req.GetAccount(), "1"); err == nil {
			return &ledgerv1.PostResponse{EntryId: req.GetAccount()}, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, err
}

func (r *replica) PostBudgeted(ctx context.Context, req *ledgerv1.PostRequest) (*ledgerv1.PostResponse, error) {
	if err := r.db.Put(ctx, "replica-"+req.GetAccount(), "1"); err != nil {
		return nil, err
	}
	return &ledgerv1.PostResponse{EntryId: req.GetAccount()}, nil
}

func main() {
	lis, err := net.Listen("tcp", ":9091")
	if err != nil {
		log.Fatal(err)
	}
	s := grpc.NewServer()
	ledgerv1.RegisterLedgerServer(s, &replica{db: kv.New(os.Getenv("DB_URL"))})
	log.Fatal(s.Serve(lis))
}
