package retrysite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/typesx"
	"github.com/retrylint/retrylint/internal/varindex"
)

// Deps answers which dependency a retry site reaches, as the passes trust
// it: sharedbudget groups the sites a budget guards by it, and the fixes
// of fixedattempts name their budgets after it, so that a budget a fix
// adds is one sharedbudget finds unshared. It refines the Dep of each
// attempt (Attempt.Dep, which the audit prints):
//   - a URL host is kept;
//   - a package-level function reaches its package's dependency, unless
//     the package is this one, a transport (net/http, database/sql, grpc:
//     it reaches whatever address it is given), an error-wrapping package
//     or another standard package (they reach nothing); a function of
//     this package handed an operation or a request reaches the
//     operation's or the request's;
//   - a method of a standard package that is no transport (a decoder, a
//     context, a file) reaches nothing;
//   - an HTTP client whose request's URL is unknown is unknown: one
//     client reaches every host;
//   - a method call reaches its receiver's dependency: a package variable;
//     of a chain of fields (s.deps.inventory, s.gh.Repositories), the last
//     field whose owner is a struct type of this package, where the
//     package keeps its dependencies (fields of another package's types are
//     parts of one client); a local variable declared with a value and
//     never assigned again stands for its value; a gRPC stub built from a
//     connection (pb.NewInventoryClient(conn)) stands for the connection;
//     parameters are unknown, since each caller may pass another;
//   - a call of a function or method of this package that names no
//     dependency so (c.track(ctx), c the receiver) reaches what its body
//     reaches (Deps.reaches): the one dependency its calls that can fail
//     reach, or none known when they reach two or one is unknown.
//
// A Deps is made once per package (Sites.Deps) and is safe for the passes
// to share.
type Deps struct {
	pass *analysis.Pass
	a    *analyzer // the analysis that found the sites; what it knows is read-only now

	mu    sync.Mutex // guards funcs
	funcs map[*types.Func]summary
}

// Deps returns the package's dependency model.
func (s *Sites) Deps() *Deps {
	s.depsOnce.Do(func() {
		s.deps = &Deps{pass: s.pass, a: s.a}
	})
	return s.deps
}

// Var returns what the package does with the variable v (its
// initialiser, the values stored to it, its changes), or nil when it
// neither declares nor assigns it.
func (d *Deps) Var(v *types.Var) *varindex.Var { return d.a.vars.Of(v) }

// ConstLocal returns the initialiser of a local variable that is declared
// with one and never assigned again, or nil.
func (d *Deps) ConstLocal(v *types.Var) ast.Expr {
	if isPkgVar(v) {
		return nil
	}
	return d.a.vars.Once(v)
}

// transports are packages whose package-level functions reach whatever
// address they are given: their package says nothing of the dependency.
var transports = map[string]bool{
	"net": true, "net/http": true, "net/rpc": true, "net/smtp": true, "database/sql": true,
	"os/exec": true, "google.golang.org/grpc": true, "github.com/hashicorp/go-retryablehttp": true,
	"github.com/go-resty/resty/v2": true, "resty.dev/v3": true,
}

// IsTransport reports whether path is a transport package: its functions
// reach whatever address they are given.
func IsTransport(path string) bool { return transports[typesx.TrimVendor(path)] }

// errorsPackage reports whether path is an error-wrapping package
// (github.com/pkg/errors, multierr): a call that returns an error but
// reaches nothing.
func errorsPackage(path string) bool {
	base := path[strings.LastIndexByte(path, '/')+1:]
	return base == "errors" || base == "xerrors" || strings.Contains(base, "multierr")
}

// noDep reports whether a package-level function of fn's package names
// no dependency: one of this package, of a transport or of an errors
// package.
func (d *Deps) noDep(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return true
	}
	path := typesx.PkgPath(fn)
	return fn.Pkg() == d.pass.Pkg || transports[path] || errorsPackage(path) || typesx.IsStd(path)
}

