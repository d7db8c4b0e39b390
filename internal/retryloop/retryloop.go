// Package retryloop defines what a hand-written retry loop is, and decides
// it for one for statement at a time on the loop's control-flow graph. It
// is the definition every retrylint pass uses, through the retry-site
// analysis (internal/retrysite), which asks it of every loop of a package
// and answers the questions it asks of the rest of the analysis (Host:
// which calls ask a budget, which do local work only, which can return,
// what initialises a variable, where a function is declared).
//
// A Loop records what the definition found: the attempt, the kinds of
// failure that reach the next attempt, the failures that reach it without
// asking a budget, the points where every failing path meets on its way to
// the next attempt (a guard placed there covers every failure), what the
// failing paths hold at the top of the next iteration, the nodes that run
// between two attempts, the waits among them, the bound and the exits that
// make it, and the exemption, with its reason.
//
// # Definition
//
// A for statement (for {}, for cond {}, a counted for, a range over an
// integer, or a range over a retry timer: an iterator made by a function
// of the package whose literal counts to one of its parameters, yielding
// once per turn and waiting after each yield, bounded by the argument of
// that parameter; a range over a list only as failover, below) is a retry loop
// when one call of its body, the attempt, satisfies all of these on the
// loop's control-flow graph:
//
//  1. The attempt can fail: its results include an error, a response, a
//     channel of errors or a value that carries an error, and it is not
//     local work (a standard package that does no I/O of a dependency, a
//     listen on a local address, net.Listen: a port in use waits for
//     this machine, not a dependency; an error's own method, or a
//     function of the package whose error calls are all of those), nor a
//     translation of an error (a call whose one
//     result is an error and that takes one: ContextError(ctx, err) says
//     what a failure was, it attempts nothing).
//  2. A failure reaches the attempt again: following every path forward
//     from the attempt, with what each condition on the way says of its
//     outcome, some path on which a test looked at the outcome and found
//     a failure an outage produces (an error, a 429, 408 or 5xx status)
//     arrives at the attempt again through the loop's head. What counts as
//     failure is what the code tests as failure: a non-nil error, also
//     classified (errors.Is, errors.As, a type assertion, a predicate of
//     the error such as isRetryable(err), also the boolean of one with
//     more to say and no error, retry, why := p.shouldRetry(err, n));
//     the status of the attempt's
//     response (resp.StatusCode < 300, a switch on it, resp.IsSuccess(),
//     or the integer a function of the package returns as the status of
//     its response, code, err := c.get(ctx); if err == nil && code ==
//     200, where each of its returns gives there a response's status or
//     a constant: statusResults, loop.go;
//     or a lookup in a map of booleans by it, retryOn[resp.StatusCode],
//     read as a set of failing statuses: in it, the status is a failure;
//     out of it, any; or a comparison with the element of a range over a
//     list, for _, code := range retryOn { if resp.StatusCode == code
//     {...} }, a set too: a list of constants holds those statuses, a
//     list named for retries the failing ones, other lists say nothing;
//     or a predicate of the package given the response and a list of
//     integers, whose body reads the response's status and the list,
//     ResponseHasStatusCode(resp, codes...): where it holds the status is
//     one the caller lists, a failure the loop names but not one an
//     outage is known to give, so a poll that goes round only on it stays
//     a poll: statusListTest, cond.go);
//     the kind of an answer that carries an error (out.kind == txOK, a
//     switch on it), when the package's literals of the answer's type
//     make that kind only without an error (success) or only with one (a
//     failure);
//     a verdict returned with the attempt whose name says it wants a retry
//     (retry, err := try()), or, when the attempt is a call of a function
//     value (a parameter, a variable or a field of func type) that returns
//     only a boolean and an error and nothing on the path has told its
//     failure from its success, whose value the loop itself says goes
//     round: the loop is left on one value and every test of the verdict
//     agrees (shouldContinue, err = f(i); if !shouldContinue { return err
//     }: what the value means is the loop's contract with whoever
//     supplies f, and true goes round); a flag the loop sets from such
//     tests (one declared in the body before the attempt holds its
//     declared value there, var retry bool is false), also
//     more than once (needsRetry := err != nil, then needsRetry =
//     cond(resp, err) for each condition: each value goes on with what
//     it says); an error kept in a field reached through one variable
//     (nc.err = nc.connect(); nc.err != nil), as in a local; an error
//     carried in a result (res.Err,
//     iter.Err()) or received from the attempt's channel, also when a
//     goroutine the body starts makes the attempt and reports it over
//     channels the function holds (go func() { v, err := c.Get(ctx); if
//     err != nil { errs <- err; return }; values <- v }(); select { case
//     v := <-values: ...; case err := <-errs: ... }): where every error
//     it sends on one channel is sent only when it is not nil, a receive
//     from that channel is the attempt's failure and one from its other
//     channel the answer (goCandidates, loop.go); the failure of
//     reading the attempt's stream; a nil answer of a pointer or an
//     interface with methods (a response, a stream, a connection: only a
//     failure gives none, so ws != nil && err == nil is success and its
//     negation a failure; a nil slice, map or any is an empty answer);
//     a search of the attempt's answer that runs out (for _, p := range
//     ps { if p.ID == id { return p } }: a range over the answer whose
//     body only tests the element and leaves the loop when a test holds)
//     is no success: the answer did not hold what the loop waits for;
//     nor is a number the attempt answered that falls short of what an
//     if statement leaving the loop asks of it by its order (n, err :=
//     m.acquireAll(ctx); if n >= m.quorum { return nil }: fallsShort,
//     definition.go), while an error on that path still goes round;
//     nor is an integer code other than the declared constant such an
//     if statement asks for, when the code is the attempt's or one a
//     later call returned beside an error (conn, err = dial(addr); ...;
//     rc, err = handshake(conn); if rc == accepted { break }: the
//     handshake refused, a failure of using the answer; codeRefused,
//     definition.go); a code compared with a literal may be a count, and
//     one read without an error says nothing of how a call went.
//     Conditions the analysis does not
//     understand keep both outcomes on both sides. An answer sentinel is
//     no failure an outage produces: an error variable of the package
//     that the package makes only under conditions that test an answer
//     (if !resp.Succeeded { return ErrKeyExists }, if v == "" { return
//     errAbsent }: no error, no status, no call that can fail in them), so
//     a loop that goes round only on it polls for a state or retries a
//     conflict (sentinel.go). So is an error that says the thing asked
//     for does not exist (fs.ErrNotExist, a client's ErrNoNode): like a
//     404, only a dependency that is up answers so (absentErr).
//  3. Success never reaches the attempt again, and can leave the loop (by
//     return, break, goto or the loop condition; an abort — a panic, a
//     test's Fatal, os.Exit — is no leaving). A loop whose success goes
//     on to the next item, tick or page is no retry loop, nor is a test
//     that asserts an expected error on every iteration.
//  4. The attempt repeats the same operation: its inputs do not depend on
//     what earlier iterations did. A request rebuilt each iteration from
//     loop-invariant values, a copy of the request (req =
//     req.Clone(req.Context())), a handle looked up again, the attempt's number
//     handed on (also in a field of an argument struct, req{attempt: i,
//     last: err}, and a count that starts again from the constant it was
//     declared with, attempts = 1), the failed part of the work
//     (toRetry), what the attempt's error says (the node a redirect
//     names, nodeAt(movedTo(err)), or a field of the error errors.As
//     unwrapped, or what the answer says where only a failure goes:
//     node = nodeAt(out.addr) in the case of a failing kind), a duration handed on (the time left, ttl -= wait: the
//     attempt's time limit, not its work) are the same operation; a page
//     token, an offset, the counter as an index, a halved size, a new
//     value from a channel are not, also when a function of the package
//     takes it (it has a result besides its error, receives from a
//     channel of values, sends on none, and makes no call that can fail
//     but local work and its context's: a consumer group's Next; not
//     when what it receives its own goroutines send, a fan-out of the
//     attempt to every pool gathered from one channel), nor is
//     an argument taken off a queue by a method of the package that
//     reslices its receiver's field (q.items = q.items[1:]: a drained
//     channel buffer), though a receiver taken so is (a connection off a
//     pool, the same request again); nor is a loop that refuses to repeat
//     an input that failed, nor one whose way round changes what the next
//     request is planned from: an argument of the attempt planned by a
//     method of a variable (body := t.plan()) that reads a field of it
//     which another method of it, called in the loop outside the attempt,
//     assigns (t.recoversFrom(err) sets t.link): a re-planned request,
//     where a receiver looked up so after a repair (conn := r.current()
//     after r.reconnect()) is a handle looked up again.
//
// Failover is a retry: a range over a list of endpoints (servers, brokers,
// addresses, by the list's or its elements' names, or of an address type of
// the standard library: []net.IP, []*url.URL) whose element is the
// attempt's target, or over a list of keys each of which picks the
// endpoint the attempt is made on (for _, proto := range protocols {
// dialer := dialers[proto]; dialer.Dial(ctx) }: the receiver holds an
// endpoint, is derived from the element, and no argument is; a chain of
// decoders, or keys that are also the work, go through other work), or an
// index of such a list by the counter (servers[i]; Loop.List names the
// list, where servers[i%len(servers)], which comes round to each again,
// retries each), or by the
// elements of a random permutation of its indices (for _, i := range
// rand.Perm(len(addrs)), the permutation directly or in a local), with the
// bound "up to len(list) attempts". So is a for statement whose post
// statement picks the next endpoint while its condition says one is left
// (for ; b != nil; b = s.leastLoaded(), b an endpoint by its name or its
// type's), whose endpoint is the attempt's target: one attempt per
// endpoint the call hands out, unless the loop counts. The same shape over
// values that are no endpoints (for t := q.next(); t != nil; t =
// q.next()) goes through other work, as a range over them does. In a
// failover an empty answer (len(addrs) == 0 on a list made from the
// attempt's answer, or a list of it, len(md.Brokers) == 0) that moves on
// to the next endpoint is no success: the endpoint had nothing. An
// attempt inside a loop nested in the
// retry loop is retried by the outer loop when it reaches the attempt again
// through the outer loop's head; an inner failover of the same attempt is
// folded into the outer site.
//
// The failures a path finds later in the iteration, or that the attempt
// returns about its answer, are told apart: a failure of decoding the
// attempt's answer, an answer sentinel (above), io.EOF (the data ended),
// io.ErrNoProgress (a read got no data: an empty successful answer, which
// a loop waiting for data to appear goes round on) and a failure of a
// later call (an open after a dial) are failures, so success did not
// arrive, but not failures an outage produces by themselves.
//
// A loop's bound is read from the exits a failing path passes on its way
// to the next attempt: a counter compared with a limit, also with an
// offset (attempt+1 >= 3; constants and locals assigned once from a
// constant fold), a clock or a context, an exit decided by a call it asks
// (a policy: "as many attempts as r.Retry allows"). An attempt made once
// before the loop counts when the loop runs only after it failed: the
// loop condition tests its error, or the if just before the loop returns
// on its success; every iteration of such a loop is a retry (Primed). A
// count, or a policy given the loop's count (r.isLast(n)), is the bound
// over a clock or a context, which bounds the loop only when nothing
// counts on every path. Exits that only sort the failures do not bound
// the transient ones; a loop with no other exit is unbounded. So is a
// loop whose count, the header's or an exit's, a way round sets back to
// a constant no greater than where it starts (i = 0, attempts = 1): its
// limit bounds nothing (one set past its start, i = max, ends it sooner).
//
// A retry loop is guarded when every failing path that reaches the next
// attempt asks a budget and was allowed by it (GuardRole says whether
// before each attempt or after a failure), and the budget outlives the
// call: a counter made by the function itself is no budget. A path that
// skips the check (x != nil && !x.Allow(): x is nil) or goes on after a
// refusal (the refusal only skips the wait) is not guarded, except where
// what it skips is an optional budget of the function, its final variadic
// parameter (len(budgets) > 0 && !budgets[0].TryRetry()): a caller that
// gives none chose no budget, and a call of a retry helper that passes
// none is reported at the call. A loop whose
// failures all first passed a test for a concurrency conflict is exempt,
// and so is one whose failures that go round are all interrupted or
// blocked system calls (EINTR, EAGAIN): the call is made again, it is not
// retried against a failing dependency.
//
// A loop that reads again once after a local repair is no retry loop:
// every failing path that reaches the attempt again sets a flag
// (repaired = true) that a test on the way out leaves on, and calls
// something else that can fail (the repair); the second attempt is of a
// repaired state, and there is no third (oneTimeRepair).
//
// # Limits
//
// The definition explores paths, so it bounds its work; past a bound it
// stays silent rather than guess (precision first). limits_test.go sits
// at maxCandidates, maxFlowNodes (with maxBlockStates) and maxSlots, each
// with a loop just inside and one just past the bound; the depth bounds
// have no test of their own:
//   - maxCandidates (16): the calls of a body tried as the attempt, in
//     source order after the cheap ones are set aside; a retried call past
//     the sixteenth candidate is not found, and the loop is no retry loop.
//   - maxFlowNodes (4000): the states one candidate's flow explores (a
//     block and what the path knows); a flow cut short is no retry, so a
//     loop whose paths cannot be followed to their end is no retry loop.
//   - maxBlockStates (24): the states kept apart at one block; past it, a
//     path's tracked variables are forgotten (unknown), which loses
//     precision (a condition on them keeps both outcomes) but not paths.
//   - maxSlots (12): the variables one flow tracks; more are unknown.
//     The attempt's results and the counters come first, then the errors
//     and flags the body assigns, then its other values.
//   - depth bounds on conditions (8 levels of &&, ||, !), on predicates
//     read through helpers (4), on conflict predicates (3) and on values
//     read through variables (8): deeper ones are unknown.
//
// # Heuristics
//
// A name is a last resort: each rule below is used where the code gives
// no type or fact to go by (a function of another package without facts,
// a variable whose value is made elsewhere), and each says where it is.
//   - A verdict's polarity (retry, err := try(); ok := ...): by the
//     verdict's name, or its result's name, when it has no body to read
//     (namePolarity, cond.go): names with success, done, ok, ready, ...
//     say success; names with retr, again, transient, temporar, fail,
//     err, ... say a retry is wanted. A boolean function of the package
//     (or one with a PolarityFact) is read by its body first.
//   - A predicate of the attempt's error or answer: the same name rule,
//     after its body or fact (bodyPolarity); a predicate whose argument's
//     name or type speaks of retries (HasStatusCode(resp, retryCodes...))
//     holds for what is retried (argsNameRetry); one whose body, fact and
//     name say nothing (a condition held in a variable) holds for a
//     failure when the flag it is kept in says a retry is wanted
//     (needsRetry = cond(resp, err): predicate's held, cond.go); a flag's
//     success word (ok, done) is not used, as ok says too little.
//   - Concurrency conflicts: a predicate or an error whose name says
//     conflict or serialization (isConflictName), beside the SQLSTATE
//     codes (conflictCodes) and bodies that compare with them
//     (conflictPredicate).
//   - Failover: a range over a list whose name, element name or element
//     type's name ends in an endpoint word (host, addr, server, broker,
//     endpoint, url, node, peer, replica, seed, ... : endpointWords in
//     sameop.go), where the element's type is no address type of the
//     standard library (addrTypes: net.IP, netip.Addr, url.URL, ...) and
//     so says nothing of what it holds; in a range over keys, the name
//     of the receiver the key picks (keyedTarget). For a
//     range over rand.Perm(len(xs)), the names are those of xs. For a
//     picker's loop, the picked variable's name or its type's name
//     (isEndpoint).
//   - A list of statuses (for _, code := range retryOnStatus): when its
//     elements are no constants of the package, a list named for retries
//     (argsNameRetry) holds the failing statuses (memberTest, cond.go).
//   - A copy of the attempt's input: a method of the value named Clone,
//     Copy, DeepCopy or WithContext that returns the value's type (copyOf,
//     sameop.go): a method's result type cannot tell a copy from the next
//     page (q.Next()).
//   - The failed part of the work (toRetry, failed: failedPart and
//     lengthTest): a list made from the attempt's answer whose name says
//     retry or fail holds what is retried.
//   - A response's status: a field or method named StatusCode, Status or
//     Code of integer type (isStatusName), for clients' own response
//     types, also where a function returns one as a bare integer
//     (statusResults), and where a predicate of the package given a
//     response and a list of integers reads it (statusListTest); a
//     condition that names one makes no answer sentinel (answerCond,
//     sentinel.go).
//   - A sleep function of another package: a function of a context and a
//     duration whose name says sleep, wait, pause, delay or backoff
//     (durkind's isSleepName); functions of the package are read by body
//     (waitsInside, sleep helpers). Leaving on the error of a call of
//     another package that takes only a context and a duration is read
//     as leaving on a wait's (contextSleep, bound.go); a function of the
//     package taking the same is a wait only when it waits for the
//     duration, and an attempt with a time limit otherwise. A duration
//     handed to the attempt is its time limit, never its work, however
//     it is worked out from the counter (sameValue).
//   - An absent thing: an error variable of a package outside the
//     standard library whose name contains NotFound, NotExist, NoNode,
//     NoSuch or DoesNotExist (isAbsentName, sentinel.go) says the
//     dependency answered; a loop that goes round only on it polls. Its
//     body is no help where the client maps a server's codes to its
//     errors from a table.
//   - Budgets: a method with a boolean or error result on a named type
//     whose name is one of -retrysite.budget-methods (TryRetry, Allow,
//     ...; internal/retrysite), for checks of other packages; a function
//     of the package that asks one is read by its body (GuardFact).
//   - Error packages: a package named errors, xerrors, multierr,
//     multierror or errwrap makes and wraps errors (retrysite's
//     errorPackage): its error results are no attempt.
//   - gRPC stubs: pb.NewXClient(conn), a function named New...Client of
//     one grpc.ClientConn, stands for the connection (retrysite's
//     dependency model).
//   - Logging in a fix's refusal path: a call whose name starts with
//     Print, Log, Debug, Info, Warn or Trace is harmless
//     (fixedattempts' isLog).
//   - Where a refusal breaks out of a loop its condition bounds: of the
//     condition's method calls, only a context.Context's (ctx.Err())
//     tests a value that changes with no assignment; another method's
//     receiver (c.MaxRetries()) is not read as a test of how the loop
//     ended (fixedattempts' condReadAfter). A type, not a name, but a
//     rule all the same.
//   - Closing in a fix's refusal path: a call of a method named Close with
//     no argument (resp.Body.Close()) closes what the variable at the
//     root of its receiver holds (fixedattempts' closesHandedOn and
//     setBetween).
//   - Sends a fix keys by host or target, by type: a function value of
//     Do's type, func(*http.Request) (*http.Response, error), sends the
//     request it is given, as does an interface method of that type (a
//     Sender: any decorator); a grpc.UnaryInvoker or grpc.Streamer sends on
//     the connection handed with it (fixedattempts' requestHost and
//     invokerTarget). Types, not names, as above. A request a wrapper
//     hands back, rr.Request() (a method that takes nothing and returns
//     a request, of a variable made by a call given one request), is
//     taken to be that request, rewound: its host keys the registry
//     (fixedattempts' requestWrapped); so is the one request handed to a
//     function of the package (handedRequest, as retrysite's passedOn
//     reads it).
//   - Listens: a function of package net whose name starts with Listen
//     (Listen, ListenPacket, ListenTCP, ..., a ListenConfig's Listen)
//     binds a local address and asks no dependency: local work
//     (retrysite's isPureCall). The standard library's names.
//   - Dials: what a dial of the standard library depends on is the
//     address it dials, not the dialer (retrysite.DialAddress: net.Dial,
//     net.DialTimeout, a net.Dialer's Dial and DialContext, crypto/tls's
//     Dial, DialWithDialer and its Dialer's): a string field that holds
//     the address is the dependency, and another address that stays the
//     same from the loop on (a variable, or the String() of an address
//     of package net) keys a registry (fixedattempts' dialAddr). The
//     standard library's names, not the code's.
package retryloop

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// The bound vocabulary is the retry-API table's.
type (
	Bound     = retryapi.Bound
	BoundKind = retryapi.BoundKind
)

