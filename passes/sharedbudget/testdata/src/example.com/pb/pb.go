// Package pb looks like generated gRPC client code.
package pb

import (
	"context"

	"google.golang.org/grpc"
)

type ReserveRequest struct{}
type ReserveReply struct{}
type ChargeRequest struct{}
type ChargeReply struct{}

type InventoryClient interface {
	Reserve(ctx context.Context, in *ReserveRequest, opts ...grpc.CallOption) (*ReserveReply, error)
}

type PaymentsClient interface {
	Charge(ctx context.Context, in *ChargeRequest, opts ...grpc.CallOption) (*ChargeReply, error)
}

func NewInventoryClient(cc grpc.ClientConnInterface) InventoryClient { return nil }
func NewPaymentsClient(cc grpc.ClientConnInterface) PaymentsClient   { return nil }