// stdLocal reports whether fn is a function or method of a standard
// library package that is no transport (fmt, io, compress/gzip,
// encoding/json, context, os): it reaches no dependency.
func stdLocal(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	path := typesx.PkgPath(fn)
	return typesx.IsStd(path) && !transports[path]
}

// Site returns the one dependency every attempt of a site reaches (its
// operation's, when the operation is a value whose calls are not visible),
// or the unknown Dep when an attempt's is unknown or they differ.
func (d *Deps) Site(s *Site) Dep {
	if len(s.Attempts) == 0 {
		if s.Op != nil && s.Body == nil {
			return d.Op(s.Op)
		}
		return Dep{}
	}
	var dep Dep
	for _, at := range s.Attempts {
		x := d.Attempt(at)
		if x.Key == "" || dep.Key != "" && dep.Key != x.Key {
			return Dep{}
		}
		dep = x
	}
	return dep
}

// Attempt returns the dependency of one attempt; a call of a function of
// this package that names no dependency reaches what the function's body
// reaches (Deps.reaches).
func (d *Deps) Attempt(at Attempt) Dep {
	if at.Call == nil {
		return Dep{}
	}
	info := d.pass.TypesInfo
	fn, _ := typeutil.Callee(info, at.Call).(*types.Func)
	var recv ast.Expr
	if sel, ok := ast.Unparen(at.Call.Fun).(*ast.SelectorExpr); ok {
		if _, isSel := info.Selections[sel]; isSel {
			recv = sel.X
		}
	}
	switch {
	case at.Dep.Kind == DepHost:
		return at.Dep
	case DialAddress(fn, at.Call) != nil:
		// A dial: its address's field, or none (depOf), never the dialer.
		return at.Dep
	case at.Dep.Kind == DepFunc:
		f, _ := at.Dep.Obj.(*types.Func)
		if f != nil && f.Pkg() == d.pass.Pkg {
			if x := d.passedOn(at.Call); x.Key != "" {
				return x
			}
			return d.reaches(f)
		}
		if d.noDep(f) {
			return Dep{}
		}
		return at.Dep
	case fn == nil:
		// A call of a function value (s.open(), a field of func type; a
		// package variable): the value's field or variable, as for a
		// receiver.
		return d.Expr(at.Call.Fun)
	case recv == nil:
		return Dep{}
	case stdLocal(fn):
		return Dep{}
	case fn != nil && IsHTTPSend(fn):
		// The attempt's Dep names the URL's field or variable, or,
		// without a known URL, the client.
		if at.Dep.Key == "" || at.Dep.Key == d.a.rootDep(recv).Key {
			return Dep{}
		}
		return at.Dep
	}
	if x := d.Expr(recv); x.Key != "" || fn == nil || fn.Pkg() != d.pass.Pkg || typesx.IsInterfaceMethod(fn) {
		return x
	}
	// A method of this package called on a receiver that names no
	// dependency (c.connect(ctx), c the receiver): what its body reaches.
	return d.reaches(fn)
}

// reaches returns the dependency a function of this package reaches
// through the calls of its own body that return an error (or a value of
// a type that implements error), outside
// function literals and go and defer statements: connect reaches
// c.broker when it calls c.broker.Dial and ctx.Err. Calls that reach
// nothing (a standard package that is no transport, an errors package, a
// function of this package that reaches nothing) are left out; one whose
// dependency is not known, or a second dependency, makes the function's
// unknown. So does a call back into a function being summarised.
// Summaries are made once per function, under a lock.
func (d *Deps) reaches(fn *types.Func) Dep {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.funcs == nil {
		d.funcs = map[*types.Func]summary{}
	}
	return d.summarize(fn, map[*types.Func]bool{}).dep
}

// summary is what a function of this package reaches: dep, or nothing
// when known is set and dep is the unknown Dep.
type summary struct {
	dep   Dep
	known bool
}

