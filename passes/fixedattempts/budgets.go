package fixedattempts

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/srcpos"
	"github.com/retrylint/retrylint/internal/typesx"
)

// The budgets of the fixes: one per dependency, always, the dependency
// being the one sharedbudget sees (retrysite.Deps). A fix uses a
// budget already in scope only when it belongs to the site's dependency: a
// budget parameter of the function, or a package-level variable or a field
// of the receiver named after the dependency that guards no other
// dependency's retries. Otherwise it adds one, named after the dependency
// and shared by every fix of the package that retries the same dependency
// (the same declaration, in the same file, so that the fixes add it
// once): a package-level budget for a client, a package, a host; a
// registry keyed by the field when the dependency is the string in a field
// (a base URL), since each value of the field is another dependency, and
// by the request's host or the target of the connection a gRPC
// interceptor's invoker sends on where the code names neither. A
// retry helper, whose operation is each caller's, gets a budget parameter
// that each caller fills with its own dependency's budget, when every
// caller is in the package; otherwise it gets no fix.

// fixer holds what the fixes of one package share.
type fixer struct {
	pass      *analysis.Pass
	cfg       *Config
	sites     []*retrysite.Site
	canImport bool
	// guards maps the budgets that guard sites now to the dependencies
	// of those sites; picks, the budgets in scope that unguarded sites
	// would take to theirs.
	guards, picks map[types.Object]map[string]bool
	news          map[string]*newBudget // by dependency key
	needs         []*need
	deps          *retrysite.Deps // the package's dependency model
	helpers       map[*retrysite.Site]*helperFix
	// calls are the needs of the calls that give a retry helper no
	// budget.
	calls map[*retrysite.Site]*need
	// why says, for a site that gets no fix, why: the related line of its
	// finding.
	why map[*retrysite.Site]string
}

// NoBudgetInScope is the related line of a finding that has no fix
// because no retry budget of its dependency is in scope and the fix may
// not import the budget package (-budget-module): the command says once
// per run how to enable those fixes.
const NoBudgetInScope = "no fix: no retry budget of this dependency is in scope"

// Why a finding has no fix, in the words of its related line.
const (
	whyNoPlace  = "no fix: there is no place where a refused retry ends the retrying the way the last attempt does"
	whyNoGiveUp = "no fix: the loop leaves only when an attempt succeeds or it is stopped, and its function returns nothing that could carry the failure: a refused retry could only stop it for good"
	whyPolls    = "no fix: the loop also goes round on an answer that is not yet what it waits for, no failure of the dependency, and a budget asked where the paths meet would refuse those polls too"
	whyGo       = "no fix: the attempt is made in a goroutine that reports over channels, where the fixer places no guard yet"
	whyDep      = "no fix: the attempts' dependency is not known, so no budget can be named after it"
	whyNoBudget = NoBudgetInScope
	whyHelper   = "no fix: the retry helper cannot take a budget parameter from every caller"
	whyLiteral  = "no fix: the retry helper is a function literal, which cannot take a budget parameter from its callers"
	whyIface    = "no fix: the retry helper is a method an interface of the package names: a budget parameter would break it"
	whyTestUse  = "no fix: a test file that this analysis of the package does not see uses the retry helper other than by a call that may leave out an optional budget parameter, so the fix would break it"
	whyGuard    = "no fix: the guard cannot be written where the failing paths meet"
	whyReach    = "no fix: the value that names the dependency is not in reach where the retries are, so its budget cannot be looked up there"
	whyVariadic = "no fix: the retry helper is exported and variadic already, so it cannot take an optional budget parameter that its callers in other packages may leave out"
	whyMethod   = "no fix: the retry helper is a method of an exported type, which an interface of another package may name: a budget parameter would break it"
	whyPoll     = "no fix: the condition answers (false, nil) after a failure, which the poll helper retries: make it return the error once a retry budget refuses (if !b.TryRetry() { return false, err })"
	whyFailover = "no fix: a budget in front of healthy endpoints would refuse the failover that keeps a request alive; budget the retries of the request around it instead"
)

// decline records why a site gets no fix, and returns no fix.
func (f *fixer) decline(s *retrysite.Site, why string) *analysis.SuggestedFix {
	if _, ok := f.why[s]; !ok {
		f.why[s] = why
	}
	return nil
}

// budgetWhy is why a site whose dependency is known has no budget to
// guard it with: none in scope and none the fix may add, or one the fix
// may not name where the site is.
func (f *fixer) budgetWhy() string {
	if !f.canImport {
		return whyNoBudget
	}
	return whyReach
}

// need is a place where a fix names the budget of a dependency: a loop,
// or a call of a retry helper that gets a budget parameter.
type need struct {
	pos  token.Pos
	file *ast.File
	fn   ast.Node
	dep  retrysite.Dep
	// key, for a dependency that each value of an expression is (a
	// string field holding a base URL, a request's host), is that
	// expression where the need is: the key of a registry's budget.
	key string
	use *scopedBudget // a budget in scope that belongs to the dependency
}

// scopedBudget is a budget in scope at a need.
type scopedBudget struct {
	expr  string
	obj   types.Object
	name  string
	param bool
}

// newBudget is a budget a fix declares.
type newBudget struct {
	key      string
	dep      retrysite.Dep
	name     string
	registry bool // one budget per value of the needs' key
	file     *ast.File
	uses     []*need
}

// budgetRef is how a fix refers to the budget of a site.
type budgetRef struct {
	expr string // the budget: s.inventoryBudget, inventoryBudget, hostBudgets.For(c.baseURL)
	// given, for a budget that may be absent (an optional parameter's
	// retryBudget[0]), is the condition that it is there: it is asked
	// only then.
	given string
	// absent is given's negation (len(retryBudget) == 0).
	absent  string
	edits   []analysis.TextEdit
	message string
}

