package retrysite

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// IsLibraryPath reports whether path is the import path of a retry library
// the analysis knows.
func IsLibraryPath(path string) bool { return retryapi.LibraryOf(path) != nil }

// inLibrary reports whether pkg is one of the retry libraries' own
// packages: there, a call of its API implements the library. Other
// packages of the same module (client-go's users of util/retry) are
// users like any other.
func inLibrary(pkg string) bool { return retryapi.LibraryOf(pkg) != nil }

// libraryOf returns the retry library fn belongs to, or nil.
func libraryOf(fn *types.Func) *retryapi.Library {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	return retryapi.LibraryOf(fn.Pkg().Path())
}

// inLib reports whether fn belongs to the library of the name.
func inLib(fn *types.Func, name string) bool {
	l := libraryOf(fn)
	return l != nil && l.Name == name
}

// findLibrary records every call of a retry library.
func (a *analyzer) findLibrary() {
	if inLibrary(a.pass.Pkg.Path()) {
		return
	}
	for cur := range a.insp.Root().Preorder((*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)) {
		var s *Site
		switch n := cur.Node().(type) {
		case *ast.CallExpr:
			fn := a.callee(n)
			if fn == nil {
				continue
			}
			if _, ok := clientSend(fn); ok {
				a.sends = append(a.sends, cur) // findSends judges them
			}
			e := retryapi.Of(fn)
			if e == nil {
				continue
			}
			s = a.librarySite(cur, n, e)
		case *ast.CompositeLit:
			s = a.retryableLiteral(cur, n)
		}
		if s != nil {
			a.sites = append(a.sites, s)
		}
	}
}

// libSite starts a library site for call with its operation argument.
func (a *analyzer) libSite(cur inspector.Cursor, call *ast.CallExpr, api string, op ast.Expr) *Site {
	s := &Site{
		Kind: Library,
		Node: call,
		Pos:  call.Pos(),
		Func: astx.EnclosingFunc(cur),
		API:  api,
		Op:   op,
	}
	if op != nil {
		a.fillOp(s, op)
	}
	return s
}

// fillOp records the per-attempt code of an operation argument: its body
// when it is a function literal (directly or through a local variable), the
// calls it makes, and a budget check inside it.
func (a *analyzer) fillOp(s *Site, op ast.Expr) {
	op = a.unconvert(op)
	lit := a.funcLitOf(op)
	if lit == nil {
		// A method value (retry(3, c.Get)): the attempt calls it; a
		// parameter or other function value is not visible here.
		if sel, ok := unparen(op).(*ast.SelectorExpr); ok {
			if selection, ok := a.pass.TypesInfo.Selections[sel]; ok && selection.Kind() == types.MethodVal {
				call := &ast.CallExpr{Fun: sel, Lparen: sel.End(), Rparen: sel.End()}
				s.Attempts = append(s.Attempts, Attempt{Call: call, Dep: a.depOf(call)})
			}
		}
		return
	}
	s.Body = lit.Body
	astx.InspectNoLit(lit.Body, func(n ast.Node) bool {
		if d, ok := n.(*ast.DeferStmt); ok {
			// A deferred literal runs at the end of each attempt: a budget
			// it asks guards the retries (backoff.Permanent on a refusal).
			if dl, ok := unparen(d.Call.Fun).(*ast.FuncLit); ok && s.Guard == nil {
				s.Guard = a.firstGuard(dl.Body, false)
			}
			return true
		}
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if g := a.guardOf(call); g != nil {
			if s.Guard == nil {
				s.Guard = g
			}
			return true
		}
		if a.resultsError(call) && !a.isPureCall(call) && !a.isLibraryCall(call) {
			s.Attempts = append(s.Attempts, Attempt{Call: call, Dep: a.depOf(call)})
		}
		return true
	})
}

// isLibraryCall reports whether call is a call into a retry library (a
// marker such as backoff.Permanent, not an attempt).
func (a *analyzer) isLibraryCall(call *ast.CallExpr) bool {
	return libraryOf(a.callee(call)) != nil
}

// funcLitOf returns the function literal an operation expression denotes:
// the literal itself, or a local variable initialised with one.
func (a *analyzer) funcLitOf(e ast.Expr) *ast.FuncLit {
	e = a.unconvert(e)
	switch e := unparen(e).(type) {
	case *ast.FuncLit:
		return e
	case *ast.Ident:
		if v, ok := a.pass.TypesInfo.Uses[e].(*types.Var); ok && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
			lit, _ := unparen(a.definingExpr(v)).(*ast.FuncLit)
			return lit
		}
	}
	return nil
}

