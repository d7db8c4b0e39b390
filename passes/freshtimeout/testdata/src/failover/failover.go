// Package failover holds fresh budgets in the error branch of a call
// given the inherited context: reported when they do the caller's work
// again (a second region, a second attempt, a fallback store), silent
// when they clean up the resource whose call failed.
package failover

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type client struct{}

func (client) Call(ctx context.Context, key string) (string, error) { return "", nil }
func (client) CallLong(ctx context.Context, key string) (string, error) {
	return "", nil
}

type store struct {
	primary, secondary client
	cache, db          client
}

// A failover to a second region on a budget the caller never gave.
func (s *store) failover(ctx context.Context, k string) (string, error) {
	v, err := s.primary.Call(ctx, k)
	if err != nil {
		fctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // want `inherited from ctx$`
		defer cancel()
		return s.secondary.Call(fctx, k)
	}
	return v, nil
}

// The same failover with the error checked in the if statement.
func failoverInit(ctx context.Context, primary, secondary client, k string) (string, error) {
	if v, err := primary.Call(ctx, k); err == nil {
		return v, nil
	} else {
		fctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // want `inherited from ctx$`
		defer cancel()
		return secondary.Call(fctx, k)
	}
}

// A second attempt of the same call with a longer deadline.
func secondAttempt(ctx context.Context, c client, k string) (string, error) {
	v, err := c.Call(ctx, k)
	if err != nil {
		lctx, cancel := context.WithTimeout(context.Background(), time.Minute) // want `inherited from ctx$`
		defer cancel()
		return c.Call(lctx, k)
	}
	return v, nil
}

// A fallback from the cache to the database.
func (s *store) fallback(ctx context.Context, k string) (string, error) {
	v, err := s.cache.Call(ctx, k)
	if err != nil {
		dctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
		defer cancel()
		return s.db.Call(dctx, k)
	}
	return v, nil
}

// The new context cleans up and does more work: the work is reported.
func cleanupAndRetry(ctx context.Context, p *process) error {
	if err := p.Start(ctx); err != nil {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second) // want `inherited from ctx$`
		defer cancel()
		p.Delete(c)
		return p.Start(c)
	}
	return nil
}

// A cleanup on another receiver than the failed call's.
func cleanupElsewhere(ctx context.Context, p, q *process) error {
	if err := p.Start(ctx); err != nil {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second) // want `inherited from ctx$`
		defer cancel()
		q.Delete(c)
		return err
	}
	return nil
}

// A failed call that was not a method call: no resource to clean up.
func failedFunc(ctx context.Context, p *process) error {
	if err := start(ctx); err != nil {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second) // want `inherited from ctx$`
		defer cancel()
		return p.Delete(c)
	}
	return nil
}

func start(ctx context.Context) error { return nil }

// The error may come from a call not given ctx on one path.
func mixedErr(ctx context.Context, p *process, fast bool) error {
	err := p.Start(ctx)
	if fast {
		err = p.check()
	}
	if err != nil {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second) // want `inherited from ctx$`
		defer cancel()
		return p.Delete(c)
	}
	return nil
}

// errors.Is on an error of a call that was not given ctx: not known to be
// ctx's own.
func otherSentinel(ctx context.Context, p *process, c2 client) (string, error) {
	err := p.check()
	if errors.Is(err, context.DeadlineExceeded) {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second) // want `inherited from ctx$`
		defer cancel()
		return c2.Call(c, "k")
	}
	return "", err
}

type process struct{}

func (*process) Start(ctx context.Context) error  { return nil }
func (*process) Delete(ctx context.Context) error { return nil }
func (*process) check() error                     { return nil }

type tx struct{}

func (*tx) Exec(ctx context.Context, q string) error { return nil }
func (*tx) Rollback(ctx context.Context) error       { return nil }

// A rollback of the transaction whose statement failed.
func rollback(ctx context.Context, t *tx) error {
	if err := t.Exec(ctx, "UPDATE x"); err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = t.Rollback(rctx)
		return err
	}
	return nil
}

// The same rollback, the error set before the if statement.
func (s *svc) rollbackField(ctx context.Context) error {
	err := s.tx.Exec(ctx, "UPDATE x")
	if err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.tx.Rollback(rctx)
	}
	return err
}

type svc struct{ tx *tx }

// Start, then delete on failure (a process runner's cleanup).
func startThenDelete(ctx context.Context, p *process) (err error) {
	if err = p.Start(ctx); err != nil {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		p.Delete(c)
		return err
	}
	return nil
}

// The else branch of err == nil is the failure branch.
func deleteInElse(ctx context.Context, p *process) error {
	if err := p.Start(ctx); err == nil {
		return nil
	} else {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		p.Delete(c)
		return err
	}
}

// The error is known to be the inherited context's own.
func ownError(ctx context.Context, primary, secondary client, k string) (string, error) {
	v, err := primary.Call(ctx, k)
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return secondary.Call(c, k)
	}
	return v, err
}

func ownErrorEquals(ctx context.Context, primary, secondary client, k string) (string, error) {
	v, err := primary.Call(ctx, k)
	if err == context.DeadlineExceeded {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return secondary.Call(c, k)
	}
	return v, err
}

// Two cleanup methods of the failed call's receiver.
func rollbackAndClose(ctx context.Context, t *conn) error {
	if err := t.Exec(ctx, "INSERT"); err != nil {
		rctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		t.Rollback(rctx)
		t.Close(rctx)
		return err
	}
	return nil
}

type conn struct{}

func (*conn) Exec(ctx context.Context, q string) error { return nil }
func (*conn) Rollback(ctx context.Context) error       { return nil }
func (*conn) Close(ctx context.Context) error          { return nil }

// In a handler: the failed call was given r.Context().
func handlerCleanup(w http.ResponseWriter, r *http.Request, p *process) {
	if err := p.Start(r.Context()); err != nil {
		c, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		p.Delete(c)
	}
}

// The inherited context's own error, from the if statement.
func ownErrorInit(ctx context.Context, primary, secondary client, k string) (string, error) {
	if v, err := primary.Call(ctx, k); errors.Is(err, context.Canceled) {
		c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return secondary.Call(c, k)
	} else {
		return v, err
	}
}

// A failover whose second call is made in a goroutine nobody waits for:
// detached.
func failoverDetached(ctx context.Context, primary, secondary client, k string) {
	if _, err := primary.Call(ctx, k); err != nil {
		go func() {
			c, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			secondary.Call(c, k)
		}()
	}
}

// A failover that hands its context to a callee that keeps it.
type pending struct{ ctx context.Context }

func (p *pending) retryLater(ctx context.Context) { p.ctx = ctx } // want retryLater:`^handoff\(keeps 0\)$`

func failoverQueued(ctx context.Context, primary client, q *pending, k string) {
	if _, err := primary.Call(ctx, k); err != nil {
		c, cancel := context.WithTimeout(context.Background(), time.Hour)
		_ = cancel
		q.retryLater(c)
	}
}