func newFixer(pass *analysis.Pass, cfg *Config, sites []*retrysite.Site, fixable func(*retrysite.Site) bool) *fixer {
	f := &fixer{
		pass: pass, cfg: cfg, sites: sites,
		canImport: cfg.BudgetModule || importsBudget(pass.Pkg),
		guards:    map[types.Object]map[string]bool{},
		picks:     map[types.Object]map[string]bool{},
		news:      map[string]*newBudget{},
		helpers:   map[*retrysite.Site]*helperFix{},
		calls:     map[*retrysite.Site]*need{},
		why:       map[*retrysite.Site]string{},
		deps:      retrysite.Of(pass).Deps(),
	}
	for _, s := range sites {
		if s.Guard == nil {
			continue
		}
		var budgets []ast.Expr
		if s.Guard.Budget != nil {
			budgets = append(budgets, s.Guard.Budget)
		}
		for _, g := range s.LoopGuards {
			if g.Budget != nil {
				budgets = append(budgets, g.Budget)
			}
		}
		for _, b := range budgets {
			if o := budgetObj(pass, b); o != nil {
				for _, at := range s.Attempts {
					addKey(f.guards, o, f.normDep(at.Call, at.Dep).Key)
				}
			}
		}
	}
	for _, s := range sites {
		if s.Kind == retrysite.HelperCall && s.Exempt == "" && fixutil.FileOf(pass, s.Pos) != nil {
			if n := f.givesNoBudget(s); n != nil {
				f.calls[s] = n
				f.needs = append(f.needs, n)
			}
			continue
		}
		if !fixable(s) || len(s.Attempts) == 0 {
			continue
		}
		file := fixutil.FileOf(pass, s.Pos)
		if file == nil {
			continue
		}
		if s.Kind == retrysite.Library {
			if n := f.libraryNeed(file, s); n != nil {
				f.needs = append(f.needs, n)
			}
			continue
		}
		if s.Kind != retrysite.Loop {
			continue
		}
		if h := f.helperOf(file, s); h != nil {
			f.helpers[s] = h
			f.needs = append(f.needs, h.needs...)
			continue
		}
		if n := f.needAt(file, s.Node.Pos(), s.Func, s.Attempts[0].Call, f.loopDep(s)); n != nil {
			f.needs = append(f.needs, n)
		}
	}
	for _, n := range f.needs {
		for _, c := range f.matching(n) {
			addKey(f.picks, c.obj, n.dep.Key)
		}
	}
	for _, n := range f.needs {
		n.use = f.inScope(n)
		if n.use == nil && f.canImport {
			f.plan(n)
		}
	}
	f.name()
	return f
}

func addKey(m map[types.Object]map[string]bool, o types.Object, key string) {
	if m[o] == nil {
		m[o] = map[string]bool{}
	}
	m[o][key] = true
}

// budgetObj returns the variable or field a budget expression names.
func budgetObj(pass *analysis.Pass, e ast.Expr) types.Object {
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		return pass.TypesInfo.Uses[x]
	case *ast.SelectorExpr:
		if sel, ok := pass.TypesInfo.Selections[x]; ok {
			return sel.Obj()
		}
		return pass.TypesInfo.Uses[x.Sel]
	}
	return nil
}

// loopDep returns the dependency of a loop's attempts; a failover's,
// whose attempts target each element of a list in turn, is named after
// the list.
func (f *fixer) loopDep(s *retrysite.Site) retrysite.Dep {
	dep := s.Attempts[0].Dep
	r, ok := s.Node.(*ast.RangeStmt)
	if !ok || r.Value == nil {
		return dep
	}
	v, ok := r.Value.(*ast.Ident)
	if !ok || dep.Kind != retrysite.DepLocal || dep.Obj != f.pass.TypesInfo.ObjectOf(v) {
		return dep
	}
	switch x := ast.Unparen(r.X).(type) {
	case *ast.Ident:
		dep.Name = x.Name
	case *ast.SelectorExpr:
		dep.Name = x.Sel.Name
	}
	return dep
}

// normDep returns the dependency of an attempt as the fixes key it, or the
// unknown Dep when no budget can be named after it: the shared model's
// (retrysite.Deps.ForBudget), which is sharedbudget's whenever sharedbudget
// knows the dependency, so that what the fixes add it finds unshared.
func (f *fixer) normDep(call *ast.CallExpr, dep retrysite.Dep) retrysite.Dep {
	return f.deps.ForBudget(retrysite.Attempt{Call: call, Dep: dep})
}

// needAt returns the need of a fix that guards retries to dep (the
// dependency of call) at pos, or nil when the dependency is unknown.
func (f *fixer) needAt(file *ast.File, pos token.Pos, fn ast.Node, call *ast.CallExpr, dep retrysite.Dep) *need {
	dep = f.normDep(call, dep)
	if dep.Key == "" {
		if host := f.requestHost(file, pos, fn, call); host != "" {
			// Each host is a dependency of its own, known when the
			// request is sent: a registry keyed by it.
			return &need{pos: pos, file: file, fn: fn, dep: requestHostDep, key: host}
		}
		if target := f.invokerTarget(file, pos, fn, call); target != "" {
			// So is each target of the connections an interceptor
			// is handed.
			return &need{pos: pos, file: file, fn: fn, dep: grpcTargetDep, key: target}
		}
		if addr := f.dialAddr(file, pos, fn, call); addr != "" {
			// And each address a dial is made to.
			return &need{pos: pos, file: file, fn: fn, dep: dialAddrDep, key: addr}
		}
		return nil
	}
	if fixutil.IdentName(dep.Name) == "" {
		return nil
	}
	n := &need{pos: pos, file: file, fn: fn, dep: dep}
	if dep.Kind == retrysite.DepField {
		if sel := f.stringField(fn, dep); sel != nil {
			n.key = render(f.pass, sel)
		}
	}
	return n
}

// requestHostDep is the dependency of requests whose host the code does
// not name: the host of each request, a registry's key.
var requestHostDep = retrysite.Dep{Kind: retrysite.DepHost, Key: "host:<the request's>", Name: "host"}

