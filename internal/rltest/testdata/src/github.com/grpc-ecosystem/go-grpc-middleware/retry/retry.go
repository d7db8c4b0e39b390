// Package grpc_retry is a signature-only stub for tests.
package grpc_retry

import (
	"time"

	"google.golang.org/grpc"
)

type CallOption struct{ grpc.CallOption }
type BackoffFunc func(attempt uint) time.Duration

func UnaryClientInterceptor(opts ...CallOption) grpc.UnaryClientInterceptor   { return nil }
func StreamClientInterceptor(opts ...CallOption) grpc.StreamClientInterceptor { return nil }
func WithMax(n uint) CallOption                                               { return CallOption{} }
func WithBackoff(f BackoffFunc) CallOption                                    { return CallOption{} }
func Disable() CallOption                                                     { return CallOption{} }
func BackoffLinear(d time.Duration) BackoffFunc                               { return nil }