func arg(call *ast.CallExpr, i int) ast.Expr {
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// option is one functional option passed to a library: its name and
// arguments.
type option struct {
	name string
	call *ast.CallExpr
}

// options returns the functional options among args; ok is false when some
// are passed in a way we cannot see (opts...).
func (a *analyzer) options(call *ast.CallExpr, from int) (opts []option, ok bool) {
	if call.Ellipsis.IsValid() {
		return nil, false
	}
	for i := from; i < len(call.Args); i++ {
		c, isCall := unparen(call.Args[i]).(*ast.CallExpr)
		if !isCall {
			return opts, false
		}
		fn := a.callee(c)
		if fn == nil {
			return opts, false
		}
		opts = append(opts, option{name: fn.Name(), call: c})
	}
	return opts, true
}

// librarySite reads a call of a retry library's API by its table entry:
// the operation, the default bound and backoff, the retry count, the
// options, the policy, the client's fields, then the entry's named
// evaluators. It returns nil when the call makes no retries.
func (a *analyzer) librarySite(cur inspector.Cursor, call *ast.CallExpr, e *retryapi.Entry) *Site {
	if e.NArgs != 0 && len(call.Args) != e.NArgs {
		return nil
	}
	var count ast.Expr
	if e.Count >= 0 {
		count = arg(call, e.Count)
		if v, ok := a.intConst(count); ok && v <= 0 {
			return nil
		}
	}
	var op ast.Expr
	if e.Op >= 0 {
		op = arg(call, e.Op)
	}
	s := a.libSite(cur, call, e.API, op)
	s.Entry = e
	s.Bound = e.Default
	s.Backoff = Backoff{Delay: Delay(e.Backoff.Delay), Jitter: e.Backoff.Jitter}
	s.Exempt = e.Exempt
	if e.Sends {
		s.Attempts = []Attempt{{Call: call, Dep: a.depOf(call)}}
	}
	if count != nil {
		s.Bound = a.definer.CountBound(count, -1, false)
	}
	if e.PolicyEval != "" && !policyEvals[e.PolicyEval](a, s, arg(call, e.Policy)) {
		return nil
	}
	switch {
	case e.OptionsOf == retryapi.Receiver:
		s.Bound = Bound{Kind: BoundUnknown}
		if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok {
			if nc := a.constructorCall(sel.X); nc != nil {
				if f := a.callee(nc); f != nil && slices.Contains(e.Constructors, f.Name()) {
					s.Bound = e.Default
					a.readOptions(s, retryapi.Named(e.Library), nc, e.Options)
				}
			}
		}
	case e.Options >= 0 && e.Eval == "":
		a.readOptions(s, retryapi.Named(e.Library), call, e.Options)
	}
	if e.CountField != "" {
		if lhs := assignedTo(cur); lhs != nil {
			s.Kept = lhs
			same := func(x ast.Expr) bool { return types.ExprString(x) == types.ExprString(lhs) }
			if v := a.assignedField(s.Func, e.CountField, same); v != nil {
				if n, ok := a.intConst(v); ok && n <= 0 {
					return nil
				}
				s.Bound = a.definer.CountBound(v, -1, false)
			}
			for _, hook := range e.GuardFields {
				if v := a.assignedField(s.Func, hook, same); v != nil && s.Guard == nil {
					s.Guard = a.firstGuard(v, true)
				}
			}
		}
	}
	if e.GuardEval != "" {
		s.Guard = guardEvals[e.GuardEval](a, s)
	}
	if e.ExemptEval != "" {
		s.Exempt = exemptEvals[e.ExemptEval](a, s)
	}
	a.setBackoff(cur, s, e)
	if e.Eval != "" {
		return evals[e.Eval](a, s, cur, call)
	}
	return s
}

// objectName is the full name of a package-level object: path.Name.
func objectName(obj types.Object) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return typesx.TrimVendor(obj.Pkg().Path()) + "." + obj.Name()
}