// requestHost returns, for an HTTP send (a client's Do or a transport's
// RoundTrip, or a call of a function value of their type, such as a chain
// of middlewares around one) of a request that is the same from pos on,
// the expression of the request's host (req.URL.Host); "" otherwise. The
// request is the same when it is a variable that holds it from pos on, or
// a copy made for the attempt of such a variable or of a field of one
// (attempt := cfg.Request.Clone(ctx)), and no code after pos sets its URL
// or its Host.
func (f *fixer) requestHost(file *ast.File, pos token.Pos, fn ast.Node, call *ast.CallExpr) string {
	if call == nil {
		return ""
	}
	info := f.pass.TypesInfo
	if arg := f.handedRequest(call); arg != nil {
		// A function of this package handed the request reaches its
		// URL (retrysite.Deps, passedOn): send(ctx, req).
		return f.sameRequestHost(file, pos, fn, arg)
	}
	if len(call.Args) != 1 {
		return ""
	}
	if callee := typesx.Callee(info, call); callee != nil {
		send := retrysite.IsHTTPSend(callee) && callee.Pkg().Path() == "net/http"
		if !send && (!typesx.IsInterfaceMethod(callee) || !isSendFunc(callee.Type())) {
			return ""
		}
	} else if !isSendFunc(info.TypeOf(call.Fun)) {
		return ""
	}
	return f.sameRequestHost(file, pos, fn, call.Args[0])
}

// sameRequestHost returns the expression of the host of the request e
// when it is the same from pos on (requestHost); "" otherwise.
func (f *fixer) sameRequestHost(file *ast.File, pos token.Pos, fn ast.Node, e ast.Expr) string {
	if x := f.requestWrapped(file, pos, fn, e); x != nil {
		return x.Name() + ".URL.Host"
	}
	if v := f.heldFrom(file, pos, fn, e); v != nil {
		if !isRequest(v.Type()) || f.builtWithBody(fn, v) || f.urlSet(fn, pos, v) {
			return ""
		}
		return v.Name() + ".URL.Host"
	}
	if x := f.requestCopied(file, pos, fn, e); x != nil {
		return types.ExprString(x) + ".URL.Host"
	}
	return ""
}

// handedRequest returns, for a call of a function of this package (no
// interface method) that is handed exactly one request, that argument;
// nil otherwise.
func (f *fixer) handedRequest(call *ast.CallExpr) ast.Expr {
	callee := typesx.Callee(f.pass.TypesInfo, call)
	if callee == nil || callee.Pkg() != f.pass.Pkg || typesx.IsInterfaceMethod(callee) {
		return nil
	}
	var req ast.Expr
	for _, a := range call.Args {
		if !isRequest(f.pass.TypesInfo.TypeOf(a)) {
			continue
		}
		if req != nil {
			return nil
		}
		req = a
	}
	return req
}

func isRequest(t types.Type) bool { return typesx.IsNamedPtr(t, "net/http", "Request") }

// isSendFunc reports whether t is a function of a client's Do's type:
// func(*http.Request) (*http.Response, error).
func isSendFunc(t types.Type) bool {
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	return ok && sig.Params().Len() == 1 && sig.Results().Len() == 2 &&
		isRequest(sig.Params().At(0).Type()) &&
		typesx.IsNamedPtr(sig.Results().At(0).Type(), "net/http", "Response") &&
		typesx.IsError(sig.Results().At(1).Type())
}

// requestWrapped returns, when e asks a wrapper for the request to send
// (rr.Request(): a method that takes nothing and returns a request, of a
// variable whose one value is a call given one request, rr :=
// NewRetriableRequest(r)), that request's variable, when it holds the
// request from pos on and nothing after pos sets its URL or its Host; nil
// otherwise. The wrapper sends what the caller built, rewound for the
// attempt: its host is the dependency.
func (f *fixer) requestWrapped(file *ast.File, pos token.Pos, fn ast.Node, e ast.Expr) *types.Var {
	info := f.pass.TypesInfo
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 || !isRequest(info.TypeOf(c)) {
		return nil
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s, ok := info.Selections[sel]; !ok || s.Kind() != types.MethodVal {
		return nil
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	w, ok := info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	made, ok := ast.Unparen(f.deps.ConstLocal(w)).(*ast.CallExpr)
	if !ok {
		return nil
	}
	var r *types.Var
	for _, a := range made.Args {
		if !isRequest(info.TypeOf(a)) {
			continue
		}
		if r != nil {
			return nil // two requests: which one is sent is not known
		}
		if r = f.heldFrom(file, pos, fn, a); r == nil {
			return nil
		}
	}
	if r == nil || f.builtWithBody(fn, r) || f.urlSet(fn, pos, r) {
		return nil
	}
	return r
}

// requestCopied returns, when e is a variable declared after pos whose one
// value (the variable index's, Deps.ConstLocal) is a copy of a request (x.Clone(ctx), x.WithContext(ctx)) that is
// the same from pos on (a variable that holds it, or a field of such a
// variable that nothing after pos assigns), that request's expression x;
// nil otherwise. Neither may have its URL or Host set after pos.
func (f *fixer) requestCopied(file *ast.File, pos token.Pos, fn ast.Node, e ast.Expr) ast.Expr {
	info := f.pass.TypesInfo
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.Pos() <= pos || !isRequest(v.Type()) || f.urlSet(fn, pos, v) {
		return nil
	}
	value := f.deps.ConstLocal(v)
	c, ok := ast.Unparen(value).(*ast.CallExpr)
	if !ok {
		return nil
	}
	callee := typesx.Callee(info, c)
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || callee == nil || typesx.PkgPath(callee) != "net/http" || (callee.Name() != "Clone" && callee.Name() != "WithContext") {
		return nil
	}
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.Ident:
		if w := f.heldFrom(file, pos, fn, x); w != nil && isRequest(w.Type()) && !f.builtWithBody(fn, w) && !f.urlSet(fn, pos, w) {
			return x
		}
	case *ast.SelectorExpr:
		field, ok := info.Uses[x.Sel].(*types.Var)
		if !ok || !field.IsField() || f.heldFrom(file, pos, fn, x.X) == nil || f.fieldSet(fn, pos, field) {
			return nil
		}
		return x
	}
	return nil
}

// urlSet reports whether code of fn after pos sets the URL or the Host of
// the request v holds (v.URL.Host = h, v.URL = u, v.Host = h).
func (f *fixer) urlSet(fn ast.Node, pos token.Pos, v *types.Var) bool {
	return f.assignedAfter(fn, pos, func(sel *ast.SelectorExpr, _ string) bool {
		x, ok := ast.Unparen(sel.X).(*ast.Ident)
		return ok && f.pass.TypesInfo.Uses[x] == v && (sel.Sel.Name == "URL" || sel.Sel.Name == "Host")
	})
}

// fieldSet reports whether code of fn after pos assigns the field, or the
// URL or Host of what it holds (x.Request.URL.Host = h; a rewound body,
// x.Request.Body = b, leaves the request's host as it was).
func (f *fixer) fieldSet(fn ast.Node, pos token.Pos, field *types.Var) bool {
	return f.assignedAfter(fn, pos, func(sel *ast.SelectorExpr, outer string) bool {
		return f.pass.TypesInfo.Uses[sel.Sel] == field && (outer == "" || outer == "URL" || outer == "Host")
	})
}

// assignedAfter reports whether an assignment of fn after pos has, in the
// chain of selections of one of its left sides, a selection that hit
// accepts; outer is the name selected from that selection ("" when it is
// the whole left side).
func (f *fixer) assignedAfter(fn ast.Node, pos token.Pos, hit func(sel *ast.SelectorExpr, outer string) bool) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Pos() < pos || found {
			return !found
		}
		for _, l := range as.Lhs {
			outer := ""
			for e := ast.Unparen(l); ; {
				sel, ok := e.(*ast.SelectorExpr)
				if !ok {
					break
				}
				if hit(sel, outer) {
					found = true
				}
				outer, e = sel.Sel.Name, ast.Unparen(sel.X)
			}
		}
		return !found
	})
	return found
}