// summarize computes fn's summary; d.mu is held. building holds the
// functions being summarised on the way to fn.
func (d *Deps) summarize(fn *types.Func, building map[*types.Func]bool) summary {
	fn = fn.Origin()
	if sum, ok := d.funcs[fn]; ok {
		return sum
	}
	fd := d.a.declOf(fn) // d.a is the model's own, used under d.mu
	if fd == nil || building[fn] {
		return summary{}
	}
	building[fn] = true
	info := d.pass.TypesInfo
	sum := summary{known: true}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if !sum.known {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			if !d.a.resultsError(n) && !returnsErrorValue(info, n) {
				return true
			}
			var x summary
			f, _ := typeutil.Callee(info, n).(*types.Func)
			var recv ast.Expr
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok {
				if _, isSel := info.Selections[sel]; isSel {
					recv = sel.X
				}
			}
			switch {
			case f != nil && (stdLocal(f) || errorsPackage(typesx.PkgPath(f))):
				x.known = true
			case f != nil && f.Pkg() == d.pass.Pkg && !typesx.IsInterfaceMethod(f) && (recv == nil || d.Expr(recv).Key == ""):
				if x.dep = d.passedOn(n); x.dep.Key != "" {
					x.known = true
				} else {
					x = d.summarize(f, building)
				}
			default:
				x.dep = d.Attempt(Attempt{Call: n, Dep: d.a.depOf(n)})
				x.known = x.dep.Key != ""
			}
			switch {
			case !x.known || x.dep.Key != "" && sum.dep.Key != "" && x.dep.Key != sum.dep.Key:
				sum = summary{}
			case x.dep.Key != "":
				sum.dep = x.dep
			}
		}
		return sum.known
	})
	delete(building, fn)
	if len(building) == 0 || sum.known {
		// A summary made while a caller is being summarised may miss
		// what the cycle back into it reaches only when it is unknown.
		d.funcs[fn] = sum
	}
	return sum
}

// returnsErrorValue reports whether a call has a result of a concrete
// type that implements error (*http2.Error): a failure a caller tests
// like an error.
func returnsErrorValue(info *types.Info, call *ast.CallExpr) bool {
	t := info.TypeOf(call)
	if t == nil {
		return false
	}
	var ts []types.Type
	if tuple, ok := t.(*types.Tuple); ok {
		for i := range tuple.Len() {
			ts = append(ts, tuple.At(i).Type())
		}
	} else {
		ts = []types.Type{t}
	}
	for _, t := range ts {
		if !types.IsInterface(t) && types.Implements(t, errorIface) {
			return true
		}
	}
	return false
}

var errorIface = types.Universe.Lookup("error").Type().Underlying().(*types.Interface)

// passedOn returns the dependency a call to a function of this package
// reaches through what it is handed: the operation it is passed
// (executeRPC(ctx, c.stub.Get, req) calls c.stub), or the URL of the HTTP
// request it is passed (send(ctx, c.hc, req)). It is the unknown Dep when
// the arguments name none, or more than one.
func (d *Deps) passedOn(call *ast.CallExpr) Dep {
	info := d.pass.TypesInfo
	var dep Dep
	for _, arg := range call.Args {
		var x Dep
		switch t := info.TypeOf(arg); {
		case t == nil:
		case typesx.IsNamedPtr(t, "net/http", "Request"):
			if u := d.a.requestURL(arg); u != nil {
				x = d.a.hostDep(u)
			}
		default:
			if _, ok := t.Underlying().(*types.Signature); ok {
				x = d.Op(arg)
			}
		}
		if x.Key == "" {
			continue
		}
		if dep.Key != "" && dep.Key != x.Key {
			return Dep{}
		}
		dep = x
	}
	return dep
}

// IsHTTPSend reports whether fn sends an HTTP request with a client.
func IsHTTPSend(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	p := typesx.PkgPath(fn)
	if p != "net/http" && !strings.HasSuffix(p, "/go-retryablehttp") {
		return false
	}
	switch fn.Name() {
	case "Do", "Get", "Head", "Post", "PostForm", "RoundTrip":
		return true
	}
	return false
}

