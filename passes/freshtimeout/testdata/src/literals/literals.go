// Package literals holds the positive shapes of function literals that
// run while the function that inherited a context runs.
package literals

import (
	"context"
	"sync"
	"time"
)

func use(context.Context) error { return nil }

// retry stands for a retry library whose operation takes no context.
func retry(op func() error) error { return op() }

func passedToRetry(ctx context.Context) error {
	return retry(func() error {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	})
}

// The literal mentions ctx.
func captures(ctx context.Context) error {
	return retry(func() error {
		if ctx.Err() == nil {
			c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
			defer cancel()
			return use(c)
		}
		return nil
	})
}

func boundThenPassed(ctx context.Context) error {
	op := func() error {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	return retry(op)
}

func boundThenCalled(ctx context.Context) error {
	var op = func() error {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}
	if err := op(); err != nil {
		return op()
	}
	return nil
}

func calledAtOnce(ctx context.Context) error {
	return func() error {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	}()
}

func nested(ctx context.Context) error {
	return retry(func() error {
		return retry(func() error {
			c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
			defer cancel()
			return use(c)
		})
	})
}

// sync.WaitGroup.Go runs the literal in a goroutine, but Wait keeps it
// within the caller's time.
func waitGroup(ctx context.Context) {
	var wg sync.WaitGroup
	wg.Go(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		use(c)
	})
	wg.Wait()
}

// A literal with its own context parameter inherits that one, wherever it
// goes.
func makeHandler() func(context.Context) error {
	return func(reqCtx context.Context) error {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from reqCtx$`
		defer cancel()
		return use(c)
	}
}

// The innermost context wins.
func innermost(ctx context.Context) {
	h := func(inner context.Context) {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from inner$`
		defer cancel()
		use(c)
	}
	h(ctx)
}

// A literal in a package-level variable with its own context parameter.
var handler = func(ctx context.Context) {
	_, cancel := context.WithTimeout(context.TODO(), time.Second) // want `inherited from ctx$`
	cancel()
}

// Called before ctx is known to be done: it inherits.
func cleanupBeforeDone(ctx context.Context) {
	flush := func() {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel()
		use(c)
	}
	flush()
	<-ctx.Done()
}