// dialAddrDep is the dependency of dials whose address the code does not
// hold in a field: the address of each dial, a registry's key.
var dialAddrDep = retrysite.Dep{Kind: retrysite.DepHost, Key: "addr:<the dialled address>", Name: "addr"}

// dialAddr returns, for a dial of the standard library
// (retrysite.DialAddress) whose address is the same from pos on, the
// expression of the address; "" otherwise. The address is the same when
// it is a variable that holds it from pos on (heldFrom), or the String()
// of one of a type of package net (a *net.UnixAddr resolved before the
// loop).
func (f *fixer) dialAddr(file *ast.File, pos token.Pos, fn ast.Node, call *ast.CallExpr) string {
	if call == nil {
		return ""
	}
	addr := retrysite.DialAddress(typesx.Callee(f.pass.TypesInfo, call), call)
	if addr == nil {
		return ""
	}
	x := addr
	if c, ok := ast.Unparen(addr).(*ast.CallExpr); ok && len(c.Args) == 0 {
		sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		m := typesx.Callee(f.pass.TypesInfo, c)
		if !ok || m == nil || m.Name() != "String" || typesx.PkgPath(m) != "net" {
			return ""
		}
		x = sel.X
	}
	if f.heldFrom(file, pos, fn, x) == nil {
		return ""
	}
	return render(f.pass, addr)
}

// grpcTargetDep is the dependency of the calls a gRPC client interceptor
// makes through its invoker: the target of the connection each call is
// made on, a registry's key.
var grpcTargetDep = retrysite.Dep{Kind: retrysite.DepHost, Key: "grpc:<the connection's target>", Name: "grpcTarget"}

// invokerTarget returns, for a call of a gRPC interceptor's invoker or
// streamer (grpc.UnaryInvoker, grpc.Streamer: it sends the call on the
// connection it is handed) whose connection is a variable that holds the
// same connection from pos on, the expression of the connection's target
// (cc.Target()); "" otherwise.
func (f *fixer) invokerTarget(file *ast.File, pos token.Pos, fn ast.Node, call *ast.CallExpr) string {
	if call == nil || !isInvoker(f.pass.TypesInfo.TypeOf(call.Fun)) {
		return ""
	}
	for _, a := range call.Args {
		if typesx.IsNamedPtr(f.pass.TypesInfo.TypeOf(a), grpcPath, "ClientConn") {
			if v := f.heldFrom(file, pos, fn, a); v != nil {
				return v.Name() + ".Target()"
			}
			return ""
		}
	}
	return ""
}

const grpcPath = "google.golang.org/grpc"

// isInvoker reports whether t is the type of the function a gRPC client
// interceptor is handed to make the call it intercepts.
func isInvoker(t types.Type) bool {
	return typesx.IsNamed(t, grpcPath, "UnaryInvoker") || typesx.IsNamed(t, grpcPath, "Streamer")
}

// heldFrom returns the variable e names when it holds the same value from
// pos on: declared before pos, in scope there, assigned nowhere after it
// in fn, its address never taken; nil otherwise.
func (f *fixer) heldFrom(file *ast.File, pos token.Pos, fn ast.Node, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := f.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pos() >= pos {
		return nil
	}
	scope := f.pass.TypesInfo.Scopes[file]
	if scope == nil {
		return nil
	}
	if _, obj := scope.Innermost(pos).LookupParent(v.Name(), pos); obj != v {
		return nil
	}
	assigned := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if n == nil || n.End() <= pos || assigned {
			return !assigned
		}
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, l := range x.Lhs {
				if lid, ok := ast.Unparen(l).(*ast.Ident); ok && f.pass.TypesInfo.Uses[lid] == v && l.Pos() > pos {
					assigned = true
				}
			}
		case *ast.UnaryExpr:
			if lid, ok := ast.Unparen(x.X).(*ast.Ident); ok && x.Op == token.AND && f.pass.TypesInfo.Uses[lid] == v {
				assigned = true // its address is taken: it may change
			}
		}
		return !assigned
	})
	if assigned {
		return nil
	}
	return v
}

