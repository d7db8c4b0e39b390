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
	for attempt := 0; attempt < 3; attempt++ {
		if err = s.Send(ctx, msg); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `retry waits a fixed 1s`
	}
	return err
}
