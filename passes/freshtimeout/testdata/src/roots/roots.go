// Package roots holds the fresh roots that reach a timeout other than
// as a direct call: the inherited parameter reassigned to one, a root
// wrapped by WithValue or WithCancel, a package variable holding one.
package roots

import (
	"context"
	"time"
)

func use(context.Context) error { return nil }

type key struct{}

// The inherited parameter reassigned to a root, then used as the parent
// (contextcheck's own test shape).
func reassigned(ctx context.Context) error {
	ctx = context.Background()
	c, cancel := context.WithTimeout(ctx, time.Second) // want `^context.WithTimeout starts from context.Background through reassigned ctx, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

// Reassigned on every path.
func reassignedBoth(ctx context.Context, fast bool) error {
	if fast {
		ctx = context.TODO()
	} else {
		ctx = context.Background()
	}
	c, cancel := context.WithDeadline(ctx, time.Now()) // want `starts from context.Background or context.TODO through reassigned ctx`
	defer cancel()
	return use(c)
}

// Reassigned to a wrapped root.
func reassignedWrapped(ctx context.Context) error {
	ctx = context.WithValue(context.Background(), key{}, 1)
	c, cancel := context.WithTimeout(ctx, time.Second) // want `through reassigned ctx`
	defer cancel()
	return use(c)
}

// A root wrapped by WithValue at the call.
func wrappedValue(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.WithValue(context.Background(), key{}, 1), time.Second) // want `^context.WithTimeout starts from context.Background through context.WithValue, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

// Wrapped twice.
func wrappedTwice(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.WithValue(context.WithoutCancel(context.TODO()), key{}, 1), time.Second) // want `starts from context.TODO through context.WithValue`
	defer cancel()
	return use(c)
}

// A root wrapped by WithCancel in a variable.
func wrappedCancel(ctx context.Context) error {
	base, stop := context.WithCancel(context.Background())
	defer stop()
	c, cancel := context.WithTimeout(base, time.Second) // want `^context.WithTimeout starts from context.Background through base, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

// A root wrapped by WithValue in a variable, through another variable.
func wrappedChain(ctx context.Context) error {
	bg := context.Background()
	vctx := context.WithValue(bg, key{}, "v")
	c, cancel := context.WithTimeout(vctx, time.Second) // want `through vctx`
	defer cancel()
	return use(c)
}

// A package-level variable holding a root.
var background = context.Background()

func packageVar(ctx context.Context) error {
	c, cancel := context.WithTimeout(background, time.Second) // want `^context.WithTimeout starts from context.Background through background, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

// A package-level variable holding a wrapped root.
var baseCtx, stopBase = context.WithCancel(context.Background())

func packageWrapped(ctx context.Context) error {
	c, cancel := context.WithTimeout(baseCtx, time.Second) // want `through baseCtx`
	defer cancel()
	return use(c)
}

// Look-alikes.

// A nil context replaced by a root: on the other path ctx is the caller's.
func nilDefault(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return use(c)
}

// Reassigned after the call.
func reassignedAfter(ctx context.Context) error {
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	ctx = context.Background()
	use(ctx)
	return use(c)
}

// Reassigned in a closure: the pass cannot tell when.
func reassignedInClosure(ctx context.Context) error {
	reset := func() { ctx = context.Background() }
	reset()
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return use(c)
}

// Reassigned to a context derived from itself.
func reassignedDerived(ctx context.Context) error {
	ctx = context.WithValue(ctx, key{}, 1)
	c, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return use(c)
}

// WithCancel(context.Background()) alone is not a timeout.
func cancelOnly(ctx context.Context) error {
	c, cancel := context.WithCancel(context.Background())
	defer cancel()
	return use(c)
}

// A wrapper of the inherited context.
func wrappedInherited(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.WithValue(ctx, key{}, 1), time.Second)
	defer cancel()
	return use(c)
}

// The second result of WithCancel is not a context; a root with a
// deadline is not a fresh root.
func timeoutOfTimeout(ctx context.Context) error {
	inner, cancel0 := context.WithTimeout(context.Background(), time.Minute) // want `inherited from ctx$`
	defer cancel0()
	c, cancel := context.WithTimeout(inner, time.Second)
	defer cancel()
	return use(c)
}

// An exported package variable may be set by another package.
var Default = context.Background()

func exportedVar(ctx context.Context) error {
	c, cancel := context.WithTimeout(Default, time.Second)
	defer cancel()
	return use(c)
}

// A package variable assigned something else elsewhere.
var shared = context.Background()

func SetShared(ctx context.Context) { shared = ctx } // want SetShared:`^handoff\(keeps 0\)$`

func reassignedVar(ctx context.Context) error {
	c, cancel := context.WithTimeout(shared, time.Second)
	defer cancel()
	return use(c)
}

// A package variable holding a derived context.
var life, stopLife = context.WithTimeout(context.Background(), time.Hour)

func derivedVar(ctx context.Context) error {
	c, cancel := context.WithTimeout(life, time.Second)
	defer cancel()
	return use(c)
}
