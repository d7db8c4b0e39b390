// Package children holds fresh roots after a child context derived in
// the function is done: its own timeout or cancel says nothing about
// the inherited context, so they are reported. The look-alikes on the
// inherited context itself stay silent.
package children

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"time"
)

func use(context.Context) error { return nil }

type client struct{}

func (client) Get(ctx context.Context, k string) (string, error) { return "", nil }

// The child's Err().
func childErr(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	use(cctx)
	if cctx.Err() != nil {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel2()
		return use(c)
	}
	return nil
}

// The child's Done() in a select.
func childDoneCase(ctx context.Context, work chan int) error {
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	select {
	case <-cctx.Done():
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel2()
		return use(c)
	case <-work:
	}
	return nil
}

// A receive from the child's Done().
func afterChildDone(ctx context.Context) error {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	<-cctx.Done()
	c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
	defer cancel2()
	return use(c)
}

// errors.Is(err, DeadlineExceeded) on a call given the child.
func childDeadline(ctx context.Context, cl client) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	v, err := cl.Get(cctx, "k")
	if errors.Is(err, context.DeadlineExceeded) {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel2()
		return cl.Get(c, "k")
	}
	return v, err
}

func childDeadlineEquals(ctx context.Context, cl client) (string, error) {
	cctx, cancel := context.WithDeadline(ctx, time.Now().Add(time.Second))
	defer cancel()
	if _, err := cl.Get(cctx, "k"); err == context.DeadlineExceeded {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel2()
		return cl.Get(c, "k")
	}
	return "", nil
}

// The inherited parameter replaced by a child of itself: its Done is the
// child's.
func reassignedToChild(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	<-ctx.Done()
	c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
	defer cancel2()
	return use(c)
}

// A value-carrying wrapper of a child is a child.
func valueOfChild(ctx context.Context) error {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	vctx := context.WithValue(cctx, key{}, 1)
	if vctx.Err() != nil {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel2()
		return use(c)
	}
	return nil
}

type key struct{}

// The child used from a literal.
func childInLiteral(ctx context.Context, retry func(func() error) error) error {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return retry(func() error {
		if cctx.Err() != nil {
			c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
			defer cancel2()
			return use(c)
		}
		return nil
	})
}

// The child's error in a variable.
func childErrVar(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := cctx.Err(); errors.Is(err, context.DeadlineExceeded) {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel2()
		return use(c)
	}
	return nil
}

// The error may be the child's on one path: not known to be the
// inherited context's.
func eitherError(ctx context.Context, cl client, fast bool) (string, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	_, err := cl.Get(cctx, "k")
	if fast {
		_, err = cl.Get(ctx, "k")
	}
	if errors.Is(err, context.Canceled) {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel2()
		return cl.Get(c, "k")
	}
	return "", err
}

// In a done case of a child made by WithCancel.
func cancelChildCase(ctx context.Context) error {
	inner, stop := context.WithCancel(ctx)
	defer stop()
	select {
	case <-inner.Done():
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
}

// Look-alikes on the inherited context itself.

func inheritedErr(ctx context.Context) error {
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	use(cctx)
	if ctx.Err() != nil {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel2()
		return use(c)
	}
	return nil
}

func inheritedDeadline(ctx context.Context, cl client) (string, error) {
	v, err := cl.Get(ctx, "k")
	if errors.Is(err, context.DeadlineExceeded) {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return cl.Get(c, "k")
	}
	return v, err
}

// An alias of the inherited context is the inherited context.
func aliasDone(ctx context.Context) error {
	parent := ctx
	<-parent.Done()
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return use(c)
}

// A value-carrying wrapper of the inherited context.
func valueOfInherited(ctx context.Context) error {
	vctx := context.WithValue(ctx, key{}, 1)
	select {
	case <-vctx.Done():
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
}

// A call given the child and the inherited context.
func givenBoth(ctx context.Context, both func(a, b context.Context) error) error {
	cctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := both(cctx, ctx); errors.Is(err, context.Canceled) {
		c, cancel2 := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel2()
		return use(c)
	}
	return nil
}

// A context the function did not derive (its owner's lifetime) being
// done is shutdown too.
type server struct{ life context.Context }

func (s *server) handle(ctx context.Context, work chan int) error {
	select {
	case <-s.life.Done():
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	case <-work:
	}
	return nil
}

// A child variable that is sometimes the inherited context is not only
// a child.
func sometimesChild(ctx context.Context, bounded bool) error {
	parent := ctx
	if bounded {
		var cancel context.CancelFunc
		parent, cancel = context.WithTimeout(ctx, time.Second)
		defer cancel()
	}
	<-parent.Done()
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return use(c)
}

// A context stopped by a signal is a child too.
func signalChild(ctx context.Context) error {
	sctx, stop := signal.NotifyContext(ctx, os.Interrupt)
	defer stop()
	<-sctx.Done()
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}