// The named evaluators of the retryapi table.
var (
	// evals read a whole call the table cannot describe; they refine the
	// site or return nil when the call makes no retries.
	evals = map[string]func(a *analyzer, s *Site, cur inspector.Cursor, call *ast.CallExpr) *Site{
		retryapi.EvalServiceConfig: (*analyzer).grpcSite,
		retryapi.EvalInterceptor:   (*analyzer).grpcRetrySite,
		retryapi.EvalFailsafeChain: (*analyzer).failsafeSite,
		retryapi.EvalAWSOptions:    (*analyzer).awsSite,
		retryapi.EvalWaitCondition: (*analyzer).waitSite,
	}
	// policyEvals read a policy argument into the site; false when it
	// never retries.
	policyEvals = map[string]func(a *analyzer, s *Site, x ast.Expr) bool{
		retryapi.PolicyBackoffV4: (*analyzer).backoffV4Policy,
		retryapi.PolicyGoRetry:   (*analyzer).goRetryPolicy,
		retryapi.PolicyK8s:       func(a *analyzer, s *Site, x ast.Expr) bool { s.Bound = a.k8sBound(x); return true },
		retryapi.PolicyRetryDo:   func(a *analyzer, s *Site, x ast.Expr) bool { a.retryDoPolicy(s, x); return true },
	}
	// guardEvals find the budget check the code around a site installs.
	guardEvals = map[string]func(a *analyzer, s *Site) *Guard{
		retryapi.GuardResty:     func(a *analyzer, s *Site) *Guard { return a.restyGuard(s.Func) },
		retryapi.GuardRetriable: (*analyzer).retriableGuard,
	}
	// exemptEvals say why the operation of a site is no outage risk.
	exemptEvals = map[string]func(a *analyzer, s *Site) string{
		retryapi.ExemptGoRetry: (*analyzer).goRetryExempt,
	}
)

// readOptions applies the library's functional options among call's
// arguments, from index from on, to the site's bound and guard: the last
// count (attempts, retries, forever) wins; a time cap lifted by a
// constant 0 leaves a time-bounded default unbounded; a throttle or
// budget guards; a retry condition that asks a budget guards.
func (a *analyzer) readOptions(s *Site, lib *retryapi.Library, call *ast.CallExpr, from int) {
	opts, ok := a.options(call, from)
	if !ok && lib.OpaqueOptions {
		s.Bound = Bound{}
		return
	}
	var count *Bound
	lifted, liftNote := false, ""
	for _, o := range opts {
		opt, known := lib.Option(o.name)
		if !known {
			continue
		}
		x := arg(o.call, 0)
		switch opt.Effect {
		case retryapi.Attempts, retryapi.Retries:
			if b, ok := a.optionCount(opt, x); ok {
				count = &b
			}
		case retryapi.Forever:
			count = &Bound{Kind: Unbounded, Note: opt.Note}
		case retryapi.TimeCap:
			if n, ok := a.intConst(x); ok && n == 0 {
				lifted, liftNote = true, opt.Note
			}
		case retryapi.Throttle:
			if !a.isNil(unparen(x)) {
				s.Guard = &Guard{Kind: GuardNative, Desc: o.name}
			}
		case retryapi.Budget:
			s.Guard = &Guard{Kind: GuardNative, Desc: o.name, Budget: x}
		case retryapi.Condition:
			if s.Guard == nil {
				s.Guard = a.firstGuard(x, true)
			}
		}
	}
	switch {
	case count != nil:
		s.Bound = *count
	case !ok:
		s.Bound = Bound{}
	case lifted && s.Bound.Kind == BoundTime:
		s.Bound = Bound{Kind: Unbounded, Note: liftNote}
	}
}

// optionCount reads the count an attempts or retries option gives; ok is
// false when the option sets no limit.
func (a *analyzer) optionCount(opt retryapi.Option, x ast.Expr) (Bound, bool) {
	start := int64(0)
	if opt.Effect == retryapi.Retries {
		start = -1
	}
	n, isConst := a.intConst(x)
	switch {
	case isConst && n == 0 && opt.Zero == retryapi.ZeroForever,
		isConst && n < 0 && opt.Zero == retryapi.NegForever:
		return Bound{Kind: Unbounded, Note: opt.Note}, true
	case isConst && n <= 0 && opt.Zero == retryapi.ZeroIgnored:
		return Bound{}, false
	}
	return a.definer.CountBound(x, start, false), true
}

// waitSite keeps a k8s wait backoff call when its condition answers
// (false, nil) on a failure: a retry; a poll for a state otherwise.
func (a *analyzer) waitSite(s *Site, _ inspector.Cursor, _ *ast.CallExpr) *Site {
	if lit := a.funcLitOf(s.Op); lit == nil || !a.retriesOnFailure(lit) {
		return nil
	}
	return s
}

