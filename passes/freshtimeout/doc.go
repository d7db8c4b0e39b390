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
// WithTimeoutCause and WithDeadlineCause whose parent is a fresh root:
//
//   - context.Background() or context.TODO(), written at the call, also
//     inside context.WithValue, WithCancel, WithCancelCause or
//     WithoutCancel (none of them adds a deadline, so the result is as
//     fresh as the root);
//   - a local variable, or an unexported package variable, that only ever
//     holds one of those (an exported one may be set by another package);
//   - a context parameter reassigned to one on every path to the call
//     (ctx = context.Background(); context.WithTimeout(ctx, d)), but not
//     where some path keeps the caller's value (if ctx == nil { ctx =
//     context.Background() }).
//
// inside a function that inherited a context:
//
//   - a context.Context parameter (any name, also _ or unnamed), or a
//     parameter whose type is a type parameter constrained by
//     context.Context;
//   - an *http.Request parameter r, whose context is r.Context() (this
//     covers net/http and chi handlers);
//   - the request types of web frameworks, where the request's context is
//     certain: *gin.Context (c.Request.Context(); a gin.Context is itself
//     a context.Context, but by default its Deadline and Done do not
//     reach the request's), echo.Context (c.Request().Context()) and
//     fiber v2's *fiber.Ctx (c.UserContext(), where middleware puts the
//     request's deadline; c.Context() is the fasthttp connection context);
//   - a parameter whose type has a method Context() context.Context: a
//     gRPC streaming handler's stream (grpc.ServerStream and the
//     generated stream types that embed it, grpc.ClientStream), a cobra
//     *Command (cmd.Context()). The testing package's types are left out:
//     a test's Context is its own lifetime, not a deadline a caller set.
//
// A context.Context parameter wins over the others. The context package
// is matched by its objects, so a renamed or dot import is found too.
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
// discarding the deadline inherited from ctx"; "… through bg", "…
// through context.WithValue", "… through reassigned ctx"), and points at
// the parameter ("ctx inherited here"), and at the variable's declaration
// or the reassignments.
//
// # Function literals
//
// A function literal inherits the context of the function around it
// when it runs while that function runs: when it is called, or passed to
// a call (a retry library's operation, an errgroup's Go, a helper),
// directly or through a local variable; or when a go statement starts it
// and the function waits for that goroutine — after the go statement it
// receives from a channel the goroutine sends on or closes, ranges over
// it, or calls Wait on a sync.WaitGroup the goroutine calls Done on; or
// it closes a channel the goroutine receives from, which ends the
// goroutine with the call. It inherits whether or not it mentions the
// context: a closure that builds its own timeout from
// context.Background() inside a retry is the commonest form of the bug,
// and the closures retry libraries take often receive no context at all.
// A literal with its own context parameter inherits that one instead,
// wherever it goes (an owner that calls it later passes it one).
//
// # Not reported
//
// Each exemption holds only where a fresh root is the right parent, or
// where the pass cannot see who owns the new context:
//
//   - Functions that inherited no context (main, init, constructors,
//     tests without a context parameter): there is no deadline to adopt.
//   - Literals that may run after the function returned or once its
//     context is done, which is detached work or cleanup that must
//     outlive the caller's cancellation: started by a go statement the
//     function does not wait for, or deferred (directly, through a
//     variable, or as an argument of the call that go or defer runs);
//     handed to context.AfterFunc, time.AfterFunc, a test's Cleanup,
//     runtime.SetFinalizer or AddCleanup, or
//     (*http.Server).RegisterOnShutdown; bound to a variable that is
//     called where the inherited context is known to be done; returned,
//     stored in a field, map, slice or global, sent on a channel, or used
//     in any other way the pass cannot follow.
//   - Literals handed to a callee that starts its function argument in a
//     goroutine it does not wait for, or keeps it to run later (a process
//     runner's Add, known through a fact on the callee, see below), unless
//     the function then calls Wait on the same receiver (sync.WaitGroup's
//     Go, an errgroup-like group): the literal runs on its owner's time.
//   - Shared work run once for many callers: sync.Once.Do, sync.OnceFunc,
//     OnceValue, OnceValues, singleflight's Do and DoChan. One caller's
//     deadline must not decide for all.
//   - A new context handed off to an owner that outlives the call: stored
//     in a field, a global, a composite literal or a channel; passed to
//     (or captured by) a goroutine the function does not wait for; or
//     passed to a callee that stores it in a struct it keeps (a fact).
//     Such a detach is deliberate, and its owner is out of sight. A
//     context returned to the caller is reported: the caller runs with it
//     in place of the one it passed.
//   - A new context used only by deferred calls (defer unlock(uctx, key),
//     or in a deferred literal): that is cleanup, which runs as the
//     function returns, typically because its context is done. Used by
//     any other call too, it is reported.
//   - Branches where the inherited context is nil (if ctx == nil { ... },
//     or after if ctx != nil { return }): there is nothing to derive from.
//   - Parents built with context.WithoutCancel(ctx): an explicit, visible
//     decision to detach.
//   - Code that every path reaches only once the inherited context is
//     known to be done: after <-ctx.Done(); in a "case <-ctx.Done():"
//     clause, or after a select that carries on from one; where
//     ctx.Err() != nil or context.Cause(ctx) != nil, or ctx.Err() is
//     context.Canceled or DeadlineExceeded (in an if, a loop condition or
//     a switch), or after "if ctx.Err() == nil { return }"; where
//     errors.Is(err, context.Canceled) (or DeadlineExceeded, or err ==
//     either) holds for an error that every path last set from a call
//     given the context. There a fresh root is the only correct parent for
//     shutdown work: deriving from a done context would cancel the
//     shutdown at once. A context the function did not derive (a field
//     holding its owner's lifetime, another parameter) counts like the
//     inherited one: its owner being done is shutdown too. A child that
//     the function derived (with WithCancel, WithTimeout, WithDeadline,
//     their Cause forms, signal.NotifyContext, or WithValue of one) does
//     not: its own timeout or cancel says nothing about the caller's
//     context, and a fresh root after it is reported — after its Done, in
//     its done case, where its Err() is set, or where the error of a call
//     given only the child is DeadlineExceeded. Neither does an error of
//     a call given no context.
//   - Cleanup of the resource whose call given the inherited context just
//     failed: the branch where err != nil (or the else of err == nil),
//     where every path last set err from a method call x.M(..., ctx, ...),
//     and where every use of the new context is a call of another method
//     of the same x (a rollback, x.Delete after x.Start failed). The
//     failure may be the caller's context running out, and the resource
//     must be released either way. A branch that calls anything else with
//     the new context — a second region, the same method again with a
//     longer deadline, a fallback from a cache to the database — does the
//     caller's work again, under a budget the caller never gave, and is
//     reported.
//
// # Facts
//
// The pass exports a fact on each function that takes a context or a
// function argument and hands one to an owner that outlives its call
// (shown as handoff(keeps 0; starts 1) in tests):
//
//   - keeps i: the context parameter i is stored in a field or element of
//     the receiver, of another parameter or of a package variable (also
//     inside a composite literal or through append), or handed to a
//     callee that keeps it. A struct returned to the caller holding it
//     (http.NewRequestWithContext) is not kept: the caller owns it.
//   - starts i: the function parameter i is started in a goroutine the
//     function does not wait for, stored as above, or handed to a callee
//     that starts it or runs it later.
//
// Under the retrylint command, facts flow between the packages it
// analyzes; the standard library and other modules are read from export
// data and have none.
//
// # Fixes
//
// Two alternatives, each leaving the package compiling:
//
//   - "Derive the timeout from ctx" (or "the deadline"; for a stream,
//     "from stream.Context()"): replace the root with the inherited
//     context, adopting its deadline;
//   - "Detach explicitly with context.WithoutCancel(ctx)": for work that
//     must outlive the caller, keep its values but say so; offered only
//     where the file's Go version is at least 1.21.
//
// For a root inside wrappers at the call, the root is replaced
// (context.WithValue(ctx, k, v)). When the root came through a local
// variable, only the argument at the call is replaced; if that was the
// variable's only use, its declaration is deleted too when it stands
// alone on its line, and otherwise no fix is offered. A package variable
// stays. No fix is offered when the parameter is unnamed or shadowed at
// the call, when a parameter named _ cannot be renamed (to ctx, r or c)
// without capturing another name, when a parameter was reassigned to the
// root (its value is gone at the call), when the variable holds a wrapped
// root (replacing it would drop what the wrapper adds), when an import
// would become unused, and in generated and cgo files. Where the new
// context is handed off to an owner that outlives the call nothing is
// reported, so no fix is offered either: whether that owner should carry
// the caller's deadline is its decision.
//
// # Limitations
//
// Control flow is judged within each function, on its go/cfg graph,
// built only for the functions that hold a call being judged. A call
// that never returns cuts its path (internal/noreturn: panic, os.Exit,
// log.Fatal, t.Fatal and the like, or a function of the same package that
// never returns); one of another package that is not on that list still
// counts as returning.
// A goroutine counts as waited for only by a receive, a range or a Wait
// after its go statement in the same function. Work handed to a callee
// without a fact (an interface method, a function value) is treated as
// running during the call. The pass has no flags.
package freshtimeout
