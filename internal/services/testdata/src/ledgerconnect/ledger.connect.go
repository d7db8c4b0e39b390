// Package ledgerconnect has the shape of protoc-gen-connect-go's output
// for ledger.v1.Ledger.
package ledgerconnect

import (
	"context"
	"net/http"
	"strings"

	"connectrpc.com/connect"
)

const LedgerPostProcedure = "/ledger.v1.Ledger/Post"

type PostRequest struct{}
type PostResponse struct{}

type LedgerClient interface {
	Post(context.Context, *connect.Request[PostRequest]) (*connect.Response[PostResponse], error) // want Post:`sends\(connect /ledger.v1.Ledger/Post\)`
}

func NewLedgerClient(httpClient connect.HTTPClient, baseURL string, opts ...connect.ClientOption) LedgerClient {
	baseURL = strings.TrimRight(baseURL, "/")
	return &ledgerClient{
		post: connect.NewClient[PostRequest, PostResponse](httpClient, baseURL+LedgerPostProcedure, opts...),
	}
}

type ledgerClient struct {
	post *connect.Client[PostRequest, PostResponse]
}

func (c *ledgerClient) Post(ctx context.Context, req *connect.Request[PostRequest]) (*connect.Response[PostResponse], error) { // want Post:`sends\(connect /ledger.v1.Ledger/Post\)`
	return c.post.CallUnary(ctx, req) // want `link connect /ledger.v1.Ledger/Post`
}

type LedgerHandler interface {
	Post(context.Context, *connect.Request[PostRequest]) (*connect.Response[PostResponse], error)
}

func NewLedgerHandler(svc LedgerHandler, opts ...connect.HandlerOption) (string, http.Handler) { // want NewLedgerHandler:`registers\(connect ledger.v1.Ledger\$0\)`
	postHandler := connect.NewUnaryHandler(LedgerPostProcedure, svc.Post, opts...)
	return "/ledger.v1.Ledger/", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case LedgerPostProcedure:
			postHandler.ServeHTTP(w, r)
		}
	})
}