const (
	BoundUnknown = retryapi.BoundUnknown
	BoundCount   = retryapi.BoundCount
	BoundTime    = retryapi.BoundTime
	Unbounded    = retryapi.Unbounded
)

// GuardClass says what a call is to a retry's budget.
type GuardClass uint8

const (
	NotGuard GuardClass = iota // not a budget check
	Check                      // asks a budget (a withdrawal, a rate limiter, a check known by a fact)
	Breaker                    // a circuit breaker that runs its argument: it guards the attempt it runs
)

// Host answers the questions the definition asks of the rest of the
// analysis. The retry-site analysis implements it.
type Host interface {
	// Guard says whether a call asks a budget.
	Guard(call *ast.CallExpr) GuardClass
	// PerCall reports whether the budget a guard call asks is an object
	// the function fn makes for the call itself (a per-request counter):
	// it bounds one request, not the fleet's retries.
	PerCall(fn ast.Node, call *ast.CallExpr) bool
	// LocalWork reports whether a call's error can only describe local
	// work (a standard package that does no I/O of a dependency, an
	// error's own method, a function of the package that does only
	// those).
	LocalWork(call *ast.CallExpr) bool
	// MayReturn reports whether a call can return (not panic, os.Exit, a
	// test's Fatal, or a function of the package that always does one).
	MayReturn(call *ast.CallExpr) bool
	// Definition returns the one value that initialises a variable of the
	// package, when it has one (nil otherwise).
	Definition(v *types.Var) ast.Expr
	// Reassigned reports whether a variable is assigned after its
	// declaration, or has its address taken, anywhere in the package.
	Reassigned(v *types.Var) bool
	// Decl returns the declaration of a function of the package, or nil.
	Decl(fn *types.Func) *ast.FuncDecl
	// SleepHelper reports whether fn is a sleep helper (a function that
	// only computes and waits, of this package or, by a fact, of
	// another), and whether cancellation interrupts every wait it makes.
	SleepHelper(fn *types.Func) (aware, ok bool)
	// Polarity returns what a boolean function of another package holds
	// for (a PolarityFact): -1 success, +1 a failure; ok is false without
	// a fact.
	Polarity(fn *types.Func) (p int, ok bool)
}

