// Package grpcuse calls and serves the ledger.
package grpcuse

import (
	"context"

	"google.golang.org/grpc"

	"ledgerpb"
)

type Orders struct {
	ledger ledgerpb.LedgerClient
	local  Poster
}

// Place calls the generated client through its interface: a link.
func (o *Orders) Place(ctx context.Context) error {
	_, err := o.ledger.Post(ctx, &ledgerpb.PostRequest{}) // want `link grpc /ledger.v1.Ledger/Post`
	return err
}

// PlaceLocal calls an interface of this package whose implementation
// here sends nothing: no link.
func (o *Orders) PlaceLocal(ctx context.Context) error {
	return o.local.Post(ctx)
}

// Poster is implemented here by a type that sends nothing.
type Poster interface {
	Post(ctx context.Context) error
}

type memPoster struct{}

func (memPoster) Post(ctx context.Context) error { return nil }

// Server implements the ledger; it embeds the generated stub for Watch.
type Server struct {
	ledgerpb.UnimplementedLedgerServer
}

func (s *Server) Post(ctx context.Context, in *ledgerpb.PostRequest) (*ledgerpb.PostResponse, error) {
	return nil, nil
}

// Serve registers the server: both methods, Post served by Server.Post,
// Watch by the embedded stub.
func Serve() { // want Serve:`serves\(/ledger.v1.Ledger/Post grpcuse.\(\*Server\).Post, /ledger.v1.Ledger/Watch ledgerpb.UnimplementedLedgerServer.Watch\)`
	s := grpc.NewServer()
	ledgerpb.RegisterLedgerServer(s, &Server{}) // want `serves /ledger.v1.Ledger/Post by grpcuse.\(\*Server\).Post` `serves /ledger.v1.Ledger/Watch by ledgerpb.UnimplementedLedgerServer.Watch`
}

// ServeVar registers through a variable that a constructor fills: still
// known.
func ServeVar() { // want ServeVar:`serves`
	var impl ledgerpb.LedgerServer = newServer()
	ledgerpb.RegisterLedgerServer(grpc.NewServer(), impl) // want `serves /ledger.v1.Ledger/Post by grpcuse.\(\*Server\).Post` `serves /ledger.v1.Ledger/Watch by`
}

func newServer() ledgerpb.LedgerServer { return &Server{} }

// ServeUnknown registers what its caller passes: it becomes a
// registration function itself.
func ServeUnknown(s grpc.ServiceRegistrar, impl ledgerpb.LedgerServer) { // want ServeUnknown:`registers\(grpc ledger.v1.Ledger\$1\)`
	ledgerpb.RegisterLedgerServer(s, impl)
}

// ServeDirect registers with the descriptor.
func ServeDirect() { // want ServeDirect:`serves`
	grpc.NewServer().RegisterService(&ledgerpb.Ledger_ServiceDesc, &Server{}) // want `serves /ledger.v1.Ledger/Post by grpcuse.\(\*Server\).Post` `serves /ledger.v1.Ledger/Watch by`
}

// Early calls a registration wrapper declared after it.
func Early() { // want Early:`serves`
	serveLate(grpc.NewServer(), &Server{}) // want `serves /ledger.v1.Ledger/Post by grpcuse.\(\*Server\).Post` `serves /ledger.v1.Ledger/Watch by`
}

func serveLate(s grpc.ServiceRegistrar, impl ledgerpb.LedgerServer) { // want serveLate:`registers\(grpc ledger.v1.Ledger\$1\)`
	ledgerpb.RegisterLedgerServer(s, impl)
}
