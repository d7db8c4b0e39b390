// Package handoff holds new contexts and literals handed to an owner that
// outlives the call, known through facts on the callee (package lib and
// this package), and contexts used only by deferred calls.
package handoff

import (
	"context"
	"time"

	"handoff/lib"
)

func use(context.Context) error { return nil }

// Handed to a callee that stores it in a struct it keeps.
func start(ctx context.Context, m *lib.Manager) {
	mctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	m.Start(mctx)
}

// Through a callee that hands it on.
func keep(ctx context.Context, m *lib.Manager) {
	mctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	lib.Keep(m, mctx)
}

func register(ctx context.Context, reg *lib.Registry) {
	rctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	lib.Register(reg, "x", rctx)
}

// Kept by a callee of this package.
type holder struct{ ctx context.Context }

func (h *holder) set(ctx context.Context) { h.ctx = ctx } // want set:`^handoff\(keeps 0\)$`

func local(ctx context.Context, h *holder) {
	hctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	h.set(hctx)
}

// A literal handed to a callee that starts it in a goroutine (a process
// runner's Add).
func runner(ctx context.Context, r *lib.Runner) {
	r.AddAll(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	})
}

func actors(ctx context.Context, g *lib.Actors) {
	g.Add(func() error {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		return use(c)
	}, func(error) {})
}

func later(ctx context.Context) {
	lib.Later(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	})
}

func submit(ctx context.Context, m *lib.Manager) {
	sctx, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	m.Submit(sctx, nil)
}

// A context used only by deferred calls: cleanup.
func unlock(ctx context.Context, key string) error { return nil }

func lockedWork(ctx context.Context, key string) error {
	uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	defer unlock(uctx, key)
	return use(ctx)
}

func lockedWorkLiteral(ctx context.Context, key string) error {
	uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	defer func() {
		_ = unlock(uctx, key)
	}()
	return use(ctx)
}

// Look-alikes: reported.

// A literal with its own context parameter, handed to a runner, inherits
// the context the runner gives it.
func runnerOwnParam(ctx context.Context, r *lib.Runner) {
	r.Add(func(rctx context.Context) error {
		c, cancel := context.WithTimeout(context.Background(), time.Minute) // want `inherited from rctx$`
		defer cancel()
		return use(c)
	})
}

// A group that is waited for runs its functions during the call.
func group(ctx context.Context, g *lib.Group) {
	g.Go(func() error {
		c, cancel := context.WithTimeout(context.Background(), time.Minute) // want `inherited from ctx$`
		defer cancel()
		return use(c)
	})
	g.Wait()
}

// Callees that use the context during the call, or return it to the
// caller.
func request(ctx context.Context) error {
	rctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return lib.Do(rctx, lib.NewRequest(rctx, "/x"))
}

func withContext(ctx context.Context, r *lib.Request) error {
	rctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	return lib.Do(ctx, r.WithContext(rctx))
}

func watch(ctx context.Context) {
	wctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	lib.Watch(wctx, cancel)
	use(wctx)
}

func parallel(ctx context.Context) {
	lib.Parallel(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
		defer cancel()
		use(c)
	})
}

func each(ctx context.Context) {
	lib.Each([]func() error{func() error {
		return nil
	}})
	c, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	use(c)
}

func target(ctx context.Context) {
	var parent context.Context
	tctx, cancel := context.WithTimeout(context.Background(), time.Second) // want `inherited from ctx$`
	defer cancel()
	lib.SetTarget(&parent, tctx)
	use(parent)
}

// Used by a deferred call and by the work itself.
func deferredAndWork(ctx context.Context, key string) error {
	uctx, cancel := context.WithTimeout(context.Background(), 5*time.Second) // want `inherited from ctx$`
	defer cancel()
	defer unlock(uctx, key)
	return use(uctx)
}