// builtWithBody reports whether fn builds the request v with
// http.NewRequest or http.NewRequestWithContext and a body other than nil
// or http.NoBody: sent on every attempt, such a request sends its body
// once (reusedbody), and its fix moves the construction into the loop,
// where a budget keyed by the request would be out of reach.
func (f *fixer) builtWithBody(fn ast.Node, v *types.Var) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found || len(as.Rhs) != 1 {
			return !found
		}
		call, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		callee := typesx.Callee(f.pass.TypesInfo, call)
		if !typesx.IsFunc(callee, "net/http", "NewRequest") && !typesx.IsFunc(callee, "net/http", "NewRequestWithContext") {
			return true
		}
		lid, ok := ast.Unparen(as.Lhs[0]).(*ast.Ident)
		if !ok || f.pass.TypesInfo.ObjectOf(lid) != v {
			return true
		}
		body := call.Args[len(call.Args)-1]
		if typesx.IsNil(f.pass.TypesInfo, body) {
			return true
		}
		if sel, ok := ast.Unparen(body).(*ast.SelectorExpr); ok {
			if obj := f.pass.TypesInfo.Uses[sel.Sel]; obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "net/http" && obj.Name() == "NoBody" {
				return true
			}
		}
		found = true
		return false
	})
	return found
}

// stringField returns, when dep is a string field (a base URL or host),
// a selection of it in fn rooted at the receiver or a parameter.
func (f *fixer) stringField(fn ast.Node, dep retrysite.Dep) *ast.SelectorExpr {
	var found *ast.SelectorExpr
	params := paramObjs(f.pass, fn)
	ast.Inspect(fn, func(n ast.Node) bool {
		x, ok := n.(*ast.SelectorExpr)
		if !ok || found != nil {
			return found == nil
		}
		sel, ok := f.pass.TypesInfo.Selections[x]
		if !ok || sel.Kind() != types.FieldVal || x.Sel.Name != dep.Name {
			return true
		}
		if !typesx.IsString(sel.Obj().Type()) {
			return true
		}
		if sel.Obj() != dep.Obj {
			return true
		}
		if id, ok := ast.Unparen(x.X).(*ast.Ident); ok && params[f.pass.TypesInfo.Uses[id]] {
			found = x
		}
		return true
	})
	return found
}

// paramObjs returns the receiver and parameters of a function.
func paramObjs(pass *analysis.Pass, fn ast.Node) map[types.Object]bool {
	out := map[types.Object]bool{}
	var lists []*ast.FieldList
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		lists = append(lists, fn.Recv, fn.Type.Params)
	case *ast.FuncLit:
		lists = append(lists, fn.Type.Params)
	}
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, fld := range l.List {
			for _, id := range fld.Names {
				if o := pass.TypesInfo.Defs[id]; o != nil {
					out[o] = true
				}
			}
		}
	}
	return out
}

// candidates returns the budgets in scope at a need: the function's budget
// parameters, package-level budgets and budget fields of the receiver.
func (f *fixer) candidates(n *need) []scopedBudget {
	var out []scopedBudget
	scope := f.pass.TypesInfo.Scopes[n.file]
	if scope == nil {
		return nil
	}
	params := paramObjs(f.pass, n.fn)
	seen := map[types.Object]bool{}
	for sc := scope.Innermost(n.pos); sc != nil && sc != types.Universe; sc = sc.Parent() {
		for _, name := range sc.Names() {
			_, obj := sc.LookupParent(name, n.pos)
			v, ok := obj.(*types.Var)
			if !ok || seen[v] || !isBudget(v.Type()) {
				continue
			}
			seen[v] = true
			switch {
			case params[v]:
				out = append(out, scopedBudget{expr: name, obj: v, name: name, param: true})
			case v.Parent() == f.pass.Pkg.Scope():
				out = append(out, scopedBudget{expr: name, obj: v, name: name})
			}
		}
	}
	if fd, ok := n.fn.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recv := fd.Recv.List[0].Names[0]
		if v, ok := f.pass.TypesInfo.Defs[recv].(*types.Var); ok && recv.Name != "_" {
			t := v.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if st, ok := t.Underlying().(*types.Struct); ok {
				for fld := range st.Fields() {
					if isBudget(fld.Type()) && (fld.Exported() || fld.Pkg() == f.pass.Pkg) {
						out = append(out, scopedBudget{expr: recv.Name + "." + fld.Name(), obj: fld, name: fld.Name()})
					}
				}
			}
		}
	}
	return out
}

// matching returns the package-level and field budgets in scope named
// after the need's dependency.
func (f *fixer) matching(n *need) []scopedBudget {
	var out []scopedBudget
	for _, c := range f.candidates(n) {
		if !c.param && namedAfter(c.name, n.dep) {
			out = append(out, c)
		}
	}
	return out
}

// inScope returns the budget in scope that belongs to the need's
// dependency: the function's only budget parameter, or a budget named
// after the dependency that guards, and would guard, no other one.
func (f *fixer) inScope(n *need) *scopedBudget {
	var params []scopedBudget
	for _, c := range f.candidates(n) {
		if c.param {
			params = append(params, c)
		}
	}
	if len(params) == 1 {
		return &params[0]
	}
	for _, c := range f.matching(n) {
		if onlyKey(f.guards[c.obj], n.dep.Key) && onlyKey(f.picks[c.obj], n.dep.Key) {
			c := c
			return &c
		}
	}
	return nil
}

func onlyKey(keys map[string]bool, key string) bool {
	for k := range keys {
		if k != key {
			return false
		}
	}
	return true
}

