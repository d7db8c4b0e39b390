package fix

import (
	"context"
	"time"
)

var background = context.Background()

// A package variable holding a root: the argument is replaced, the
// variable stays.
func pkgVar(ctx context.Context) error {
	c, cancel := context.WithTimeout(background, time.Second) // want `through background, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}
