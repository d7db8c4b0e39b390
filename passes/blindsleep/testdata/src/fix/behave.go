package fix

import (
	"context"
	"time"
)

// sender is the dependency the behaviour test fakes.
type sender interface {
	Send(ctx context.Context, msg string) error
}

func deliver(ctx context.Context, s sender, msg string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = s.Send(ctx, msg); err == nil {
			return nil
		}
		time.Sleep(3 * time.Second) // want `retry loop waits with time.Sleep`
	}
	return err
}