// namedAfter reports whether a budget's name names the dependency: the
// dependency's name followed by Budget (or Budgets), alone or after a
// qualifier (serviceInventoryBudget).
func namedAfter(name string, dep retrysite.Dep) bool {
	d := normName(fixutil.IdentName(dep.Name))
	if d == "" {
		return false
	}
	n := normName(name)
	for _, suffix := range []string{"budget", "budgets", "retrybudget"} {
		if strings.HasSuffix(n, d+suffix) {
			return true
		}
	}
	return false
}

func normName(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// plan records that a need gets a new budget of its dependency.
func (f *fixer) plan(n *need) {
	nb := f.news[n.dep.Key]
	if nb == nil {
		nb = &newBudget{key: n.dep.Key, dep: n.dep, registry: n.key != ""}
		f.news[n.dep.Key] = nb
	}
	if nb.registry && n.key == "" {
		return // the field is not in reach here: no fix
	}
	nb.uses = append(nb.uses, n)
}

// name gives each new budget its name and its file: the name of its
// dependency, qualified when two dependencies would share one, free
// wherever the fixes refer to it; the file of its first use outside the
// tests.
func (f *fixer) name() {
	keys := make([]string, 0, len(f.news))
	for k, nb := range f.news {
		if len(nb.uses) == 0 {
			delete(f.news, k)
			continue
		}
		sort.Slice(nb.uses, func(i, j int) bool { return srcpos.Compare(f.pass.Fset, nb.uses[i].pos, nb.uses[j].pos) < 0 })
		keys = append(keys, k)
	}
	sort.Strings(keys)
	suffix := func(nb *newBudget) string {
		if nb.registry {
			return "Budgets"
		}
		return "Budget"
	}
	byName := map[string][]string{}
	for _, k := range keys {
		nb := f.news[k]
		nb.name = fixutil.IdentName(nb.dep.Name) + suffix(nb)
		byName[nb.name] = append(byName[nb.name], k)
	}
	for _, ks := range byName {
		if len(ks) < 2 {
			continue
		}
		for _, k := range ks {
			nb := f.news[k]
			if q := f.qualifier(nb); q != "" {
				nb.name = q + upperFirst(fixutil.IdentName(nb.dep.Name)) + suffix(nb)
			}
		}
	}
	taken := map[string]bool{}
	for _, k := range keys {
		nb := f.news[k]
		if taken[nb.name] || !f.free(nb.name, nb.uses) {
			// Taken by something else: qualified, then numbered.
			if q := f.qualifier(nb); q != "" && !strings.HasPrefix(nb.name, q) {
				nb.name = q + upperFirst(nb.name)
			}
		}
		base := nb.name
		for i := 2; taken[nb.name] || !f.free(nb.name, nb.uses); i++ {
			nb.name = fmt.Sprintf("%s%d", base, i)
		}
		taken[nb.name] = true
		nb.file = nb.uses[0].file
		for _, u := range nb.uses {
			if !isTestFile(f.pass, u.file) {
				nb.file = u.file
				break
			}
		}
	}
}

// qualifier tells apart two dependencies of one name: the type that owns
// a field, the package above a package.
func (f *fixer) qualifier(nb *newBudget) string {
	return fixutil.IdentName(nb.dep.Qualifier())
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// free reports whether a new package-level name clashes with nothing: no
// declaration of the package or import of a file, nothing in scope where
// a fix refers to it.
func (f *fixer) free(name string, uses []*need) bool {
	if token.Lookup(name) != token.IDENT || f.pass.Pkg.Scope().Lookup(name) != nil {
		return false
	}
	for _, file := range f.pass.Files {
		if s := f.pass.TypesInfo.Scopes[file]; s != nil && s.Lookup(name) != nil {
			return false
		}
	}
	for _, u := range uses {
		if s := f.pass.TypesInfo.Scopes[u.file]; s != nil {
			if _, obj := s.Innermost(u.pos).LookupParent(name, u.pos); obj != nil {
				return false
			}
		}
	}
	return true
}

func isTestFile(pass *analysis.Pass, file *ast.File) bool {
	return srcpos.InTest(pass.Fset, file.Package)
}

// ref returns how a fix at a need refers to its budget, with the edits
// that declare it; ok is false when the need gets no fix.
func (f *fixer) ref(n *need) (budgetRef, bool) {
	if n.use != nil {
		return budgetRef{expr: n.use.expr, message: "Guard the retries with " + n.use.expr}, true
	}
	nb := f.news[n.dep.Key]
	if nb == nil || !containsNeed(nb.uses, n) {
		return budgetRef{}, false
	}
	prefix, edits := fixutil.AddImport(f.pass, nb.file, retryapi.BudgetPath, nb.file.Package)
	var decl string
	if nb.registry {
		decl = fmt.Sprintf("// %s holds one retry budget per %s: each value is a dependency of its own.\nvar %s = %s.NewRegistry()", nb.name, nb.dep.Name, nb.name, prefix)
	} else {
		decl = fmt.Sprintf("// %s limits the retries to %s to a share of its requests.\nvar %s = %s.New()", nb.name, nb.dep.Name, nb.name, prefix)
	}
	edits = append(edits, fixutil.AddDecl(nb.file, decl))
	r := budgetRef{expr: nb.name, edits: edits, message: "Guard the retries with a new retry budget " + nb.name}
	if nb.registry {
		r.expr = nb.name + ".For(" + n.key + ")"
		r.message = "Guard the retries with the budget of " + n.key + " in a new registry " + nb.name
	}
	return r, true
}

func containsNeed(list []*need, n *need) bool {
	for _, u := range list {
		if u == n {
			return true
		}
	}
	return false
}

// render returns the source text of an expression.
func render(pass *analysis.Pass, e ast.Expr) string {
	return types.ExprString(e)
}

// helperFix is the budget parameter a retry helper gets, and what each of
// its callers passes.
type helperFix struct {
	ftype *ast.FuncType    // the helper's: a function's, or a literal's
	sig   *types.Signature // its signature
	param string
	// optional: the parameter is a final variadic one (budgets
	// ...*budget.Budget), which a call may leave out; the helper asks the
	// first budget given, and none when a call gives none.
	optional bool
	calls    []*ast.CallExpr
	needs    []*need // one per call, in the order of calls
	why      string  // why the helper gets no fix ("" for whyHelper)
}

// helperOf returns the fix of a loop that retries a call of a function
// parameter of its function (a retry helper), or nil when the loop is no
// helper's. A helper gets a fix only when every use of it in the package
// is a call whose operation's dependency is known and no interface of the
// package names it (a method). An unexported helper gets a budget
// parameter, when no test file of its directory that this pass does not
// see mentions it. An exported helper, which callers in other packages
// call too, gets an optional one, a final variadic parameter that those
// calls leave out and so keep compiling and behaving as before: when it
// is a function, or a method of an unexported type, and not variadic
// already (a method of an exported type may satisfy an interface of
// another package, which names its parameters).
func (f *fixer) helperOf(file *ast.File, s *retrysite.Site) *helperFix {
	id, ok := ast.Unparen(s.Loop.Attempt.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	fd, ok := s.Func.(*ast.FuncDecl)
	params := paramObjs(f.pass, s.Func)
	op := f.pass.TypesInfo.Uses[id]
	if op == nil || !params[op] {
		return nil
	}
	if isInvoker(op.Type()) {
		// A gRPC interceptor's invoker, which gRPC hands it with the
		// connection it sends on: the dependency is that connection's
		// target (invokerTarget), not each caller's.
		return nil
	}
	h := &helperFix{}
	var obj types.Object
	switch lit, isLit := s.Func.(*ast.FuncLit); {
	case ok:
		h.ftype, obj = fd.Type, f.pass.TypesInfo.Defs[fd.Name]
	case isLit && s.Holder != nil:
		// A literal a local variable holds: its calls are the
		// variable's, all in the function that declares it.
		h.ftype, obj = lit.Type, s.Holder
	default:
		h.why = whyLiteral
		return h
	}
	if h.sig, _ = obj.Type().Underlying().(*types.Signature); h.sig == nil {
		return nil
	}
	switch {
	case !ok:
		// A local variable: no other package, no interface and no
		// test file sees it.
	case fd.Recv != nil && f.interfaceNames(fd.Name.Name):
		h.why = whyIface
		return h
	case fd.Name.IsExported():
		switch {
		case h.sig.Variadic():
			h.why = whyVariadic
			return h
		case fd.Recv != nil && exportedRecv(h.sig):
			h.why = whyMethod
			return h
		}
		h.optional = true
	default:
		switch f.unseenTestUses(fd.Name.Name) {
		case testCalls:
			// The test files' calls leave an optional parameter out,
			// and keep compiling and behaving as before.
			if h.sig.Variadic() {
				h.why = whyTestUse
				return h
			}
			h.optional = true
		case testUseElse:
			h.why = whyTestUse
			return h
		}
	}
	calls := map[*ast.Ident]*ast.CallExpr{}
	for _, file := range f.pass.Files {
		addCalls(file, calls)
	}
	var uses []*ast.Ident
	for u, o := range f.pass.TypesInfo.Uses {
		if o == obj {
			uses = append(uses, u)
		}
	}
	sort.Slice(uses, func(i, j int) bool { return srcpos.Compare(f.pass.Fset, uses[i].Pos(), uses[j].Pos()) < 0 })
	at := func(n ast.Node) string {
		p := f.pass.Fset.Position(n.Pos())
		return fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line)
	}
	for _, u := range uses {
		c := calls[u]
		if c == nil {
			h.why = "no fix: the retry helper is used as a value at " + at(u) + ", where no budget can be passed to it"
			return h
		}
		site := f.helperCall(c)
		var n *need
		if site != nil {
			n = f.callNeed(site)
		}
		if n == nil {
			h.why = "no fix: the dependency of the retry helper's call at " + at(c) + " is not known, so no budget can be passed for it"
			return h
		}
		h.calls = append(h.calls, c)
		h.needs = append(h.needs, n)
	}
	h.param = fixutil.FreshName(f.pass.TypesInfo, file, s.Node.Pos(), "retryBudget")
	return h
}

// callNeed returns the need of a call of a retry helper: the budget of the
// dependency its operation reaches, or nil when that is not one known
// dependency.
func (f *fixer) callNeed(site *retrysite.Site) *need {
	c, ok := site.Node.(*ast.CallExpr)
	if !ok {
		return nil
	}
	dep := f.deps.Op(site.Op)
	if dep.Key == "" {
		dep = retrysite.Of(f.pass).OperationDep(site.Op)
	}
	var at *ast.CallExpr
	for i, a := range site.Attempts {
		d := f.normDep(a.Call, a.Dep)
		if i == 0 {
			dep, at = a.Dep, a.Call
		}
		if d.Key == "" || d.Key != f.normDep(at, dep).Key {
			dep = retrysite.Dep{}
			break
		}
	}
	cf := fixutil.FileOf(f.pass, c.Pos())
	if cf == nil {
		return nil
	}
	return f.needAt(cf, c.Pos(), site.Func, at, dep)
}

// givesNoBudget returns the need of a call that gives a helper's budget
// parameter of the budget package's type none (nil, or nothing for an
// optional one), so that its fix passes its dependency's; nil otherwise.
func (f *fixer) givesNoBudget(site *retrysite.Site) *need {
	c, ok := site.Node.(*ast.CallExpr)
	if !ok || !noBudget(f.pass, site) {
		return nil
	}
	t := f.pass.TypesInfo.TypeOf(c.Fun)
	if t == nil {
		return nil
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || site.Helper.Budget >= sig.Params().Len() {
		return nil
	}
	pt := sig.Params().At(site.Helper.Budget).Type()
	if sl, ok := pt.(*types.Slice); ok && sig.Variadic() && site.Helper.Budget == sig.Params().Len()-1 {
		pt = sl.Elem()
	}
	if !isBudget(pt) {
		return nil
	}
	return f.callNeed(site)
}

// callFix passes a call that gives a retry helper no budget the budget of
// its operation's dependency.
func (f *fixer) callFix(site *retrysite.Site) *analysis.SuggestedFix {
	n := f.calls[site]
	if n == nil {
		return nil
	}
	r, ok := f.ref(n)
	if !ok {
		return nil
	}
	c := site.Node.(*ast.CallExpr)
	edits := append([]analysis.TextEdit(nil), r.edits...)
	if i := site.Helper.Budget; i < len(c.Args) {
		edits = append(edits, analysis.TextEdit{Pos: c.Args[i].Pos(), End: c.Args[i].End(), NewText: []byte(r.expr)})
	} else {
		edits = append(edits, analysis.TextEdit{Pos: c.Args[len(c.Args)-1].End(), End: c.Args[len(c.Args)-1].End(), NewText: []byte(", " + r.expr)})
	}
	msg := "Pass the retry helper its dependency's budget"
	if n.use != nil {
		msg = "Pass the retry helper " + r.expr
	}
	return &analysis.SuggestedFix{Message: msg, TextEdits: edits}
}

// exportedRecv reports whether a method's receiver type is exported.
func exportedRecv(sig *types.Signature) bool {
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return !ok || n.Obj().Exported()
}

// helperCall returns the site of a call of a retry helper.
func (f *fixer) helperCall(c *ast.CallExpr) *retrysite.Site {
	for _, s := range f.sites {
		if s.Kind == retrysite.HelperCall && s.Node == c {
			return s
		}
	}
	return nil
}

// interfaceNames reports whether an interface type of the package has a
// method of the name, which a method with another signature would no
// longer satisfy.
func (f *fixer) interfaceNames(name string) bool {
	found := false
	for _, file := range f.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			if it, ok := n.(*ast.InterfaceType); ok {
				for _, m := range it.Methods.List {
					for _, id := range m.Names {
						if id.Name == name {
							found = true
						}
					}
				}
			}
			return !found
		})
	}
	return found
}

