// Package negative holds code the pass must stay silent on: look-alikes
// of every positive shape.
package negative

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"
)

func use(context.Context) error { return nil }

func retry(op func() error) error { return op() }

func run(f func()) { f() }

// Started by a go statement: detached work.
func goLiteral(ctx context.Context) {
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	}()
}

// Started by go through a variable.
func goVariable(ctx context.Context) {
	work := func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	}
	go work()
}

// An argument of the call that go starts.
func goArgument(ctx context.Context) {
	go run(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	})
}

// A goroutine in a handler.
func goInHandler(w http.ResponseWriter, r *http.Request) {
	go func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	}()
}

// A go statement in a literal in a function with ctx.
func goNested(ctx context.Context) error {
	return retry(func() error {
		go func() {
			c, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			use(c)
		}()
		return nil
	})
}

// A go-started literal with its own context parameter: still detached.
func goOwnParam(ctx context.Context) {
	go func(ctx context.Context) {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	}(ctx)
}

// Deferred cleanup must run after cancellation.
func deferred(ctx context.Context) {
	defer func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}()
}

// Deferred through a variable.
func deferredVariable(ctx context.Context) {
	cleanup := func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}
	defer cleanup()
}

// An argument of a deferred call.
func deferredArgument(ctx context.Context) {
	defer run(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	})
}

// A variable both called and started by go counts as detached.
func calledAndStarted(ctx context.Context) {
	work := func() {
		c, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		use(c)
	}
	work()
	go work()
}

// Run once ctx is done.
func afterFunc(ctx context.Context) {
	context.AfterFunc(ctx, func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	})
}

// Run later by a timer.
func timer(ctx context.Context) {
	time.AfterFunc(time.Minute, func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	})
}

type conn struct{}

// Run by the garbage collector.
func finalizer(ctx context.Context, c *conn) {
	runtime.SetFinalizer(c, func(*conn) {
		cc, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(cc)
	})
}

// Run at shutdown.
func onShutdown(ctx context.Context, srv *http.Server) {
	srv.RegisterOnShutdown(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	})
}

// Run after the test.
func cleanup(ctx context.Context, t *testing.T) {
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	})
}

func cleanupTB(ctx context.Context, tb testing.TB) {
	tb.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	})
}

type closer struct {
	stop func()
}

// Returned: runs after the function returned.
func returned(ctx context.Context) func() {
	return func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}
}

// Stored in a field.
func stored(ctx context.Context, cl *closer) {
	cl.stop = func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}
}

// In a composite literal.
func composite(ctx context.Context) *closer {
	return &closer{stop: func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}}
}

// Sent on a channel.
func sent(ctx context.Context, ch chan func()) {
	ch <- func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}
}

// Bound to a variable that escapes.
func boundAndReturned(ctx context.Context) func() {
	f := func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	}
	return f
}

// A package-level literal without a context parameter.
var startup = func() {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	use(c)
}

type lazy struct {
	once sync.Once
	conn error
}

// One-time initialisation shared by all callers: the first caller's
// deadline must not decide for all.
func (l *lazy) get(ctx context.Context) error {
	l.once.Do(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		l.conn = use(c)
	})
	return l.conn
}

var loadConfig = sync.OnceValue(func() error {
	c, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return use(c)
})

func (l *lazy) onceFunc(ctx context.Context) func() {
	return sync.OnceFunc(func() {
		c, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		use(c)
	})
}
