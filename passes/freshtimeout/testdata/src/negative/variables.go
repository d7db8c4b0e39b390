package negative

import (
	"context"
	"time"
)

// Sometimes reassigned to ctx: not only a fresh root.
func reassigned(ctx context.Context, inherit bool) {
	parent := context.Background()
	if inherit {
		parent = ctx
	}
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
}

// Reassigned after the call: still not only a fresh root.
func reassignedAfter(ctx context.Context) {
	parent := context.Background()
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
	parent = ctx
	use(parent)
}

// Reassigned in a closure.
func reassignedInClosure(ctx context.Context) {
	parent := context.TODO()
	set := func() { parent = ctx }
	set()
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
}

// Its address is taken.
func addressTaken(ctx context.Context) {
	parent := context.Background()
	setParent(&parent, ctx)
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
}

func setParent(p *context.Context, ctx context.Context) { *p = ctx }

// From a tuple assignment.
func tuple(ctx context.Context) {
	parent, err := pick(ctx)
	if err != nil {
		return
	}
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
}

func pick(ctx context.Context) (context.Context, error) { return ctx, nil }

// Declared without a value and never given a root.
func nilOnly(ctx context.Context) {
	var parent context.Context
	if parent == nil {
		parent = ctx
	}
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
}

// A parameter holding a root: its value comes from the caller.
func parameter(ctx context.Context, parent context.Context) {
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
}

// A field holding a root.
type service struct{ base context.Context }

func (s *service) field(ctx context.Context) {
	c, cancel := context.WithTimeout(s.base, time.Second)
	defer cancel()
	use(c)
}

// A range variable.
func ranged(ctx context.Context, parents []context.Context) {
	var parent context.Context = context.Background()
	for _, parent = range parents {
	}
	c, cancel := context.WithTimeout(parent, time.Second)
	defer cancel()
	use(c)
}
