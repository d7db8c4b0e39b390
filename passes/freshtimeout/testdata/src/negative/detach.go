package negative

import (
	"context"
	"time"
)

// An explicit detach keeps the values and drops the deadline, visibly.
func withoutCancel(ctx context.Context) {
	c, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	use(c)
}

func withoutCancelVariable(ctx context.Context) {
	detached := context.WithoutCancel(ctx)
	c, cancel := context.WithTimeout(detached, time.Second)
	defer cancel()
	use(c)
}

// Derived from ctx: correct.
func derived(ctx context.Context) {
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	use(c)
}

func derivedRequest(ctx context.Context) {
	inner, cancel0 := context.WithCancel(ctx)
	defer cancel0()
	c, cancel := context.WithTimeout(inner, time.Second)
	defer cancel()
	use(c)
}

// Not a timeout: WithCancel and WithValue on a fresh root.
func notATimeout(ctx context.Context) {
	c, cancel := context.WithCancel(context.Background())
	defer cancel()
	use(context.WithValue(context.Background(), key{}, 1))
	use(c)
}

type key struct{}

// A function of another package named WithTimeout.
type timeouts struct{}

func (timeouts) WithTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	return parent, func() {}
}

func lookAlike(ctx context.Context) {
	var t timeouts
	c, cancel := t.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

// A function value of context.WithTimeout is not followed.
func funcValue(ctx context.Context) {
	with := context.WithTimeout
	c, cancel := with(context.Background(), time.Second)
	defer cancel()
	use(c)
}
