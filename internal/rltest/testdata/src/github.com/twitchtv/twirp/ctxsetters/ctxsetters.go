// Package ctxsetters is a signature-only stub of Twirp's generated code's helper.
package ctxsetters

import "context"

func WithPackageName(ctx context.Context, name string) context.Context { return ctx }
func WithServiceName(ctx context.Context, name string) context.Context { return ctx }
func WithMethodName(ctx context.Context, name string) context.Context  { return ctx }
