package fix

import (
	"context"
	"time"
)

type key struct{}

// The root inside a wrapper written at the call is what the fix replaces.
func wrapped(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.WithValue(context.Background(), key{}, 1), time.Second) // want `through context.WithValue, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}
