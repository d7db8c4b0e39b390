package endsentry

import (
	"context"
	"time"

	"remote"
)

type S struct{ c *remote.Client }

// Register registers a handler literal: its calls are detached here,
// and the literal is an entry of its own.
func (s *S) Register() {
	remote.Handle(func(ctx context.Context) error { // want `entry total=3 ends=3 /svc/RemoteOther`
		var err error
		for i := 0; i < 3; i++ {
			if err = s.c.RemoteOther(ctx); err == nil {
				return nil
			}
			time.Sleep(time.Millisecond)
		}
		return err
	})
}