// Uses of a helper in the test files of its directory that this pass
// does not analyze, which a fix cannot update.
const (
	noTestUse   = iota
	testCalls   // every mention of the name is called: f(...), x.f(...)
	testUseElse // some mention is not a call (a value), or a file does not parse
)

// unseenTestUses says how the test files of the package's directory that
// this pass does not analyze mention name.
func (f *fixer) unseenTestUses(name string) int {
	if len(f.pass.Files) == 0 {
		return noTestUse
	}
	seen := map[string]bool{}
	var dir string
	for _, file := range f.pass.Files {
		if tf := f.pass.Fset.File(file.Package); tf != nil {
			seen[tf.Name()] = true
			dir = filepath.Dir(tf.Name())
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return noTestUse
	}
	uses := noTestUse
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if !strings.HasSuffix(e.Name(), "_test.go") || seen[path] {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(data, []byte(name)) || bytes.Contains(data, []byte("package "+f.pass.Pkg.Name()+"_test")) {
			continue
		}
		tf, err := parser.ParseFile(token.NewFileSet(), path, data, parser.SkipObjectResolution)
		if err != nil {
			return testUseElse
		}
		called := map[*ast.Ident]*ast.CallExpr{}
		addCalls(tf, called)
		other := false
		ast.Inspect(tf, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && id.Name == name {
				if called[id] == nil {
					other = true
				}
				uses = testCalls
			}
			return !other
		})
		if other {
			return testUseElse
		}
	}
	return uses
}

