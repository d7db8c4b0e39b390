// Command api calls the ledger through its connect client (3 attempts) and
// through its Twirp client (2 attempts).
package main

import (
	"context"
	"log"
	"net/http"
	"os"
	"time"

	"connectrpc.com/connect"

	ledgerv1 "example.com/rpc/gen/ledger/v1"
	"example.com/rpc/gen/ledger/v1/ledgerv1connect"
)

type api struct {
	connect ledgerv1connect.LedgerClient
	twirp   ledgerv1.Ledger
}

func (a *api) viaConnect(w http.ResponseWriter, r *http.Request) {
	var err error
	for i := 0; i < 3; i++ {
		if _, err = a.connect.Post(r.Context(), connect.NewRequest(&ledgerv1.PostRequest{Account: "a"})); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}

func (a *api) viaTwirp(w http.ResponseWriter, r *http.Request) {
	var err error
	for i := 0; i < 2; i++ {
		if _, err = a.twirp.Post(context.Background(), &ledgerv1.PostRequest{Account: "a"}); err == nil {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	http.Error(w, err.Error(), http.StatusBadGateway)
}

func main() {
	a := &api{
		connect: ledgerv1connect.NewLedgerClient(http.DefaultClient, os.Getenv("CONNECT_URL")),
		twirp:   ledgerv1.NewLedgerProtobufClient(os.Getenv("TWIRP_URL"), http.DefaultClient),
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /connect", a.viaConnect)
	mux.HandleFunc("POST /twirp", a.viaTwirp)
	log.Fatal(http.ListenAndServe(":8080", mux))
}
