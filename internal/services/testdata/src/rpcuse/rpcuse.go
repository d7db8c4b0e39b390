// Package rpcuse calls and serves the connect and Twirp ledgers.
package rpcuse

import (
	"context"
	"net/http"

	"connectrpc.com/connect"

	"ledgerconnect"
	"ledgertwirp"
)

type C struct {
	c ledgerconnect.LedgerClient
	t ledgertwirp.Ledger
}

func (x *C) Calls(ctx context.Context) {
	x.c.Post(ctx, connect.NewRequest(&ledgerconnect.PostRequest{})) // want `link connect /ledger.v1.Ledger/Post`
	x.t.Post(ctx, &ledgertwirp.PostRequest{})                       // want `link twirp /ledger.v1.Ledger/Post`
}

type impl struct{}

func (impl) Post(ctx context.Context, r *connect.Request[ledgerconnect.PostRequest]) (*connect.Response[ledgerconnect.PostResponse], error) {
	return nil, nil
}

type timpl struct{}

func (*timpl) Post(ctx context.Context, r *ledgertwirp.PostRequest) (*ledgertwirp.PostResponse, error) {
	return nil, nil
}

func Serve() { // want Serve:`serves`
	mux := http.NewServeMux()
	mux.Handle(ledgerconnect.NewLedgerHandler(impl{})) // want `serves /ledger.v1.Ledger/Post by rpcuse.impl.Post`
	ts := ledgertwirp.NewLedgerServer(&timpl{})         // want `serves /ledger.v1.Ledger/Post by rpcuse.\(\*timpl\).Post`
	mux.Handle("/twirp/ledger.v1.Ledger/", ts)
}
