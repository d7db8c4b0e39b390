// Package freshtimeout defines an Analyzer that reports context timeouts
// whose parent is a fresh root although the function inherited a context.
//
// # Analyzer freshtimeout
//
// freshtimeout: report timeouts that replace an inherited deadline
//
// Per-hop timeouts compound like retries: five services that each start
// a fresh 5-second timeout permit 25 seconds of work for a caller who gave
// up after 3. A callee must adopt its caller's deadline, never extend it.
// The pass reports calls of context.WithTimeout, WithDeadline,
// WithTimeoutCause and WithDeadlineCause whose parent is
// context.Background() or context.TODO(), written at the call or held in
// a local variable that only ever holds one of them, inside a function
// that inherited a context:
//
//   - a context.Context parameter (any name, also _ or unnamed);
//   - an *http.Request parameter r, whose context is r.Context() (this
//     covers net/http and chi handlers);
//   - the request types of web frameworks, where the request's context is
//     certain: *gin.Context (c.Request.Context(); a gin.Context is itself
//     a context.Context, but by default its Deadline and Done do not
//     reach the request's), echo.Context (c.Request().Context()) and
//     fiber v2's *fiber.Ctx (c.UserContext(), where middleware puts the
//     request's deadline; c.Context() is the fasthttp connection context).
//
// A context.Context parameter wins over a request parameter. The
// context package is matched by its objects, so a renamed or dot import
// is found too.
//
// Bad:
//
//	func (s *Store) Get(ctx context.Context, id string) (*Item, error) {
//		ctx2, cancel := context.WithTimeout(context.Background(), 5*time.Second)
//		defer cancel()
//		return s.db.Get(ctx2, id)
//	}
//
// Good:
//
//	func (s *Store) Get(ctx context.Context, id string) (*Item, error) {
//		ctx2, cancel := context.WithTimeout(ctx, 5*time.Second)
//		defer cancel()
//		return s.db.Get(ctx2, id)
//	}
//
// The diagnostic sits on the context.With… call, names the inherited
// context ("context.WithTimeout starts from context.Background,
// discarding the deadline inherited from ctx"), and points at the
// parameter ("ctx inherited here").
//
// # Function literals
//
// A function literal inherits the context of the function around it
// when it runs while that function runs: when it is called, or passed to
// a call (a retry library's operation, an errgroup's Go, a helper),
// directly or through a local variable. It does so whether or not it
// mentions the context: a closure that builds its own timeout from
// context.Background() inside a retry is the commonest form of the bug,
// and the closures retry libraries take often receive no context at all.
// A literal with its own context parameter inherits that one instead.
//
// A literal does not inherit, and nothing in it is reported, when it may
// run after the function returned or once its context is done:
//
//   - it is started by a go statement, or is deferred (directly, through
//     a variable, or as an argument of the call that go or defer runs):
//     detached work and cleanup that must outlive cancellation;
//   - it is handed to context.AfterFunc, time.AfterFunc, a test's
//     Cleanup, runtime.SetFinalizer or AddCleanup, or
//     (*http.Server).RegisterOnShutdown;
//   - it is shared work run once for many callers: sync.Once.Do,
//     sync.OnceFunc, OnceValue, OnceValues, singleflight's Do and DoChan
//     (one caller's deadline must not decide for all);
//   - it is returned, stored in a field, map, slice or global, sent on a
//     channel, or used in any other way the pass cannot follow;
//   - it is bound to a variable that is called where a context is known
//     to be done (cleanup := func() {...}; <-ctx.Done(); cleanup()).
//
// # Not reported
//
//   - Functions that inherited no context: main, init, constructors,
//     tests without a context parameter.
//   - Contexts handed to work that outlives the function: the new
//     context is stored in a field, a global, a composite literal or a
//     channel, or passed to (or captured by) a goroutine. Such a detach
//     is deliberate, and its owner is out of sight. A context returned to
//     the caller is reported: the caller runs with it in place of the one
//     it passed.
//   - Branches where the inherited context is nil (if ctx == nil { ... },
//     or after if ctx != nil { return }): there is nothing to derive from.
//   - Parents built with context.WithoutCancel(ctx): an explicit, visible
//     decision to detach. A variable that sometimes holds something other
//     than a fresh root (ctx, a derived context) is not a fresh root.
//   - Code where a context is known to be done: after a statement
//     <-ctx.Done(); in a "case <-ctx.Done():" clause; after a select
//     whose ctx.Done() case reaches its end, or a loop left by a break
//     under such a case; in the branch where ctx.Err() != nil,
//     context.Cause(ctx) != nil, err == context.Canceled or
//     errors.Is(err, context.DeadlineExceeded) holds; after
//     "if ctx.Err() == nil { return }"; in the branch where an error
//     just returned by a call that was given the inherited context is not
//     nil (if err = p.Start(ctx); err != nil { ...cleanup... }), since
//     that error may be the context's own. There a fresh root is the only
//     correct parent for shutdown work: deriving from a done context would
//     cancel the shutdown at once. Any context's Done or Err counts, not
//     only the inherited one's.
//
// # Fixes
//
// Two alternatives, each leaving the package compiling:
//
//   - "Derive the timeout from ctx" (or "the deadline"): replace the root
//     with the inherited context, adopting its deadline;
//   - "Detach explicitly with context.WithoutCancel(ctx)": for work that
//     must outlive the caller, keep its values but say so; offered only
//     where the file's Go version is at least 1.21.
//
// When the root came through a variable, only the argument at the call is
// replaced; if that was the variable's only use, its declaration is
// deleted too when it stands alone on its line, and otherwise no fix is
// offered. No fix is offered when the parameter is unnamed or shadowed at
// the call, when a parameter named _ cannot be renamed (to ctx, r or c)
// without capturing another name, when an import would become unused, and
// in generated and cgo files.
//
// # Limitations
//
// Only the direct roots are recognised: a parent built from
// context.Background() by WithValue or WithCancel is not followed. Work
// handed to a callee that runs it later, other than the ones listed
// above, is treated as running during the call. The pass has no flags.
package freshtimeout