// retriesOnFailure reports whether a wait condition answers (false, nil)
// after a failure: if err != nil { return false, nil }.
func (a *analyzer) retriesOnFailure(lit *ast.FuncLit) bool {
	found := false
	astx.InspectNoLit(lit.Body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		b, ok := unparen(ifs.Cond).(*ast.BinaryExpr)
		if !ok || b.Op != token.NEQ || !(a.isNil(b.Y) && typesx.IsError(a.pass.TypesInfo.TypeOf(b.X))) {
			return true
		}
		for _, st := range ifs.Body.List {
			if r, ok := st.(*ast.ReturnStmt); ok && len(r.Results) == 2 && isFalse(a.pass.TypesInfo, r.Results[0]) && a.isNil(r.Results[1]) {
				found = true
			}
		}
		return true
	})
	return found
}

// retryDoPolicy reads the project's retry.Policy: MaxAttempts bounds the
// attempts, a Budget guards the retries, and the waits are fully jittered.
func (a *analyzer) retryDoPolicy(s *Site, p ast.Expr) {
	s.Bound = Bound{}
	lits, made := a.policyLits(p)
	if len(lits) == 0 {
		return
	}
	if made {
		// Policies a function of the package makes: their budget counts
		// when every one it returns has one; their other settings may
		// come from its parameters and are not read.
		var budget ast.Expr
		for _, lit := range lits {
			b := fieldValue(lit, "Budget")
			if b == nil || a.isNil(b) {
				return
			}
			if budget == nil {
				budget = b
			}
		}
		s.Guard = &Guard{Kind: GuardNative, Desc: "retry.Policy.Budget", Budget: budget}
		return
	}
	for name, value := range astx.Fields(lits[0]) {
		switch name {
		case "MaxAttempts":
			s.Bound = a.definer.CountBound(value, 0, false)
		case "Budget":
			if !a.isNil(value) {
				s.Guard = &Guard{Kind: GuardNative, Desc: "retry.Policy.Budget", Budget: value}
			}
		case "InitialDelay":
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
		}
	}
}

// policyLits returns the composite literals a policy expression is: the
// literal, or the one that defines a variable; or, for a call of a
// function of the package (made), every literal its return statements
// return, none when one of them returns something else.
func (a *analyzer) policyLits(p ast.Expr) (lits []*ast.CompositeLit, made bool) {
	lit := func(e ast.Expr) *ast.CompositeLit {
		if id, ok := unparen(e).(*ast.Ident); ok {
			if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok {
				e = a.definingExpr(v)
			}
		}
		l, _ := unparen(e).(*ast.CompositeLit)
		return l
	}
	if l := lit(p); l != nil {
		return []*ast.CompositeLit{l}, false
	}
	call, ok := unparen(p).(*ast.CallExpr)
	if !ok {
		return nil, false
	}
	fn := a.callee(call)
	if fn == nil {
		return nil, false
	}
	fd := a.declOf(fn)
	if fd == nil || fd.Body == nil {
		return nil, false
	}
	var out []*ast.CompositeLit
	bad := false
	astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
		r, ok := n.(*ast.ReturnStmt)
		if !ok || bad {
			return !bad
		}
		if len(r.Results) == 0 {
			bad = true
			return false
		}
		l := lit(r.Results[0])
		if l == nil {
			bad = true
			return false
		}
		out = append(out, l)
		return false
	})
	if bad {
		return nil, false
	}
	return out, true
}

// fieldValue returns the value of a keyed field of a composite literal,
// or nil.
func fieldValue(lit *ast.CompositeLit, name string) ast.Expr {
	for n, v := range astx.Fields(lit) {
		if n == name {
			return v
		}
	}
	return nil
}

// grpcRetrySite reads the options of a go-grpc-middleware retry
// interceptor, following option variables and slices: WithMax(n) makes it
// retry (without it, it does not); Disable switches it off. Options it
// cannot see leave the bound unknown rather than the site unreported.
func (a *analyzer) grpcRetrySite(s *Site, _ inspector.Cursor, call *ast.CallExpr) *Site {
	lib := retryapi.Named(s.Entry.Library)
	var max ast.Expr
	hidden, disabled := false, false
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		if depth > 3 {
			hidden = true
			return
		}
		switch x := unparen(e).(type) {
		case *ast.CallExpr:
			fn := a.callee(x)
			if fn == nil {
				hidden = true
				return
			}
			switch opt, _ := lib.Option(fn.Name()); opt.Effect {
			case retryapi.Attempts:
				max, disabled = arg(x, 0), false
			case retryapi.Disable:
				disabled = true
			}
			if fn.Name() == "append" {
				for _, y := range x.Args {
					visit(y, depth+1)
				}
			}
		case *ast.CompositeLit:
			for _, y := range x.Elts {
				visit(y, depth+1)
			}
		case *ast.Ident:
			v, ok := a.pass.TypesInfo.Uses[x].(*types.Var)
			if !ok {
				hidden = true
				return
			}
			def := a.definingExpr(v)
			if def == nil || a.reassigned(v) {
				hidden = true
				return
			}
			visit(def, depth+1)
		default:
			hidden = true
		}
	}
	for _, x := range call.Args {
		visit(x, 0)
	}
	switch {
	case disabled:
		return nil
	case max != nil:
		if v, isConst := a.intConst(max); isConst && v <= 1 {
			return nil // disabled, or one attempt
		}
		s.Bound = a.definer.CountBound(max, 0, false)
	case hidden:
		s.Bound = Bound{Note: "options it cannot see decide"}
	default:
		return nil // without WithMax the interceptor does not retry
	}
	return s
}

