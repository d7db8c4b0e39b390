package nofix

import (
	"context"
	root "context"
	"time"
)

// The root goes through an import that the fix could leave unused.
func twoImports(ctx context.Context) error {
	c, cancel := context.WithTimeout(root.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}
