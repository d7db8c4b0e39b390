// Package retryx is a retry helper shared by the services: calling Do is a
// retry site of the caller (a fact of the retry-site analysis).
package retryx

import (
	"context"
	"time"
)

// Do calls op up to 3 times. Its own multiplier is open: op is a function
// value.
func Do(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Duration(i+1) * 100 * time.Millisecond)
	}
	return err
}