// constructorCall returns the call that built the value of e: e itself
// when it is a call, or the initialiser of a local variable.
func (a *analyzer) constructorCall(e ast.Expr) *ast.CallExpr {
	switch e := unparen(e).(type) {
	case *ast.CallExpr:
		return e
	case *ast.Ident:
		if v, ok := a.pass.TypesInfo.Uses[e].(*types.Var); ok {
			return a.definingCall(v)
		}
	}
	return nil
}

// backoffV4Policy reads the BackOff of a cenkalti/backoff v4 call; a
// StopBackOff never retries.
func (a *analyzer) backoffV4Policy(s *Site, x ast.Expr) bool {
	s.Bound = a.backoffV4Bound(x, s.Func)
	return s.Bound.Kind != BoundCount || s.Bound.N != 1
}

// backoffV4Bound evaluates a cenkalti/backoff v4 BackOff expression.
func (a *analyzer) backoffV4Bound(e ast.Expr, fn ast.Node) Bound {
	e = unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = unparen(u.X)
	}
	switch e := e.(type) {
	case *ast.Ident:
		v, ok := a.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok {
			return Bound{}
		}
		def := a.definingExpr(v)
		if def == nil {
			return Bound{}
		}
		b := a.backoffV4Bound(def, fn)
		// b.MaxElapsedTime = 0 after construction removes the time cap.
		if x := a.assignedField(fn, "MaxElapsedTime", func(x ast.Expr) bool { return a.objOf(x) == v }); x != nil && b.Kind == BoundTime {
			if n, ok := a.intConst(x); ok && n == 0 {
				b = Bound{Kind: Unbounded, Note: "MaxElapsedTime is 0"}
			}
		}
		return b
	case *ast.CallExpr:
		f := a.callee(e)
		if !inLib(f, retryapi.BackoffV4) {
			return Bound{}
		}
		switch f.Name() {
		case "WithMaxRetries":
			return a.definer.CountBound(arg(e, 1), -1, false)
		case "WithContext":
			return a.backoffV4Bound(arg(e, 0), fn)
		case "NewExponentialBackOff":
			opts, _ := a.options(e, 0)
			for _, o := range opts {
				if opt, _ := libraryOf(f).Option(o.name); opt.Effect == retryapi.TimeCap {
					if n, ok := a.intConst(arg(o.call, 0)); ok && n == 0 {
						return Bound{Kind: Unbounded, Note: opt.Note}
					}
				}
			}
			return Bound{Kind: BoundTime, Note: "MaxElapsedTime, 15m by default"}
		case "NewConstantBackOff":
			return Bound{Kind: Unbounded}
		}
	case *ast.CompositeLit:
		t, ok := types.Unalias(a.pass.TypesInfo.TypeOf(e)).(*types.Named)
		if !ok {
			return Bound{}
		}
		switch t.Obj().Name() {
		case "ExponentialBackOff":
			if v := astx.Field(e, "MaxElapsedTime"); v != nil {
				if n, ok := a.intConst(v); !ok || n != 0 {
					return Bound{Kind: BoundTime, Note: "MaxElapsedTime"}
				}
			}
			return Bound{Kind: Unbounded, Note: "MaxElapsedTime is 0"}
		case "ConstantBackOff", "ZeroBackOff":
			return Bound{Kind: Unbounded}
		case "StopBackOff":
			return Bound{Kind: BoundCount, N: 1}
		}
	}
	return Bound{}
}

// goRetryBound evaluates a sethvargo/go-retry Backoff expression.
// goRetryPolicy reads the Backoff of a go-retry call: its bound, and a
// budget its Next asks (a BackoffFunc that stops when the budget refuses:
// Do then returns the last error), which guards the retries.
func (a *analyzer) goRetryPolicy(s *Site, x ast.Expr) bool {
	s.Bound = a.goRetryBound(x)
	if g := a.valueGuard(x, 0); g != nil && s.Guard == nil {
		s.Guard = g
	}
	return true
}

