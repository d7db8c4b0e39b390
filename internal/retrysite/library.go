package retrysite

import (
	"encoding/json"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Import paths of the retry libraries the analysis knows.
const (
	pathBackoff   = "github.com/cenkalti/backoff"
	pathRetryGo   = "github.com/avast/retry-go"
	pathGoRetry   = "github.com/sethvargo/go-retry"
	pathRetryable = "github.com/hashicorp/go-retryablehttp"
	pathRestyV2   = "github.com/go-resty/resty/v2"
	pathRestyV3   = "resty.dev/v3"
	pathGRPC      = "google.golang.org/grpc"
	pathMiddleV2  = "github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/retry"
	pathMiddleV1  = "github.com/grpc-ecosystem/go-grpc-middleware/retry"
	pathFailsafe  = "github.com/failsafe-go/failsafe-go"
	pathAWSRetry  = "github.com/aws/aws-sdk-go-v2/aws/retry"
	pathAWSRate   = "github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	pathK8sRetry  = "k8s.io/client-go/util/retry"
	pathK8sWait   = "k8s.io/apimachinery/pkg/util/wait"
	pathRetryDo   = "github.com/retrylint/retrylint/budget/retry"
)

// libraryFamily maps an import path to the library it belongs to, or "".
func libraryFamily(path string) string {
	switch {
	case path == pathBackoff || path == pathBackoff+"/v3" || path == pathBackoff+"/v4":
		return "backoff.v4"
	case path == pathBackoff+"/v5":
		return "backoff.v5"
	case path == pathRetryGo || path == pathRetryGo+"/v3" || path == pathRetryGo+"/v4":
		return "retrygo"
	case path == pathRetryGo+"/v5":
		return "retrygo.v5"
	case path == pathGoRetry:
		return "goretry"
	case path == pathRetryable:
		return "retryablehttp"
	case path == pathRestyV2 || path == pathRestyV3:
		return "resty"
	case path == pathGRPC:
		return "grpc"
	case path == pathMiddleV2 || path == pathMiddleV1:
		return "grpcretry"
	case path == pathFailsafe+"/retrypolicy" || path == pathFailsafe+"/failsafehttp" || path == pathFailsafe+"/failsafegrpc":
		return "failsafe"
	case path == pathAWSRetry:
		return "aws"
	case path == pathK8sRetry:
		return "k8s"
	case path == pathK8sWait:
		return "k8swait"
	case path == pathRetryDo:
		return "retrydo"
	}
	return ""
}

// IsLibraryPath reports whether path is the import path of a retry library
// the analysis knows.
func IsLibraryPath(path string) bool { return libraryFamily(typesx.TrimVendor(path)) != "" }

// inLibrary reports whether pkg is one of the retry libraries' own
// packages: there, a call of its API implements the library. Other
// packages of the same module (client-go's users of util/retry) are
// users like any other.
func inLibrary(pkg string) bool {
	return libraryFamily(typesx.TrimVendor(pkg)) != ""
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
			fam := libraryFamily(typesx.PkgPath(fn))
			if fam == "" {
				continue
			}
			s = a.librarySite(cur, n, fn, fam)
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
	fn := a.callee(call)
	return fn != nil && libraryFamily(typesx.PkgPath(fn)) != ""
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

func (a *analyzer) librarySite(cur inspector.Cursor, call *ast.CallExpr, fn *types.Func, fam string) *Site {
	name, recv := fn.Name(), typesx.RecvName(fn)
	switch fam {
	case "backoff.v4":
		switch name {
		case "Retry", "RetryNotify", "RetryNotifyWithTimer", "RetryWithData", "RetryNotifyWithData", "RetryNotifyWithTimerAndData":
			s := a.libSite(cur, call, "backoff."+name, arg(call, 0))
			s.Bound = a.backoffV4Bound(arg(call, 1), s.Func)
			if s.Bound.Kind == BoundCount && s.Bound.N == 1 {
				return nil // StopBackOff: never retries
			}
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
			return s
		}
	case "backoff.v5":
		if name == "Retry" && recv == "" {
			s := a.libSite(cur, call, "backoff.Retry", arg(call, 1))
			s.Bound = a.backoffV5Bound(call)
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
			return s
		}
	case "retrygo":
		if (name == "Do" || name == "DoWithData") && recv == "" {
			s := a.libSite(cur, call, "retry."+name, arg(call, 0))
			s.Bound, s.Guard = a.retryGoOptions(call, 1, s.Guard)
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
			return s
		}
	case "retrygo.v5":
		if name == "Do" && recv != "" {
			s := a.libSite(cur, call, "retry.(*Retrier).Do", arg(call, 0))
			s.Bound = Bound{Kind: BoundUnknown}
			if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok {
				if nc := a.constructorCall(sel.X); nc != nil {
					if f := a.callee(nc); f != nil && (f.Name() == "New" || f.Name() == "NewWithData") {
						s.Bound, s.Guard = a.retryGoOptions(nc, 0, s.Guard)
					}
				}
			}
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
			return s
		}
	case "goretry":
		switch name {
		case "Do", "DoValue":
			s := a.libSite(cur, call, "retry."+name, arg(call, 2))
			s.Bound = a.goRetryBound(arg(call, 1))
			s.Exempt = a.goRetryExempt(s)
			return s
		case "Constant", "Exponential", "Fibonacci":
			if recv != "" || len(call.Args) != 3 {
				return nil
			}
			s := a.libSite(cur, call, "retry."+name, arg(call, 2))
			s.Bound = Bound{Kind: Unbounded, Note: "until the context ends"}
			s.Exempt = a.goRetryExempt(s)
			return s
		}
	case "retryablehttp":
		return a.retryableSite(cur, call, name, recv)
	case "resty":
		if name == "SetRetryCount" && (recv == "Client" || recv == "Request") {
			n := arg(call, 0)
			if v, ok := a.intConst(n); ok && v <= 0 {
				return nil
			}
			s := a.libSite(cur, call, "resty."+name, nil)
			s.Bound = a.countBound(n, -1, false)
			s.Guard = a.restyGuard(s.Func)
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
			return s
		}
	case "grpc":
		if name == "WithDefaultServiceConfig" {
			return a.grpcSite(cur, call)
		}
	case "grpcretry":
		if name == "UnaryClientInterceptor" || name == "StreamClientInterceptor" {
			return a.grpcRetrySite(cur, call, name)
		}
	case "failsafe":
		if name == "NewBuilder" || name == "NewWithDefaults" || name == "NewRetryPolicyBuilder" {
			return a.failsafeSite(cur, call, name)
		}
	case "aws":
		if name == "NewStandard" || name == "NewAdaptiveMode" {
			return a.awsSite(cur, call, name)
		}
	case "k8s":
		switch name {
		case "RetryOnConflict":
			s := a.libSite(cur, call, "retry.RetryOnConflict", arg(call, 1))
			s.Bound = a.k8sBound(arg(call, 0))
			s.Exempt = "it retries only optimistic-concurrency conflicts"
			return s
		case "OnError":
			s := a.libSite(cur, call, "retry.OnError", arg(call, 2))
			s.Bound = a.k8sBound(arg(call, 0))
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
			return s
		}
	case "k8swait":
		// The backoff family retries its condition while it answers
		// (false, nil); it is a retry when the condition answers so on a
		// failure, a poll for a state otherwise.
		op, bo := arg(call, 1), arg(call, 0)
		switch name {
		case "ExponentialBackoff":
		case "ExponentialBackoffWithContext":
			op, bo = arg(call, 2), arg(call, 1)
		default:
			return nil
		}
		if lit := a.funcLitOf(op); lit == nil || !a.retriesOnFailure(lit) {
			return nil
		}
		s := a.libSite(cur, call, "wait."+name, op)
		s.Bound = a.k8sBound(bo)
		s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
		return s
	case "retrydo":
		if (name == "Do" || name == "DoValue") && recv == "" {
			s := a.libSite(cur, call, "retry."+name, arg(call, 2))
			a.retryDoPolicy(s, arg(call, 1))
			return s
		}
	}
	return nil
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
			if r, ok := st.(*ast.ReturnStmt); ok && len(r.Results) == 2 && a.isBoolConst(r.Results[0], false) && a.isNil(r.Results[1]) {
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
	lit, _ := unparen(p).(*ast.CompositeLit)
	if id, ok := unparen(p).(*ast.Ident); ok {
		if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok {
			lit, _ = unparen(a.definingExpr(v)).(*ast.CompositeLit)
		}
	}
	if lit == nil {
		return
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		k, _ := kv.Key.(*ast.Ident)
		if k == nil {
			continue
		}
		switch k.Name {
		case "MaxAttempts":
			s.Bound = a.countBound(kv.Value, 0, false)
		case "Budget":
			if !a.isNil(kv.Value) {
				s.Guard = &Guard{Kind: GuardNative, Desc: "retry.Policy.Budget", Budget: kv.Value}
			}
		case "InitialDelay":
			s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
		}
	}
}

// grpcRetrySite reads the options of a go-grpc-middleware retry
// interceptor, following option variables and slices: WithMax(n) makes it
// retry (without it, it does not); Disable switches it off. Options it
// cannot see leave the bound unknown rather than the site unreported.
func (a *analyzer) grpcRetrySite(cur inspector.Cursor, call *ast.CallExpr, name string) *Site {
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
			switch fn.Name() {
			case "WithMax":
				max, disabled = arg(x, 0), false
			case "Disable":
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
	s := a.libSite(cur, call, "retry."+name, nil)
	s.Backoff = Backoff{Delay: FixedDelay, Jitter: true}
	switch {
	case disabled:
		return nil
	case max != nil:
		if v, isConst := a.intConst(max); isConst && v <= 1 {
			return nil // disabled, or one attempt
		}
		s.Bound = a.countBound(max, 0, false)
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
		if x := a.fieldAssigned(fn, v, "MaxElapsedTime"); x != nil && b.Kind == BoundTime {
			if n, ok := a.intConst(x); ok && n == 0 {
				b = Bound{Kind: Unbounded, Note: "MaxElapsedTime is 0"}
			}
		}
		return b
	case *ast.CallExpr:
		f := a.callee(e)
		if f == nil || libraryFamily(typesx.PkgPath(f)) != "backoff.v4" {
			return Bound{}
		}
		switch f.Name() {
		case "WithMaxRetries":
			return a.countBound(arg(e, 1), -1, false)
		case "WithContext":
			return a.backoffV4Bound(arg(e, 0), fn)
		case "NewExponentialBackOff":
			opts, _ := a.options(e, 0)
			for _, o := range opts {
				if o.name == "WithMaxElapsedTime" {
					if n, ok := a.intConst(arg(o.call, 0)); ok && n == 0 {
						return Bound{Kind: Unbounded, Note: "MaxElapsedTime is 0"}
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
			for _, elt := range e.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "MaxElapsedTime" {
						if n, ok := a.intConst(kv.Value); !ok || n != 0 {
							return Bound{Kind: BoundTime, Note: "MaxElapsedTime"}
						}
					}
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

// fieldAssigned returns the value last assigned to v.field in fn's body.
func (a *analyzer) fieldAssigned(fn ast.Node, v types.Object, field string) ast.Expr {
	var val ast.Expr
	astx.InspectNoLit(astx.FuncBody(fn), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if sel, ok := unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == field && a.objOf(sel.X) == v {
				val = as.Rhs[i]
			}
		}
		return true
	})
	return val
}

// backoffV5Bound evaluates the options of a cenkalti/backoff v5 Retry call.
func (a *analyzer) backoffV5Bound(call *ast.CallExpr) Bound {
	opts, ok := a.options(call, 2)
	if !ok {
		return Bound{}
	}
	tries, timeCap := int64(0), true
	var triesExpr ast.Expr
	for _, o := range opts {
		switch o.name {
		case "WithMaxTries":
			if n, ok := a.intConst(arg(o.call, 0)); ok {
				tries = n
			} else {
				triesExpr = arg(o.call, 0)
			}
		case "WithMaxElapsedTime":
			if n, ok := a.intConst(arg(o.call, 0)); ok && n == 0 {
				timeCap = false
			}
		}
	}
	switch {
	case tries > 0:
		return Bound{Kind: BoundCount, N: int(tries)}
	case triesExpr != nil:
		return a.countBound(triesExpr, 0, false)
	case timeCap:
		return Bound{Kind: BoundTime, Note: "MaxElapsedTime, 15m by default"}
	}
	return Bound{Kind: Unbounded}
}

// retryGoOptions evaluates avast/retry-go options: Attempts (default 10,
// 0 = forever), UntilSucceeded, and the v5 throttles.
func (a *analyzer) retryGoOptions(call *ast.CallExpr, from int, g *Guard) (Bound, *Guard) {
	opts, ok := a.options(call, from)
	b := Bound{Kind: BoundCount, N: 10, Note: "the default of 10"}
	if !ok {
		b = Bound{}
	}
	for _, o := range opts {
		switch o.name {
		case "Attempts":
			if n, ok := a.intConst(arg(o.call, 0)); ok && n == 0 {
				b = Bound{Kind: Unbounded, Note: "Attempts(0)"}
			} else {
				b = a.countBound(arg(o.call, 0), 0, false)
			}
		case "UntilSucceeded":
			b = Bound{Kind: Unbounded, Note: "UntilSucceeded"}
		case "WithThrottle", "WithFixedTokenBucketThrottle":
			if !a.isNil(unparen(arg(o.call, 0))) {
				g = &Guard{Kind: GuardNative, Desc: o.name}
			}
		case "RetryIf":
			// A retry condition that asks a budget.
			if g == nil {
				g = a.firstGuard(arg(o.call, 0), true)
			}
		}
	}
	return b, g
}

// goRetryBound evaluates a sethvargo/go-retry Backoff expression.
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
	if f == nil || typesx.PkgPath(f) != pathGoRetry {
		return Bound{}
	}
	switch f.Name() {
	case "WithMaxRetries":
		return a.countBound(arg(call, 0), -1, false)
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
			if f := a.callee(call); f != nil && typesx.PkgPath(f) == pathGoRetry && f.Name() == "RetryableError" {
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

// retryableSite handles go-retryablehttp: NewClient builds a client that
// retries (RetryMax 4 by default), and the package-level Get/Post/... use
// such a client.
func (a *analyzer) retryableSite(cur inspector.Cursor, call *ast.CallExpr, name, recv string) *Site {
	switch {
	case recv == "" && name == "NewClient":
		s := a.libSite(cur, call, "retryablehttp.NewClient", nil)
		s.Bound = Bound{Kind: BoundCount, N: 5, Note: "RetryMax 4 by default"}
		s.Backoff = Backoff{Delay: GrowingDelay}
		if lhs := assignedTo(cur); lhs != nil {
			if v := a.assignedField(s.Func, lhs, "RetryMax"); v != nil {
				if n, ok := a.intConst(v); ok && n <= 0 {
					return nil
				}
				s.Bound = a.countBound(v, -1, false)
			}
			for _, hook := range []string{"CheckRetry", "PrepareRetry", "Backoff"} {
				if v := a.assignedField(s.Func, lhs, hook); v != nil && s.Guard == nil {
					s.Guard = a.firstGuard(v, true)
				}
			}
		}
		return s
	case recv == "" && (name == "Get" || name == "Head" || name == "Post" || name == "PostForm"):
		s := a.libSite(cur, call, "retryablehttp."+name, nil)
		s.Bound = Bound{Kind: BoundCount, N: 5, Note: "the default client's RetryMax 4"}
		s.Backoff = Backoff{Delay: GrowingDelay}
		s.Attempts = []Attempt{{Call: call, Dep: a.depOf(call)}}
		return s
	}
	return nil
}

// retryableLiteral handles &retryablehttp.Client{RetryMax: n, ...}.
func (a *analyzer) retryableLiteral(cur inspector.Cursor, lit *ast.CompositeLit) *Site {
	t, ok := types.Unalias(a.pass.TypesInfo.TypeOf(lit)).(*types.Named)
	if !ok || t.Obj().Name() != "Client" || t.Obj().Pkg() == nil || typesx.TrimVendor(t.Obj().Pkg().Path()) != pathRetryable {
		return nil
	}
	var max ast.Expr
	var g *Guard
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		switch k, _ := kv.Key.(*ast.Ident); {
		case k == nil:
		case k.Name == "RetryMax":
			max = kv.Value
		case k.Name == "CheckRetry" || k.Name == "PrepareRetry":
			if g == nil {
				g = a.firstGuard(kv.Value, true)
			}
		}
	}
	if max == nil {
		return nil // the zero RetryMax makes one attempt
	}
	if n, ok := a.intConst(max); ok && n <= 0 {
		return nil
	}
	s := &Site{Kind: Library, Node: lit, Pos: lit.Pos(), Func: astx.EnclosingFunc(cur), API: "retryablehttp.Client", Guard: g}
	s.Bound = a.countBound(max, -1, false)
	s.Backoff = Backoff{Delay: GrowingDelay}
	return s
}

// assignedTo returns the expression the value at cur is assigned to
// (x := f(), x = f(), s.c = f()), or nil.
func assignedTo(cur inspector.Cursor) ast.Expr {
	as, ok := cur.Parent().Node().(*ast.AssignStmt)
	if !ok || len(as.Lhs) != len(as.Rhs) {
		return nil
	}
	for i, r := range as.Rhs {
		if r == cur.Node() {
			return as.Lhs[i]
		}
	}
	return nil
}

// assignedField returns the value last assigned to <lhs>.field in fn,
// where <lhs> is spelled as in lhs (a variable or a field path).
func (a *analyzer) assignedField(fn ast.Node, lhs ast.Expr, field string) ast.Expr {
	want := types.ExprString(lhs)
	var val ast.Expr
	astx.InspectNoLit(astx.FuncBody(fn), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			if sel, ok := unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == field && types.ExprString(sel.X) == want {
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
		if f := a.callee(call); f != nil && libraryFamily(typesx.PkgPath(f)) == "resty" && strings.HasPrefix(f.Name(), "AddRetry") {
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
func (a *analyzer) grpcSite(cur inspector.Cursor, call *ast.CallExpr) *Site {
	js, ok := a.stringConst(arg(call, 0))
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
			n = 5
		}
		max = maxInt(max, n)
	}
	if max < 2 {
		return nil
	}
	s := a.libSite(cur, call, "grpc.WithDefaultServiceConfig", nil)
	note := ""
	if max > 5 {
		max, note = 5, "maxAttempts is capped at 5"
	}
	s.Bound = Bound{Kind: BoundCount, N: int(max), Note: note}
	s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
	if sc.RetryThrottling != nil {
		s.Guard = &Guard{Kind: GuardNative, Desc: "retryThrottling"}
	}
	s.Config = a.stringLiteral(arg(call, 0))
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
func (a *analyzer) failsafeSite(cur inspector.Cursor, call *ast.CallExpr, name string) *Site {
	s := a.libSite(cur, call, "retrypolicy."+name, nil)
	s.Bound = Bound{Kind: BoundCount, N: 3, Note: "the default of 2 retries"}
	s.Backoff = Backoff{Delay: NoDelay}
	count := true
	timed := false
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
		switch sel.Sel.Name {
		case "WithMaxRetries":
			if n, ok := a.intConst(arg(mc, 0)); ok && n < 0 {
				count = false
			} else {
				count = true
				s.Bound = a.countBound(arg(mc, 0), -1, false)
			}
		case "WithMaxAttempts":
			if n, ok := a.intConst(arg(mc, 0)); ok && n < 0 {
				count = false
			} else {
				count = true
				s.Bound = a.countBound(arg(mc, 0), 0, false)
			}
		case "WithMaxDuration":
			timed = true
		case "WithBudget":
			s.Guard = &Guard{Kind: GuardNative, Desc: "WithBudget", Budget: arg(mc, 0)}
		case "WithDelay", "WithBackoff", "WithBackoffFactor", "WithRandomDelay":
			s.Backoff.Delay = GrowingDelay
		case "WithJitter", "WithJitterFactor":
			s.Backoff.Jitter = true
		}
		s.Node = mc
		c = pc
	}
	if !count {
		s.Bound = Bound{Kind: Unbounded, Note: "max retries -1"}
		if timed {
			s.Bound = Bound{Kind: BoundTime, Note: "WithMaxDuration"}
		}
	}
	return s
}

// awsSite: the AWS SDK v2 standard retryer has a retry quota (a budget)
// unless its RateLimiter is ratelimit.None.
func (a *analyzer) awsSite(cur inspector.Cursor, call *ast.CallExpr, name string) *Site {
	s := a.libSite(cur, call, "retry."+name, nil)
	s.Bound = Bound{Kind: BoundCount, N: 3, Note: "the SDK default"}
	s.Backoff = Backoff{Delay: GrowingDelay, Jitter: true}
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
					if v, ok := a.objOf(as.Rhs[i]).(*types.Var); ok && v.Name() == "None" && v.Pkg() != nil && typesx.TrimVendor(v.Pkg().Path()) == pathAWSRate {
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
	if v, ok := a.objOf(e).(*types.Var); ok && v.Pkg() != nil && typesx.TrimVendor(v.Pkg().Path()) == pathK8sRetry {
		switch v.Name() {
		case "DefaultRetry":
			return Bound{Kind: BoundCount, N: 5}
		case "DefaultBackoff":
			return Bound{Kind: BoundCount, N: 4}
		}
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Steps" {
					return a.countBound(kv.Value, 0, false)
				}
			}
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
