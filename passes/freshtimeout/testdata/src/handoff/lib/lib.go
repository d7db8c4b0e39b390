// Package lib declares callees whose facts say whether they hand their
// context or function arguments to an owner that outlives the call.
package lib

import (
	"context"
	"sync"
	"time"
)

// Manager keeps the context it is started with.
type Manager struct {
	ctx  context.Context
	jobs []job
}

type job struct {
	ctx context.Context
	run func(context.Context) error
}

func (m *Manager) Start(ctx context.Context) { // want Start:`^handoff\(keeps 0\)$`
	m.ctx = ctx
	go m.loop()
}

func (m *Manager) loop() {}

// Submit keeps both arguments in a struct it appends to a field.
func (m *Manager) Submit(ctx context.Context, run func(context.Context) error) { // want Submit:`^handoff\(keeps 0; starts 1\)$`
	m.jobs = append(m.jobs, job{ctx: ctx, run: run})
}

// Registry keeps contexts by name.
type Registry struct{ ctxs map[string]context.Context }

func Register(reg *Registry, name string, ctx context.Context) { // want Register:`^handoff\(keeps 2\)$`
	reg.ctxs[name] = ctx
}

// Keep hands ctx on to a callee that keeps it.
func Keep(m *Manager, ctx context.Context) { // want Keep:`^handoff\(keeps 1\)$`
	m.Start(ctx)
}

// Runner starts what it is given in goroutines and lets them run.
type Runner struct{ ctx context.Context }

func (r *Runner) Add(fn func(ctx context.Context) error) { // want Add:`^handoff\(starts 0\)$`
	go fn(r.ctx)
}

func (r *Runner) AddAll(fns ...func()) { // want AddAll:`^handoff\(starts 0\)$`
	for _, fn := range fns {
		go func() { fn() }()
	}
}

// Actors keeps functions to run them later (a process runner).
type Actors struct{ actors []actor }

type actor struct {
	execute   func() error
	interrupt func(error)
}

func (g *Actors) Add(execute func() error, interrupt func(error)) { // want Add:`^handoff\(starts 0,1\)$`
	g.actors = append(g.actors, actor{execute, interrupt})
}

// Later runs fn after a while, from a timer.
func Later(fn func()) { // want Later:`^handoff\(starts 0\)$`
	time.AfterFunc(time.Second, fn)
}

// Delegate hands fn to a runner that starts it.
func Delegate(r *Runner, fn func(context.Context) error) { // want Delegate:`^handoff\(starts 1\)$`
	r.Add(fn)
}

// Group starts each function in a goroutine its Wait waits for.
type Group struct{ wg sync.WaitGroup }

func (g *Group) Go(f func() error) { // want Go:`^handoff\(starts 0\)$`
	g.wg.Add(1)
	go func() {
		defer g.wg.Done()
		f()
	}()
}

func (g *Group) Wait() { g.wg.Wait() }

// Look-alikes: no fact.

// Request is returned to the caller, who owns it.
type Request struct{ ctx context.Context }

func NewRequest(ctx context.Context, url string) *Request {
	return &Request{ctx: ctx}
}

// WithContext copies the request: the copy is a local that is returned.
func (r *Request) WithContext(ctx context.Context) *Request {
	r2 := new(Request)
	*r2 = *r
	r2.ctx = ctx
	return r2
}

// Do uses ctx during the call.
func Do(ctx context.Context, r *Request) error {
	<-ctx.Done()
	return nil
}

// Watch watches ctx from a goroutine, but keeps it nowhere.
func Watch(ctx context.Context, stop func()) {
	go func() {
		<-ctx.Done()
	}()
}

// Parallel waits for the goroutines it starts.
func Parallel(fns ...func()) {
	var wg sync.WaitGroup
	for _, fn := range fns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn()
		}()
	}
	wg.Wait()
}

// Each calls its functions during the call.
func Each(fns []func() error) {
	for _, f := range fns {
		f()
	}
}

// SetTarget stores through a pointer: the caller's own variable.
func SetTarget(p *context.Context, ctx context.Context) { *p = ctx }
