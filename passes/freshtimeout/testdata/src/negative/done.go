package negative

import (
	"context"
	"errors"
	"time"
)

// After <-ctx.Done(): shutdown work needs a fresh root.
func afterDone(ctx context.Context) {
	<-ctx.Done()
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	use(c)
}

func afterDoneAssigned(ctx context.Context) {
	_ = <-ctx.Done()
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	use(c)
}

// In a nested block after <-ctx.Done().
func afterDoneNested(ctx context.Context, flush bool) {
	<-ctx.Done()
	if flush {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		use(c)
	}
}

// In a case <-ctx.Done(): clause.
func doneCase(ctx context.Context, work chan int) {
	for {
		select {
		case <-ctx.Done():
			c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			use(c)
			return
		case <-work:
		}
	}
}

// After a select whose done case falls out of it.
func afterSelect(ctx context.Context, sig chan struct{}) {
	select {
	case <-ctx.Done():
	case <-sig:
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	use(c)
}

// After a loop left by a labelled break in the done case.
func afterLoop(ctx context.Context, work chan int) {
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-work:
		}
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	use(c)
}

// After a loop left when ctx.Err() is set.
func afterErrLoop(ctx context.Context) {
	for {
		if ctx.Err() != nil {
			break
		}
		time.Sleep(time.Second)
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	use(c)
}

// After a loop that runs while ctx is live.
func afterWhileLive(ctx context.Context) {
	for ctx.Err() == nil {
		time.Sleep(time.Second)
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	use(c)
}

// In the branch where ctx.Err() is not nil.
func errBranch(ctx context.Context) error {
	if ctx.Err() != nil {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return nil
}

func errVarBranch(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return nil
}

func errReversed(ctx context.Context) error {
	if nil != ctx.Err() && true {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return nil
}

func errElse(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	} else {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
}

func errNot(ctx context.Context) error {
	if !(ctx.Err() == nil) {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return nil
}

// After an early return while ctx is live.
func errEarlyReturn(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return use(c)
}

func causeBranch(ctx context.Context) error {
	if context.Cause(ctx) != nil {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return nil
}

// A context error from the work itself.
func canceledErr(ctx context.Context) error {
	err := use(ctx)
	if errors.Is(err, context.Canceled) {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	if err == context.DeadlineExceeded {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return err
}

func switchErr(ctx context.Context) error {
	switch ctx.Err() {
	case nil:
		return nil
	case context.Canceled, context.DeadlineExceeded:
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return nil
}

func switchTagless(ctx context.Context) error {
	switch {
	case ctx.Err() != nil:
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	}
	return nil
}

// Done in a literal that runs in the done branch.
func doneThenRetry(ctx context.Context) error {
	<-ctx.Done()
	return retry(func() error {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return use(c)
	})
}

// A handler waiting for the request's context.
func (s *service) watch(ctx context.Context, stop chan struct{}) {
	select {
	case <-stop:
		return
	case <-ctx.Done():
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	use(c)
}

// A cleanup literal called once ctx is done.
func cleanupAfterDone(ctx context.Context) {
	cleanup := func() {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		use(c)
	}
	<-ctx.Done()
	cleanup()
}

type process struct{}

func (process) Start(ctx context.Context) error  { return nil }
func (process) Delete(ctx context.Context) error { return nil }

// Cleanup after work given ctx failed: the error may be ctx's own.
func cleanupAfterFailure(ctx context.Context, p process) (err error) {
	if err = p.Start(ctx); err != nil {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		p.Delete(c)
		return err
	}
	return nil
}

func cleanupAfterFailurePrev(ctx context.Context, p process) error {
	err := p.Start(ctx)
	if err != nil && p != (process{}) {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		p.Delete(c)
	}
	return err
}

func die(msg string) { panic(msg) }

// A call that never returns cuts its path: after it, ctx is done on
// every path there is.
func afterNoReturn(ctx context.Context) error {
	if ctx.Err() == nil {
		die("still live")
	}
	c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return use(c)
}
