// Package imports holds the positive shapes of a renamed context import.
package imports

import (
	stdctx "context"
	"time"
)

func use(stdctx.Context) error { return nil }

func renamed(ctx stdctx.Context) error {
	c, cancel := stdctx.WithTimeout(stdctx.Background(), time.Second) // want `^context.WithTimeout starts from context.Background, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}
