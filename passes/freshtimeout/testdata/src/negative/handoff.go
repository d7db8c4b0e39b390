package negative

import (
	"context"
	"time"
)

type worker struct {
	ctx    context.Context
	cancel context.CancelFunc
}

func (w *worker) loop(ctx context.Context) {}

// The new context is stored in a field: it outlives the call, a deliberate
// detach whose owner the pass cannot see.
func (w *worker) Start(ctx context.Context) {
	w.ctx, w.cancel = context.WithTimeout(context.Background(), time.Hour)
	go w.loop(w.ctx)
}

// Passed to a goroutine.
func startJob(ctx context.Context) {
	jobCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
	go func() {
		defer cancel()
		use(jobCtx)
	}()
}

func startJobCall(ctx context.Context, w *worker) {
	jobCtx, cancel := context.WithTimeout(context.Background(), time.Minute)
	_ = cancel
	go w.loop(jobCtx)
}

// Put in a struct.
func newWorker(ctx context.Context) *worker {
	c, cancel := context.WithTimeout(context.Background(), time.Hour)
	return &worker{ctx: c, cancel: cancel}
}

// Sent on a channel.
func sendContext(ctx context.Context, ch chan context.Context) {
	c, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	ch <- c
}

// Stored in a global.
var global context.Context

func setGlobal(ctx context.Context) {
	c, cancel := context.WithTimeout(context.Background(), time.Hour)
	_ = cancel
	global = c
}

// A nil inherited context has nothing to derive from.
func nilContext(ctx context.Context) {
	if ctx == nil {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
		return
	}
	use(ctx)
}

func nilContextEarly(ctx context.Context) {
	if ctx != nil {
		use(ctx)
		return
	}
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

func nilOrDone(ctx context.Context) {
	if ctx == nil || ctx.Err() != nil {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}
}