// A Definer decides the retry loops of one package.
type Definer struct {
	pass *analysis.Pass
	host Host
	dur  *durkind.Env

	cfgs   map[ast.Node]*cfg.CFG // control-flow graphs of the functions with candidate loops
	params map[types.Object]int  // the parameters of the package's functions, by index; built on first use
	waits  map[waitKey]bool      // waitsInside, memoized

	polarities map[*types.Func]int                 // Polarity, memoized
	sentinels  map[*types.Var]bool                 // the package's answer sentinels, built on first use
	kinds      map[*types.Var]map[*types.Const]int // kindClasses, by kind field
	statuses   map[*types.Func][]bool              // statusResults, memoized
}

// New returns the definer of the pass's package. env says what the
// package's durations depend on (the waits' kinds).
func New(pass *analysis.Pass, host Host, env *durkind.Env) *Definer {
	return &Definer{pass: pass, host: host, dur: env}
}

func (a *Definer) callee(call *ast.CallExpr) *types.Func {
	return typesx.Callee(a.pass.TypesInfo, call)
}
func (a *Definer) objOf(e ast.Expr) types.Object { return typesx.ObjOf(a.pass.TypesInfo, e) }
func (a *Definer) isNil(e ast.Expr) bool         { return typesx.IsNil(a.pass.TypesInfo, e) }
func (a *Definer) resultsError(call *ast.CallExpr) bool {
	return typesx.ResultsError(a.pass.TypesInfo, call)
}
func (a *Definer) intConst(e ast.Expr) (int64, bool) { return typesx.IntConst(a.pass.TypesInfo, e) }
func (a *Definer) stringConst(e ast.Expr) (string, bool) {
	return typesx.StringConst(a.pass.TypesInfo, e)
}

// render returns the source text of an expression, for messages.
func (a *Definer) render(n ast.Node) string { return types.ExprString(n.(ast.Expr)) }

func unparen(e ast.Expr) ast.Expr { return ast.Unparen(e) }

// guardOf reports whether a call asks a budget (not a breaker).
func (a *Definer) isGuard(call *ast.CallExpr) bool { return a.host.Guard(call) == Check }

// guardCalls returns the budget checks (breakers included) called in n,
// outside nested function literals, in source order.
func (a *Definer) guardCalls(n ast.Node) []*ast.CallExpr {
	var out []*ast.CallExpr
	astx.InspectNoLit(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && a.host.Guard(call) != NotGuard {
			out = append(out, call)
		}
		return true
	})
	return out
}
