// Package dotimport holds the positive shapes of a dot-imported context.
package dotimport

import (
	. "context"
	"time"
)

func use(Context) error { return nil }

func dot(ctx Context) error {
	c, cancel := WithTimeout(Background(), time.Second) // want `^context.WithTimeout starts from context.Background, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}
