// want package:"analyzed"

package endsuse

import (
	"context"
	"time"

	"remote"
)

type S struct{ c *remote.Client }

// Once calls out once: an end of product 1, and no multiplier.
func (s *S) Once(ctx context.Context) error { // want Once:`ends\(1 /svc/RemoteCall\)`
	return s.c.RemoteCall(ctx)
}

// Retry retries the call 3 times: the end is 3, and the linked call is
// not open (its callee is the other service's business).
func (s *S) Retry(ctx context.Context) error { // want Retry:`^amp\(3: endsuse.\(\*S\).Retry\)$` Retry:`ends\(3 /svc/RemoteCall\)`
	var err error
	for i := 0; i < 3; i++ {
		if err = s.c.RemoteCall(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Nested retries Retry twice: 6 at the end.
func (s *S) Nested(ctx context.Context) error { // want Nested:`^amp\(6: .*\)` Nested:`ends\(6 /svc/RemoteCall\)`
	var err error
	for i := 0; i < 2; i++ {
		if err = s.Retry(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Detach starts Retry as a goroutine in every attempt and does not wait:
// that end keeps its own 3 and gets none of the 2 around it.
func (s *S) Detach(ctx context.Context) error { // want Detach:`^amp\(2: .*\)` Detach:`ends\(3 /svc/RemoteCall detached, 2 /svc/RemoteOther\)`
	var err error
	for i := 0; i < 2; i++ {
		go s.Retry(ctx)
		if err = s.c.RemoteOther(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Register registers a handler literal: its calls are detached here.
func (s *S) Register() { // want Register:`ends\(3 /svc/RemoteOther detached\)`
	remote.Handle(func(ctx context.Context) error {
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
