// Package variables holds the positive shapes of fresh roots that reach
// the call through a local variable that only ever holds one.
package variables

import (
	"context"
	"time"
)

func use(context.Context) error { return nil }

func short(ctx context.Context) error {
	bg := context.Background()
	c, cancel := context.WithTimeout(bg, time.Second) // want `^context.WithTimeout starts from context.Background through bg, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

func varDecl(ctx context.Context) error {
	var root = context.TODO()
	c, cancel := context.WithTimeout(root, time.Second) // want `^context.WithTimeout starts from context.TODO through root, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

func typedDecl(ctx context.Context) error {
	var root context.Context = context.Background()
	c, cancel := context.WithTimeout(root, time.Second) // want `through root, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

func assignedLater(ctx context.Context, fast bool) error {
	var root context.Context
	if fast {
		root = context.Background()
	} else {
		root = context.TODO()
	}
	c, cancel := context.WithTimeout(root, time.Second) // want `^context.WithTimeout starts from context.Background or context.TODO through root, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

func usedTwice(ctx context.Context) error {
	bg := context.Background()
	c1, cancel1 := context.WithTimeout(bg, time.Second) // want `through bg`
	defer cancel1()
	c2, cancel2 := context.WithDeadline(bg, time.Now()) // want `through bg`
	defer cancel2()
	use(c1)
	return use(c2)
}

func inLiteral(ctx context.Context) error {
	bg := context.Background()
	op := func() error {
		c, cancel := context.WithTimeout(bg, time.Second) // want `through bg, discarding the deadline inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return op()
}