// valueGuard returns the first budget guard called in the expression of a
// value (function literals included), or in the initialisers of the
// variables of this package it names that are assigned only there
// (stopping := retry.BackoffFunc(...); retry.WithMaxRetries(3, stopping)).
func (a *analyzer) valueGuard(x ast.Expr, depth int) *Guard {
	if x == nil || depth > 3 {
		return nil
	}
	if g := a.firstGuard(x, true); g != nil {
		return g
	}
	var g *Guard
	ast.Inspect(x, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || g != nil {
			return g == nil
		}
		if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && v.Pkg() == a.pass.Pkg && !a.reassigned(v) {
			if d := a.definingExpr(v); d != nil && d != x {
				g = a.valueGuard(d, depth+1)
			}
		}
		return g == nil
	})
	return g
}

// retriableGuard: a budget that k8s retry.OnError's retriable predicate
// asks guards the retries (a refusal makes OnError return the error).
func (a *analyzer) retriableGuard(s *Site) *Guard {
	call, ok := s.Node.(*ast.CallExpr)
	if !ok || len(call.Args) < 2 {
		return s.Guard
	}
	if g := a.valueGuard(call.Args[1], 0); g != nil {
		return g
	}
	return s.Guard
}

func (a *analyzer) goRetryBound(e ast.Expr) Bound {
	e = unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok {
			e = unparen(a.definingExpr(v))
		}
	}
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return Bound{}
	}
	f := a.callee(call)
	if !inLib(f, retryapi.GoRetry) {
		return Bound{}
	}
	switch f.Name() {
	case "WithMaxRetries":
		return a.definer.CountBound(arg(call, 0), -1, false)
	case "WithMaxDuration":
		inner := a.goRetryBound(arg(call, 1))
		if inner.Kind == BoundCount {
			return inner
		}
		return Bound{Kind: BoundTime, Note: "WithMaxDuration"}
	case "WithCappedDuration", "WithJitter", "WithJitterPercent", "WithFullJitter":
		return a.goRetryBound(arg(call, len(call.Args)-1))
	case "NewExponential", "NewConstant", "NewFibonacci":
		return Bound{Kind: Unbounded, Note: "until the context ends"}
	}
	return Bound{}
}

// goRetryExempt: go-retry retries only errors wrapped by RetryableError;
// an operation literal that never wraps one never retries.
func (a *analyzer) goRetryExempt(s *Site) string {
	if s.Body == nil {
		return ""
	}
	marks := false
	ast.Inspect(s.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if f := a.callee(call); inLib(f, retryapi.GoRetry) && f.Name() == "RetryableError" {
				marks = true
			}
		}
		return !marks
	})
	if marks {
		return ""
	}
	return "the operation never marks an error retryable"
}

// retryableLiteral reads a composite literal of a client type the table
// knows (&retryablehttp.Client{RetryMax: n, ...}): its count field and
// the hooks a budget may be asked in. Without the count field the
// client keeps the table's default (the zero RetryMax: one attempt).
func (a *analyzer) retryableLiteral(cur inspector.Cursor, lit *ast.CompositeLit) *Site {
	t, ok := types.Unalias(a.pass.TypesInfo.TypeOf(lit)).(*types.Named)
	if !ok {
		return nil
	}
	e := retryapi.OfType(t.Obj())
	if e == nil || e.CountField == "" {
		return nil
	}
	var max ast.Expr
	var g *Guard
	for name, value := range astx.Fields(lit) {
		switch {
		case name == e.CountField:
			max = value
		case slices.Contains(e.GuardFields, name):
			if g == nil {
				g = a.firstGuard(value, true)
			}
		}
	}
	if max == nil {
		return nil // the default count (retryablehttp: one attempt)
	}
	if n, ok := a.intConst(max); ok && n <= 0 {
		return nil
	}
	s := &Site{Kind: Library, Node: lit, Pos: lit.Pos(), Func: astx.EnclosingFunc(cur), API: e.API, Entry: e, Guard: g}
	s.Bound = a.definer.CountBound(max, -1, false)
	s.Backoff = Backoff{Delay: Delay(e.Backoff.Delay), Jitter: e.Backoff.Jitter}
	a.setBackoff(cur, s, e)
	return s
}

