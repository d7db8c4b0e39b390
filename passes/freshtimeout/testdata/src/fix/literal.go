package fix

import (
	"context"
	"time"
)

func retry(op func() error) error { return op() }

func inRetry(ctx context.Context) error {
	return retry(func() error {
		c, cancel := context.WithTimeoutCause(context.Background(), time.Second, context.DeadlineExceeded) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	})
}
