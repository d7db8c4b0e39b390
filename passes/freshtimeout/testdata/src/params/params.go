// Package params holds the positive shapes of functions that inherit a
// context through a parameter.
package params

import (
	"context"
	"errors"
	"log"
	"net/http"
	"time"
)

func use(context.Context) error { return nil }

func timeout(ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `^context.WithTimeout starts from context.Background, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

func deadline(parent context.Context, at time.Time) error {
	c, cancel := context.WithDeadline(context.TODO(), at) // want `^context.WithDeadline starts from context.TODO, discarding the deadline inherited from parent$`
	defer cancel()
	return use(c)
}

func timeoutCause(ctx context.Context) error {
	c, cancel := context.WithTimeoutCause(context.Background(), time.Second, errors.New("slow")) // want `^context.WithTimeoutCause starts from context.Background, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

func deadlineCause(ctx context.Context, at time.Time) error {
	c, cancel := context.WithDeadlineCause(context.TODO(), at, errors.New("late")) // want `^context.WithDeadlineCause starts from context.TODO, discarding the deadline inherited from ctx$`
	defer cancel()
	return use(c)
}

type store struct{ timeout time.Duration }

func (s *store) Get(ctx context.Context, key string) error {
	c, cancel := context.WithTimeout(context.Background(), s.timeout) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

func (store) value(ctx context.Context) {
	_, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	cancel()
}

func blank(_ context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from the blank context.Context parameter$`
	defer cancel()
	return use(c)
}

func unnamed(context.Context, int) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from the unnamed context.Context parameter$`
	defer cancel()
	return use(c)
}

func notFirst(id string, n int, ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

// A context parameter wins over a request.
func both(w http.ResponseWriter, r *http.Request, ctx context.Context) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

func parenthesized(ctx context.Context) error {
	c, cancel := context.WithTimeout((context.Background()), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

// Shadowed at the call: still reported (the fix is withheld, see nofix).
func shadowed(ctx context.Context) error {
	if ctx := 1; ctx > 0 {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return nil
}

// A retry loop that waits on ctx.Done() but returns from that case: after
// the select, ctx is not known to be done.
func retryLoop(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		err := use(c)
		cancel()
		if err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// Checking ctx.Err() and returning when it is set leaves ctx live.
func afterErrCheck(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

// In the branch where ctx is live.
func liveBranch(ctx context.Context) error {
	if err := ctx.Err(); err == nil {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return nil
}

// A select whose ctx.Done() case returns, in a loop left by another case.
func loopExitsOtherwise(ctx context.Context, ch chan int) error {
loop:
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ch:
			break loop
		}
	}
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return use(c)
}

// Returned to the caller, who runs with it in place of ctx.
func newContext(ctx context.Context) (context.Context, context.CancelFunc) {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	return c, cancel
}

// Passed to a synchronous call, and used after a goroutine that does not
// get it.
func syncUse(ctx context.Context, done chan struct{}) error {
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	go func() { close(done) }()
	return use(c)
}

// A nil check of another value is no reason.
func otherNil(ctx context.Context, p *int) error {
	if p == nil {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return nil
}

// Non-nil ctx.
func nonNil(ctx context.Context) error {
	if ctx != nil {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return nil
}

// An error from work that was not given ctx says nothing about ctx.
func failedWithoutCtx(ctx context.Context, parse func(string) error) error {
	if err := parse("x"); err != nil {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return nil
}

// The else branch, where the work succeeded.
func succeededWithCtx(ctx context.Context) error {
	if err := use(ctx); err != nil {
		return err
	} else {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
}

// A call of another package that never returns (log.Fatal) cuts its
// path: after it, ctx is known to be done.
func afterFatal(ctx context.Context) error {
	if ctx.Err() == nil {
		log.Fatal("still live")
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return use(c)
}