// addCalls maps the identifier by which each call in n names what it
// calls (f in f(x), x.f(y) and f[T](x)) to the call.
func addCalls(n ast.Node, calls map[*ast.Ident]*ast.CallExpr) {
	ast.Inspect(n, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			switch fun := ast.Unparen(c.Fun).(type) {
			case *ast.Ident:
				calls[fun] = c
			case *ast.SelectorExpr:
				calls[fun.Sel] = c
			case *ast.IndexExpr:
				if x, ok := ast.Unparen(fun.X).(*ast.Ident); ok {
					calls[x] = c
				}
			}
		}
		return true
	})
}

// helperEdits returns the edits that give a helper its budget parameter
// and make each caller pass its own dependency's budget.
func (f *fixer) helperEdits(file *ast.File, h *helperFix) ([]analysis.TextEdit, bool) {
	prefix, edits := fixutil.AddImport(f.pass, file, retryapi.BudgetPath, file.Package)
	params := h.ftype.Params
	param := h.param + " *" + prefix + ".Budget"
	if h.optional {
		param = h.param + " ..." + "*" + prefix + ".Budget"
	}
	sig := h.sig
	var at token.Pos
	text := param
	switch {
	case sig.Variadic():
		last := params.List[len(params.List)-1]
		if len(last.Names) > 1 {
			return nil, false
		}
		at, text = last.Pos(), param+", "
	case len(params.List) > 0:
		at, text = params.List[len(params.List)-1].End(), ", "+param
	default:
		at = params.Closing
	}
	edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
	fixed := sig.Params().Len()
	if sig.Variadic() {
		fixed--
	}
	for i, c := range h.calls {
		r, ok := f.ref(h.needs[i])
		if !ok {
			return nil, false
		}
		edits = append(edits, r.edits...)
		switch {
		case c.Ellipsis.IsValid():
			p := c.Args[len(c.Args)-1].Pos()
			edits = append(edits, analysis.TextEdit{Pos: p, End: p, NewText: []byte(r.expr + ", ")})
		case sig.Variadic() && len(c.Args) > fixed:
			p := c.Args[fixed].Pos()
			edits = append(edits, analysis.TextEdit{Pos: p, End: p, NewText: []byte(r.expr + ", ")})
		case len(c.Args) > 0:
			p := c.Args[len(c.Args)-1].End()
			edits = append(edits, analysis.TextEdit{Pos: p, End: p, NewText: []byte(", " + r.expr)})
		default:
			edits = append(edits, analysis.TextEdit{Pos: c.Rparen, End: c.Rparen, NewText: []byte(r.expr)})
		}
	}
	return edits, true
}