// DialAddress returns the address argument of a call that dials one with
// the standard library (net.Dial, net.DialTimeout, a net.Dialer's Dial or
// DialContext, and crypto/tls's forms of them); nil for any other call.
// What such a call depends on is the address it dials, not the dialer: one
// dialer dials many addresses.
func DialAddress(fn *types.Func, call *ast.CallExpr) ast.Expr {
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	i := -1
	switch path, recv := fn.Pkg().Path(), typesx.RecvName(fn); {
	case path == "net" && recv == "" && (fn.Name() == "Dial" || fn.Name() == "DialTimeout"),
		path == "net" && recv == "Dialer" && fn.Name() == "Dial",
		path == "crypto/tls" && recv == "" && fn.Name() == "Dial",
		path == "crypto/tls" && recv == "Dialer" && fn.Name() == "Dial":
		i = 1 // (network, address, ...)
	case path == "net" && recv == "Dialer" && fn.Name() == "DialContext",
		path == "crypto/tls" && recv == "" && fn.Name() == "DialWithDialer",
		path == "crypto/tls" && recv == "Dialer" && fn.Name() == "DialContext":
		i = 2 // (ctx or dialer, network, address, ...)
	}
	if i < 0 || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

// Op returns the dependency of an operation passed as a value: a method
// value's receiver's, or a package-level function's package.
func (d *Deps) Op(op ast.Expr) Dep {
	info := d.pass.TypesInfo
	switch x := ast.Unparen(op).(type) {
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			if sel.Kind() == types.MethodVal {
				return d.Expr(x.X)
			}
			return Dep{}
		}
		if fn, ok := info.Uses[x.Sel].(*types.Func); ok && !d.noDep(fn) {
			return funcDep(fn)
		}
	}
	return Dep{}
}

// Expr returns the dependency a receiver (or a value that a caller
// passes for one) stands for: a package variable, a field of a type, or
// a gRPC stub's connection, locals standing for their initialiser.
func (d *Deps) Expr(e ast.Expr) Dep { return d.expr(e, 0) }

func (d *Deps) expr(e ast.Expr, depth int) Dep {
	if depth > 5 {
		return Dep{}
	}
	info := d.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return d.expr(x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return d.expr(x.X, depth+1)
		}
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return Dep{}
		}
		if isPkgVar(v) {
			return varDep(d.pass.Fset, v)
		}
		if def := d.ConstLocal(v); def != nil {
			return d.expr(def, depth+1)
		}
	case *ast.SelectorExpr:
		if _, ok := info.Selections[x]; ok {
			return d.fieldChain(x, depth)
		}
		if v, ok := info.Uses[x.Sel].(*types.Var); ok && isPkgVar(v) {
			return varDep(d.pass.Fset, v)
		}
	case *ast.CallExpr:
		// kv.Txn(ctx).If(cmp): the chain's receiver's.
		if r := chainRoot(info, x); r != x {
			return d.expr(r, depth+1)
		}
		// pb.NewInventoryClient(conn): the stub's dependency is the conn's.
		fn, _ := typeutil.Callee(info, x).(*types.Func)
		if fn == nil || typesx.RecvName(fn) != "" || len(x.Args) != 1 || !strings.HasPrefix(fn.Name(), "New") || !strings.HasSuffix(fn.Name(), "Client") {
			return Dep{}
		}
		if isGRPCConn(info.TypeOf(x.Args[0])) {
			return d.expr(x.Args[0], depth+1)
		}
	}
	return Dep{}
}

