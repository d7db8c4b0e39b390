// Package inventory is a dependency reached through package-level functions.
package inventory

import "context"

func Reserve(ctx context.Context, item string) error { return nil }
func Release(ctx context.Context, item string) error { return nil }
