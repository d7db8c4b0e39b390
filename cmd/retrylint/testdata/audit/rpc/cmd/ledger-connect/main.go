// Command ledger-connect serves the ledger with connect-go.
package main

import (
	"context"
	"log"
	"net/http"

	"connectrpc.com/connect"

	ledgerv1 "example.com/rpc/gen/ledger/v1"
	"example.com/rpc/gen/ledger/v1/ledgerv1connect"
)

type server struct{}

func (server) Post(ctx context.Context, req *connect.Request[ledgerv1.PostRequest]) (*connect.Response[ledgerv1.PostResponse], error) {
	return connect.NewResponse(&ledgerv1.PostResponse{EntryId: req.Msg.GetAccount()}), nil
}

func main() {
	mux := http.NewServeMux()
	mux.Handle(ledgerv1connect.NewLedgerHandler(server{}))
	log.Fatal(http.ListenAndServe(":8081", mux))
}