// fieldChain identifies the dependency behind a chain of field selections
// (s.inventory, s.deps.inventory, s.gh.Repositories): the last field whose
// owner is a struct type of this package (the same field of the same type
// is one dependency). Without a field of the package's own, the chain's
// base decides.
func (d *Deps) fieldChain(x *ast.SelectorExpr, depth int) Dep {
	info := d.pass.TypesInfo
	var e ast.Expr = x
	for {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			break
		}
		s, ok := info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal {
			break
		}
		owner := s.Recv()
		if p, ok := owner.(*types.Pointer); ok {
			owner = p.Elem()
		}
		if n, ok := types.Unalias(owner).(*types.Named); ok && n.Obj().Pkg() == d.pass.Pkg {
			if f, ok := s.Obj().(*types.Var); ok {
				return fieldDep(owner, f)
			}
			return Dep{}
		}
		e = sel.X
		if st, ok := ast.Unparen(e).(*ast.StarExpr); ok {
			e = st.X
		}
	}
	if e == ast.Expr(x) {
		return Dep{}
	}
	return d.expr(e, depth+1)
}

// isGRPCConn reports whether t is *grpc.ClientConn or
// grpc.ClientConnInterface.
func isGRPCConn(t types.Type) bool {
	if t == nil {
		return false
	}
	return typesx.IsNamedPtr(t, "google.golang.org/grpc", "ClientConn") || typesx.IsNamed(t, "google.golang.org/grpc", "ClientConnInterface") ||
		typesx.IsNamed(t, "google.golang.org/grpc", "ClientConn")
}

// ForBudget returns the dependency a fix names a budget after. It is
// Attempt's whenever that is known, so that a budget a fix adds is the one
// sharedbudget sees as the dependency's. Where Attempt knows none, a
// budget can still be named after what the attempt calls through: a
// parameter or receiver of a concrete type of this package is keyed by
// that type (every function handed a client of one type reaches the same
// kind of dependency, as fields of one type do; an interface stands for
// whatever implements it), and fields and package variables are kept as
// the attempt's Dep has them. Other locals stay unknown: a parameter of an
// interface or another package's type, or a local the function makes or
// assigns again (a connection dialed per call, a future), may hold another
// dependency on each call, and one budget named after it would serve them
// all. A function of this package, a transport or an errors package, and
// an HTTP client whose URL is unknown, stay unknown too.
func (d *Deps) ForBudget(at Attempt) Dep {
	if t := d.Attempt(at); t.Key != "" {
		return t
	}
	if at.Dep.Kind == DepFunc || at.Dep.Kind == DepHost {
		return Dep{}
	}
	if at.Call != nil {
		if fn, _ := typeutil.Callee(d.pass.TypesInfo, at.Call).(*types.Func); IsHTTPSend(fn) {
			return Dep{}
		}
	}
	if t := d.typed(at.Dep); t.Key != "" {
		return t
	}
	if at.Dep.Kind == DepLocal {
		return Dep{}
	}
	return at.Dep
}

// typed returns the DepType of a parameter or receiver of a concrete type
// of this package, or the unknown Dep for other dependencies.
func (d *Deps) typed(dep Dep) Dep {
	v, ok := dep.Obj.(*types.Var)
	if !ok || dep.Kind != DepLocal || v.Kind() != types.ParamVar && v.Kind() != types.RecvVar {
		return Dep{}
	}
	t := v.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, named := types.Unalias(t).(*types.Named)
	if !named || n.Obj().Pkg() != d.pass.Pkg || types.IsInterface(n) {
		return Dep{}
	}
	return Dep{Kind: DepType, Obj: v, Key: "type:" + types.TypeString(v.Type(), nil), Name: n.Obj().Name()}
}

// Passed reports whether what a site retries is an operation that the
// callers of its function pass: the retry loop of a retry helper, a call
// of a helper or library whose operation is a parameter, or a site whose
// every attempt calls a function parameter. Such a site
// reaches whatever each caller passes; the callers' calls are sites of
// their own, with their dependencies.
func (d *Deps) Passed(s *Site) bool {
	if s.Kind == Loop && s.Helper != nil || d.isParam(s.Op) {
		return true
	}
	// Every attempt calls a function parameter: the loop of a helper
	// whose fact another loop of it made, or an operation literal that
	// wraps the caller's (func() error { return fn(tx) }).
	for _, at := range s.Attempts {
		if at.Call == nil || !d.isParam(at.Call.Fun) {
			return false
		}
	}
	return len(s.Attempts) > 0
}

