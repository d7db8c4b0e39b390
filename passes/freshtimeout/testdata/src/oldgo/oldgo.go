// Package oldgo is a module whose go.mod says go 1.20, before
// context.WithoutCancel: only the fix that derives from ctx is offered.
package oldgo

import (
	"context"
	"time"
)

func use(context.Context) error { return nil }

func get(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}
