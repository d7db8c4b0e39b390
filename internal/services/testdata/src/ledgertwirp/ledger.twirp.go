// Package ledgertwirp has the shape of protoc-gen-twirp's output for
// ledger.v1.Ledger.
package ledgertwirp

import (
	"context"
	"net/http"

	"github.com/twitchtv/twirp/ctxsetters"
)

type PostRequest struct{}
type PostResponse struct{}

type Ledger interface {
	Post(context.Context, *PostRequest) (*PostResponse, error) // want Post:`sends\(twirp /ledger.v1.Ledger/Post\)`
}

type ledgerProtobufClient struct{ urls [1]string }

func NewLedgerProtobufClient(baseURL string, client *http.Client) Ledger {
	return &ledgerProtobufClient{urls: [1]string{baseURL + "/twirp/ledger.v1.Ledger/Post"}}
}

func (c *ledgerProtobufClient) Post(ctx context.Context, in *PostRequest) (*PostResponse, error) { // want Post:`sends\(twirp /ledger.v1.Ledger/Post\)`
	ctx = ctxsetters.WithPackageName(ctx, "ledger.v1")
	ctx = ctxsetters.WithServiceName(ctx, "Ledger")
	ctx = ctxsetters.WithMethodName(ctx, "Post")
	caller := c.callPost
	return caller(ctx, in)
}

func (c *ledgerProtobufClient) callPost(ctx context.Context, in *PostRequest) (*PostResponse, error) {
	return nil, nil
}

type ledgerServer struct {
	Ledger
	pathPrefix string
}

func NewLedgerServer(svc Ledger, opts ...interface{}) http.Handler { // want NewLedgerServer:`registers\(twirp ledger.v1.Ledger\$0\)`
	return &ledgerServer{Ledger: svc, pathPrefix: "/twirp"}
}

func (s *ledgerServer) ServeHTTP(resp http.ResponseWriter, req *http.Request) {
	ctx := req.Context()
	ctx = ctxsetters.WithPackageName(ctx, "ledger.v1")
	ctx = ctxsetters.WithServiceName(ctx, "Ledger")
	s.servePost(ctx, resp, req)
}

func (s *ledgerServer) servePost(ctx context.Context, resp http.ResponseWriter, req *http.Request) {
	ctx = ctxsetters.WithMethodName(ctx, "Post")
	handler := s.Ledger.Post
	handler(ctx, &PostRequest{})
}