// isParam reports whether e is a parameter of a function.
func (d *Deps) isParam(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := d.pass.TypesInfo.Uses[id].(*types.Var)
	return ok && v.Kind() == types.ParamVar
}

// Reached returns the dependencies the attempts of a site reach, once
// each and in the order of the attempts, for a report that groups sites
// by dependency: each attempt's (Attempt, which for a call of a function
// of this package is what the function's body reaches); or else the type
// of the parameter or receiver it calls through (as ForBudget keys it).
// Attempts that reach no known dependency are left out (a decoder, a
// helper of the package, a client whose URL is not known), so a site none
// of whose attempts is known reaches none: nil. A site whose operation is
// a value reaches the operation's.
func (d *Deps) Reached(s *Site) []Dep {
	if len(s.Attempts) == 0 {
		if s.Op != nil && s.Body == nil {
			if x := d.Op(s.Op); x.Key != "" {
				return []Dep{x}
			}
		}
		return nil
	}
	var out []Dep
	seen := map[string]bool{}
	for _, at := range s.Attempts {
		x := d.Attempt(at)
		if x.Key == "" {
			x = d.typed(at.Dep)
		}
		if x.Key == "" || seen[x.Key] {
			continue
		}
		seen[x.Key] = true
		out = append(out, x)
	}
	return out
}

// Qualified returns a longer name for a dependency, for telling apart two
// of one Name: the package's last path element for a function's package
// ("orders"), the package-qualified name of a variable or field
// ("store.Service.db"), the host.
func (d Dep) Qualified() string {
	k := d.Key[strings.IndexByte(d.Key, ':')+1:]
	if j := strings.LastIndexByte(k, '/'); j >= 0 {
		k = k[j+1:]
	}
	return k
}

// Labels names dependencies for one report so that two of one Name are
// told apart: a dependency keeps its short Name unless another key shares
// it; then it is named Qualified ("orders.Service.client"), or by its
// whole key when even that is shared. Add every dependency the report
// names, then ask Name.
type Labels struct {
	byName, byQualified map[string]map[string]bool // name → keys
}

// Add notes a dependency the report names; one with no key is left out.
func (l *Labels) Add(d Dep) {
	if d.Key == "" {
		return
	}
	if l.byName == nil {
		l.byName, l.byQualified = map[string]map[string]bool{}, map[string]map[string]bool{}
	}
	note := func(m map[string]map[string]bool, name string) {
		if m[name] == nil {
			m[name] = map[string]bool{}
		}
		m[name][d.Key] = true
	}
	note(l.byName, d.Name)
	note(l.byQualified, d.Qualified())
}

// Name returns the name of d in the report. A local variable is named by
// its name alone: a line that names it is in its scope.
func (l *Labels) Name(d Dep) string {
	switch {
	case d.Key == "" || len(l.byName[d.Name]) < 2:
		return d.Name
	case d.Kind == DepLocal:
		return d.Name
	case len(l.byQualified[d.Qualified()]) < 2:
		return d.Qualified()
	}
	return d.Key[strings.IndexByte(d.Key, ':')+1:]
}

// Qualifier returns what tells apart two dependencies of one Name for a
// budget's name: the type that owns a field, the type of a parameter, the
// package path element above a package ("billing" for
// example.com/billing/orders); "" otherwise.
func (d Dep) Qualifier() string {
	t := d.Key[strings.IndexByte(d.Key, ':')+1:]
	switch d.Kind {
	case DepField:
		t = t[:strings.LastIndexByte(t, '.')]
		return t[strings.LastIndexAny(t, "./")+1:]
	case DepType:
		t = strings.TrimLeft(t, "*")
		return t[strings.LastIndexAny(t, "./")+1:]
	case DepFunc:
		if i := strings.LastIndexByte(t, '/'); i > 0 {
			t = t[:i]
			return t[strings.LastIndexByte(t, '/')+1:]
		}
	}
	return ""
}
