// Package fix holds the positive shapes whose fixes are checked against
// golden files.
package fix

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

func until(ctx context.Context, at time.Time) error {
	c, cancel := context.WithDeadline(context.TODO(), at) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}
