// Command ledger-twirp serves the ledger with Twirp.
package main

import (
	"context"
	"log"
	"net/http"

	ledgerv1 "example.com/rpc/gen/ledger/v1"
)

type server struct{}

func (*server) Post(ctx context.Context, req *ledgerv1.PostRequest) (*ledgerv1.PostResponse, error) {
	return &ledgerv1.PostResponse{EntryId: req.GetAccount()}, nil
}

func main() {
	ts := ledgerv1.NewLedgerServer(&server{})
	mux := http.NewServeMux()
	mux.Handle(ts.PathPrefix(), ts)
	log.Fatal(http.ListenAndServe(":8082", mux))
}