// assignedTo returns the expression the value at cur is assigned to
// (x := f(), x = f(), s.c = f(), var x = f()), or nil. A value of a keyed field of a
// literal that is assigned (a := &api{hc: f()}) is assigned to a.hc: the
// result is then a selector made here whose Sel is the literal's key (the
// field's object; the selector itself has no type information).
func assignedTo(cur inspector.Cursor) ast.Expr {
	if kv, ok := cur.Parent().Node().(*ast.KeyValueExpr); ok && kv.Value == cur.Node() {
		key, ok := kv.Key.(*ast.Ident)
		lit := cur.Parent().Parent()
		if _, isLit := lit.Node().(*ast.CompositeLit); !ok || !isLit {
			return nil
		}
		if u, ok := lit.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			lit = lit.Parent()
		}
		if x := assignedTo(lit); x != nil {
			return &ast.SelectorExpr{X: x, Sel: key}
		}
		return nil
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) {
			for i, r := range p.Rhs {
				if r == cur.Node() {
					return p.Lhs[i]
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == len(p.Values) {
			for i, r := range p.Values {
				if r == cur.Node() {
					return p.Names[i]
				}
			}
		}
	}
	return nil
}

// assignedField returns the value last assigned to x.field in fn's body,
// for the x that same accepts.
func (a *analyzer) assignedField(fn ast.Node, field string, same func(x ast.Expr) bool) ast.Expr {
	var val ast.Expr
	astx.InspectNoLit(astx.FuncBody(fn), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if sel, ok := unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == field && same(sel.X) {
				val = as.Rhs[i]
			}
		}
		return true
	})
	return val
}

// restyGuard looks for a budget check in the retry conditions and hooks
// the enclosing function installs.
func (a *analyzer) restyGuard(fn ast.Node) *Guard {
	var g *Guard
	astx.InspectNoLit(astx.FuncBody(fn), func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || g != nil {
			return g == nil
		}
		if f := a.callee(call); inLib(f, retryapi.Resty) && strings.HasPrefix(f.Name(), "AddRetry") {
			for _, x := range call.Args {
				if g == nil {
					g = a.firstGuard(x, true)
				}
			}
		}
		return true
	})
	return g
}

// serviceConfig is the part of a gRPC service config that matters here.
// encoding/json matches keys case-insensitively, as gRPC's parser does.
type serviceConfig struct {
	MethodConfig []struct {
		RetryPolicy *struct {
			MaxAttempts json.Number `json:"maxAttempts"`
		} `json:"retryPolicy"`
	} `json:"methodConfig"`
	RetryThrottling *struct {
		MaxTokens  json.Number `json:"maxTokens"`
		TokenRatio json.Number `json:"tokenRatio"`
	} `json:"retryThrottling"`
}

// grpcSite parses the JSON of grpc.WithDefaultServiceConfig when it is a
// constant: a retryPolicy makes the dial a retry site; retryThrottling is
// the budget.
func (a *analyzer) grpcSite(s *Site, _ inspector.Cursor, call *ast.CallExpr) *Site {
	js, ok := a.stringConst(arg(call, s.Entry.Policy))
	if !ok {
		return nil
	}
	var sc serviceConfig
	if err := json.Unmarshal([]byte(js), &sc); err != nil {
		return nil
	}
	max := int64(0)
	for _, mc := range sc.MethodConfig {
		if mc.RetryPolicy == nil {
			continue
		}
		n, err := mc.RetryPolicy.MaxAttempts.Int64()
		if err != nil {
			n = retryapi.GRPCMaxAttempts
		}
		max = maxInt(max, n)
	}
	if max < 2 {
		return nil
	}
	note := ""
	if max > retryapi.GRPCMaxAttempts {
		max, note = retryapi.GRPCMaxAttempts, fmt.Sprintf("maxAttempts is capped at %d", retryapi.GRPCMaxAttempts)
	}
	s.Bound = Bound{Kind: BoundCount, N: int(max), Note: note}
	if sc.RetryThrottling != nil {
		s.Guard = &Guard{Kind: GuardNative, Desc: "retryThrottling"}
	}
	s.Config = a.stringLiteral(arg(call, s.Entry.Policy))
	return s
}

func maxInt(x, y int64) int64 {
	if x > y {
		return x
	}
	return y
}

