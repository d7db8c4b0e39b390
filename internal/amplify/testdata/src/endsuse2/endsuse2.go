// want package:"analyzed"

package endsuse2

import (
	"context"
	"time"

	"endsuse"
)

// Twice retries a function of another package twice: its end, known
// through the EndsFact, is 2 × 6.
func Twice(ctx context.Context, s *endsuse.S) error { // want Twice:`^amp\(12: .*\)` Twice:`ends\(12 /svc/RemoteCall\)`
	var err error
	for i := 0; i < 2; i++ {
		if err = s.Nested(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}
