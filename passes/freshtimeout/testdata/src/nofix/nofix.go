// Package nofix holds reported calls for which no fix is offered, because
// no fix could leave the package compiling. The test checks that none of
// its diagnostics carries a fix.
package nofix

import (
	"context"
	"time"
)

func use(context.Context) error { return nil }

// ctx is shadowed at the call.
func shadowed(ctx context.Context) error {
	if ctx := "x"; ctx != "" {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return nil
}

// A literal's own parameter shadows ctx.
func shadowedByLiteral(ctx context.Context) error {
	f := func(ctx int) error {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return f(1)
}

// An unnamed parameter cannot be named by a fix.
func unnamed(context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from the unnamed context.Context parameter$`
	defer cancel()
	return use(c)
}

// The blank parameter cannot become ctx: a local ctx exists.
func blankLocal(_ context.Context) error {
	ctx := 1
	_ = ctx
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from the blank context.Context parameter$`
	defer cancel()
	return use(c)
}

// Every read of bg is the parent of a reported call: the fixes applied
// together would leave bg unused.
func usedTwice(ctx context.Context) error {
	bg := context.Background()
	c1, cancel1 := context.WithTimeout(bg, time.Second) // want `through bg`
	defer cancel1()
	c2, cancel2 := context.WithTimeout(bg, 2*time.Second) // want `through bg`
	defer cancel2()
	use(c1)
	return use(c2)
}

// The only read, but the declaration cannot be deleted alone.
func tupleDecl(ctx context.Context) error {
	bg, n := context.Background(), 1
	c, cancel := context.WithTimeout(bg, time.Duration(n)*time.Second) // want `through bg`
	defer cancel()
	return use(c)
}

func commentedDecl(ctx context.Context) error {
	bg := context.Background()                        // the root
	c, cancel := context.WithTimeout(bg, time.Second) // want `through bg`
	defer cancel()
	return use(c)
}

func twoStores(ctx context.Context, b bool) error {
	bg := context.Background()
	if b {
		bg = context.TODO()
	}
	c, cancel := context.WithTimeout(bg, time.Second) // want `through bg`
	defer cancel()
	return use(c)
}

// The inherited parameter reassigned to a root: its own value is gone at
// the call, so there is nothing to put there.
func reassigned(ctx context.Context) error {
	ctx = context.Background()
	c, cancel := context.WithTimeout(ctx, time.Second) // want `through reassigned ctx`
	defer cancel()
	return use(c)
}

// A variable holding a wrapped root: replacing it would drop what the
// wrapper adds.
func wrappedVar(ctx context.Context) error {
	base, stop := context.WithCancel(context.Background())
	defer stop()
	c, cancel := context.WithTimeout(base, time.Second) // want `through base`
	defer cancel()
	return use(c)
}

type key struct{}

// A wrapper at the call around a variable that holds a root.
func wrapperOfVar(ctx context.Context) error {
	bg := context.Background()
	c, cancel := context.WithTimeout(context.WithValue(bg, key{}, 1), time.Second) // want `through context.WithValue`
	defer cancel()
	return use(c)
}