// stringLiteral returns the string literal that gives e its value: e itself
// or the declaration of the constant it names, when in this package.
func (a *analyzer) stringLiteral(e ast.Expr) ast.Expr {
	switch e := unparen(e).(type) {
	case *ast.BasicLit:
		return e
	case *ast.Ident:
		c, ok := a.pass.TypesInfo.Uses[e].(*types.Const)
		if !ok || c.Pkg() != a.pass.Pkg {
			return nil
		}
		for _, f := range a.pass.Files {
			if c.Pos() < f.FileStart || c.Pos() >= f.FileEnd {
				continue
			}
			var lit ast.Expr
			ast.Inspect(f, func(n ast.Node) bool {
				vs, ok := n.(*ast.ValueSpec)
				if !ok {
					return lit == nil
				}
				for i, id := range vs.Names {
					if a.pass.TypesInfo.Defs[id] == c && i < len(vs.Values) {
						if bl, ok := unparen(vs.Values[i]).(*ast.BasicLit); ok {
							lit = bl
						}
					}
				}
				return false
			})
			return lit
		}
	}
	return nil
}

// failsafeSite evaluates a failsafe-go retry policy builder chain:
// retrypolicy.NewBuilder[R]().WithMaxRetries(3).Build().
func (a *analyzer) failsafeSite(s *Site, cur inspector.Cursor, _ *ast.CallExpr) *Site {
	lib := retryapi.Named(s.Entry.Library)
	count, timed := true, false
	unboundNote, timeNote := "", ""
	// Walk up the method chain.
	for c := cur; ; {
		sel, ok := c.Parent().Node().(*ast.SelectorExpr)
		if !ok {
			break
		}
		pc := c.Parent().Parent()
		mc, ok := pc.Node().(*ast.CallExpr)
		if !ok || mc.Fun != sel {
			break
		}
		switch opt, _ := lib.Option(sel.Sel.Name); opt.Effect {
		case retryapi.Attempts, retryapi.Retries:
			if b, ok := a.optionCount(opt, arg(mc, 0)); ok && b.Kind == Unbounded {
				count, unboundNote = false, opt.Note
			} else {
				count, s.Bound = true, b
			}
		case retryapi.TimeCap:
			timed, timeNote = true, opt.Note
		case retryapi.Budget:
			s.Guard = &Guard{Kind: GuardNative, Desc: sel.Sel.Name, Budget: arg(mc, 0)}
		case retryapi.SetsDelay:
			s.Backoff.Delay = GrowingDelay
		case retryapi.SetsJitter:
			s.Backoff.Jitter = true
		}
		s.Node = mc
		c = pc
	}
	if !count {
		s.Bound = Bound{Kind: Unbounded, Note: unboundNote}
		if timed {
			s.Bound = Bound{Kind: BoundTime, Note: timeNote}
		}
	}
	return s
}

// awsSite: the AWS SDK v2 standard retryer has a retry quota (a budget)
// unless its RateLimiter is ratelimit.None.
func (a *analyzer) awsSite(s *Site, _ inspector.Cursor, call *ast.CallExpr) *Site {
	var none ast.Expr
	for _, x := range call.Args {
		ast.Inspect(x, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				sel, ok := unparen(l).(*ast.SelectorExpr)
				if !ok {
					continue
				}
				switch sel.Sel.Name {
				case "RateLimiter":
					if v, ok := a.objOf(as.Rhs[i]).(*types.Var); ok && objectName(v) == retryapi.AWSNoQuota {
						none = as.Rhs[i]
					}
				case "MaxAttempts":
					if n, ok := a.intConst(as.Rhs[i]); ok && n > 0 {
						s.Bound = Bound{Kind: BoundCount, N: int(n)}
					}
				}
			}
			return true
		})
	}
	if none == nil {
		s.Guard = &Guard{Kind: GuardNative, Desc: "the SDK's retry quota"}
	}
	s.Config = none
	return s
}

// k8sBound evaluates a wait.Backoff: its Steps.
func (a *analyzer) k8sBound(e ast.Expr) Bound {
	e = unparen(e)
	if id, ok := e.(*ast.Ident); ok {
		if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && v.Pkg() == a.pass.Pkg {
			if def := a.definingExpr(v); def != nil {
				e = unparen(def)
			}
		}
	}
	if v, ok := a.objOf(e).(*types.Var); ok {
		if b, ok := retryapi.K8sBackoffs[objectName(v)]; ok {
			return (b)
		}
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		if v := astx.Field(lit, "Steps"); v != nil {
			return a.definer.CountBound(v, 0, false)
		}
	}
	return Bound{}
}

// unconvert returns the operand of a conversion to a func type
// (OpFn[int](f)), else e.
func (a *analyzer) unconvert(e ast.Expr) ast.Expr {
	for {
		c, ok := unparen(e).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return e
		}
		tv, ok := a.pass.TypesInfo.Types[c.Fun]
		if !ok || !tv.IsType() {
			return e
		}
		e = c.Args[0]
	}
}
