package sharedbudget

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"net/url"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/retrysite"
)

// maxCallerDepth is how many callers up a budget or a dependency that a
// function takes as a parameter is followed.
const maxCallerDepth = 3

// paramRef is a parameter of a function declared in the package.
type paramRef struct {
	decl  *ast.FuncDecl
	fn    *types.Func
	index int
}

// depKind says what a dependency parameter is.
type depKind uint8

const (
	depAddr depKind = iota + 1 // a URL or address the attempt sends to
	depRecv                    // the receiver of the attempt's method call
)

// pending is a use of a budget whose budget or dependency is a parameter
// of the function that holds it: its callers in the package say which
// budget and which dependency.
type pending struct {
	site   *retrysite.Site
	expr   ast.Expr // the budget at the site
	typ    types.Type
	budget budgetID      // the budget, when bparam is nil
	bparam *types.Var    // the parameter the budget comes from
	dep    retrysite.Dep // the dependency, when dparam is nil
	dparam *types.Var    // the parameter the dependency comes from
	dkind  depKind
	via    *ast.CallExpr // the call, in a caller, that passes what the parameters are
}

// indexParams records the parameters of the package's function
// declarations.
func (c *checker) indexParams() {
	c.params = make(map[*types.Var]paramRef)
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := c.info.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			ps := fn.Type().(*types.Signature).Params()
			for i := range ps.Len() {
				c.params[ps.At(i)] = paramRef{decl: fd, fn: fn, index: i}
			}
		}
	}
}

// paramOf returns the parameter of a function declaration of the package
// that e names, or nil.
func (c *checker) paramOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.info.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	if _, ok := c.params[v]; !ok {
		return nil
	}
	if in := c.deps.Var(v); in != nil && (in.Assigns > 0 || in.Addr) {
		return nil // the function changes it
	}
	return v
}

// callsTo returns the static calls of fn in the package, in source order.
func (c *checker) callsTo(fn *types.Func) []*ast.CallExpr {
	if c.calls == nil {
		c.calls = make(map[*types.Func][]*ast.CallExpr)
		for _, f := range c.pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				if callee := typeutil.StaticCallee(c.info, call); callee != nil && callee.Pkg() == c.pass.Pkg {
					c.calls[callee.Origin()] = append(c.calls[callee.Origin()], call)
				}
				return true
			})
		}
	}
	return c.calls[fn]
}

// argAt returns the argument of call for parameter i of fn, or nil when
// it is not one expression (variadic, f(g()) with several results).
func argAt(fn *types.Func, call *ast.CallExpr, i int) ast.Expr {
	sig := fn.Type().(*types.Signature)
	if sig.Variadic() && i == sig.Params().Len()-1 || call.Ellipsis.IsValid() {
		return nil
	}
	if len(call.Args) != sig.Params().Len() || i >= len(call.Args) {
		return nil
	}
	return call.Args[i]
}

// resolve turns a pending use into uses: through each call of the
// function that holds the parameters, the budget and the dependency the
// caller passes. A function without callers in the package (or beyond
// maxCallerDepth) keeps its budget parameter as the budget, reported at
// the parameter, and an unknown dependency.
func (c *checker) resolve(p pending, depth int, add func(budgetID, use, types.Type)) {
	var owner *types.Func
	for _, v := range []*types.Var{p.bparam, p.dparam} {
		if v == nil {
			continue
		}
		ref := c.params[v]
		if owner != nil && owner != ref.fn {
			return
		}
		owner = ref.fn
	}
	calls := c.callsTo(owner)
	if len(calls) == 0 || depth >= maxCallerDepth {
		d := p.dep
		if p.dparam != nil {
			d = retrysite.Dep{}
		}
		id := p.budget
		if p.bparam != nil {
			id = c.paramID(p.bparam)
		}
		add(id, use{site: p.site, expr: p.expr, dep: d, via: p.via}, p.typ)
		return
	}
	for _, call := range calls {
		q := p
		q.via = call
		if p.bparam != nil {
			a := argAt(owner, call, c.params[p.bparam].index)
			if a == nil {
				continue
			}
			if q.bparam = c.paramOf(a); q.bparam == nil {
				id, ok := c.argBudget(a)
				if !ok {
					continue
				}
				q.budget = id
			}
		}
		if p.dparam != nil {
			q.dep, q.dparam = retrysite.Dep{}, nil
			if a := argAt(owner, call, c.params[p.dparam].index); a != nil {
				q.dep, q.dparam = c.argDep(a, p.dkind, 0)
			}
		}
		switch {
		case q.bparam != nil && q.dparam == nil && q.dep.Key == "":
			// A budget parameter for an unknown dependency says nothing.
		case q.bparam == nil && q.dparam == nil:
			add(q.budget, use{site: q.site, expr: q.expr, dep: q.dep, via: q.via}, q.typ)
		default:
			c.resolve(q, depth+1, add)
		}
	}
}

// paramID is the identity of a budget parameter.
func (c *checker) paramID(v *types.Var) budgetID {
	return budgetID{kind: bParam, obj: v, name: v.Name()}
}

// argBudget identifies the budget a caller passes: a budget budgetOf
// knows, or one the caller makes: a local variable initialised by a
// constructor (b := quota.New(0.1, 10)) and never assigned again, or a
// constructor call in the argument itself.
func (c *checker) argBudget(a ast.Expr) (budgetID, bool) {
	if id, ok := c.budgetOf(a, 0); ok {
		return id, true
	}
	a = ast.Unparen(a)
	if id, ok := a.(*ast.Ident); ok {
		v, ok := c.info.Uses[id].(*types.Var)
		if !ok || isPkgVar(v) {
			return budgetID{}, false
		}
		if def := c.deps.ConstLocal(v); def != nil && isConstructor(c.info, def) {
			return budgetID{kind: bLocal, obj: v, name: v.Name()}, true
		}
		return budgetID{}, false
	}
	if isConstructor(c.info, a) {
		return budgetID{kind: bMade, key: fmt.Sprint(a.Pos()), name: types.ExprString(a), node: a}, true
	}
	return budgetID{}, false
}

// isConstructor reports whether e makes a new value: a composite literal,
// its address, or a call of a function named New... (not a method that
// looks a budget up).
func isConstructor(info *types.Info, e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, lit := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && lit
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(info, x).(*types.Func)
		return fn != nil && recvOf(fn) == nil && strings.HasPrefix(fn.Name(), "New")
	}
	return false
}

// argDep identifies the dependency a caller passes for a dependency
// parameter: for an address, the host of a constant URL (or the
// constant address), or the field or variable it comes from; for a
// receiver, its dependency. A parameter of the caller is returned as
// such.
func (c *checker) argDep(a ast.Expr, kind depKind, depth int) (retrysite.Dep, *types.Var) {
	if depth > 5 {
		return retrysite.Dep{}, nil
	}
	if v := c.paramOf(a); v != nil {
		return retrysite.Dep{}, v
	}
	if kind == depRecv {
		return c.deps.Expr(a), nil
	}
	if tv, ok := c.info.Types[a]; ok && tv.Value != nil {
		if tv.Value.Kind() != constant.String {
			return retrysite.Dep{}, nil
		}
		return addrDep(constant.StringVal(tv.Value)), nil
	}
	switch x := ast.Unparen(a).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return c.argDep(x.X, kind, depth+1)
		}
	case *ast.Ident:
		if v, ok := c.info.Uses[x].(*types.Var); ok && !isPkgVar(v) {
			if def := c.deps.ConstLocal(v); def != nil {
				return c.argDep(def, kind, depth+1)
			}
			return retrysite.Dep{}, nil
		}
	case *ast.CallExpr:
		if f := sprintfHead(c.info, x); f != nil {
			return c.argDep(f, kind, depth+1)
		}
		return retrysite.Dep{}, nil
	}
	return c.deps.Expr(a), nil
}

// addrDep is the dependency of a constant URL or address.
func addrDep(s string) retrysite.Dep {
	host := s
	if strings.Contains(s, "://") {
		u, err := url.Parse(s)
		if err != nil {
			return retrysite.Dep{}
		}
		host = u.Host
	} else if i := strings.IndexByte(s, '/'); i >= 0 {
		host = s[:i]
	}
	return retrysite.HostDep(host)
}

// sprintfHead returns x in fmt.Sprintf("%s...", x, ...), or nil.
func sprintfHead(info *types.Info, call *ast.CallExpr) ast.Expr {
	fn, _ := typeutil.Callee(info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "fmt" || fn.Name() != "Sprintf" || len(call.Args) < 2 {
		return nil
	}
	if tv, ok := info.Types[call.Args[0]]; ok && tv.Value != nil && tv.Value.Kind() == constant.String && strings.HasPrefix(constant.StringVal(tv.Value), "%s") {
		return call.Args[1]
	}
	return nil
}

// depParam returns the parameter of the site's function that every
// attempt of the site targets, when the dependency is known only to the
// callers: the URL or address an HTTP send or a transport's function is
// given (also through url + "/path" and fmt.Sprintf("%s/path", url)), or
// the receiver of a method call.
func (c *checker) depParam(s *retrysite.Site) (*types.Var, depKind) {
	var v *types.Var
	var kind depKind
	for _, at := range s.Attempts {
		pv, pk := c.attemptParam(at.Call)
		if pv == nil || v != nil && (pv != v || pk != kind) {
			return nil, 0
		}
		v, kind = pv, pk
	}
	return v, kind
}

func (c *checker) attemptParam(call *ast.CallExpr) (*types.Var, depKind) {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	if fn == nil {
		return nil, 0
	}
	if retrysite.IsHTTPSend(fn) {
		u := c.sendURL(call, fn)
		if u == nil {
			return nil, 0
		}
		return c.addrParam(u, 0), depAddr
	}
	if recvOf(fn) == nil && fn.Pkg() != nil && retrysite.IsTransport(fn.Pkg().Path()) {
		for _, a := range call.Args {
			if t := c.info.TypeOf(a); t != nil && types.Identical(t.Underlying(), types.Typ[types.String]) {
				if v := c.addrParam(a, 0); v != nil {
					return v, depAddr
				}
			}
		}
		return nil, 0
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s, ok := c.info.Selections[sel]; ok && s.Kind() == types.MethodVal {
			if v := c.paramOf(sel.X); v != nil {
				return v, depRecv
			}
		}
	}
	return nil, 0
}

// sendURL returns the URL an HTTP send targets: the argument of
// Get/Post/Head/PostForm, or the URL of the request Do is given when a
// local variable holds the request from its construction.
func (c *checker) sendURL(call *ast.CallExpr, fn *types.Func) ast.Expr {
	switch fn.Name() {
	case "Get", "Head", "Post", "PostForm":
		if len(call.Args) > 0 {
			return call.Args[0]
		}
	case "Do":
		if len(call.Args) != 1 {
			return nil
		}
		id, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := c.info.Uses[id].(*types.Var)
		if !ok {
			return nil
		}
		in := c.deps.Var(v)
		if in == nil || in.Assign() == nil || len(in.Assign().Rhs) != 1 || in.Assigns > 0 {
			return nil
		}
		mk, ok := ast.Unparen(in.Assign().Rhs[0]).(*ast.CallExpr)
		if !ok {
			return nil
		}
		f, _ := typeutil.Callee(c.info, mk).(*types.Func)
		if f == nil || recvOf(f) != nil || f.Pkg() == nil {
			return nil
		}
		p := f.Pkg().Path()
		if p != "net/http" && !strings.HasSuffix(p, "/go-retryablehttp") {
			return nil
		}
		switch {
		case f.Name() == "NewRequest" && len(mk.Args) >= 2:
			return mk.Args[1]
		case f.Name() == "NewRequestWithContext" && len(mk.Args) >= 3:
			return mk.Args[2]
		}
	}
	return nil
}

// addrParam returns the parameter an address expression starts with, or
// nil.
func (c *checker) addrParam(e ast.Expr, depth int) *types.Var {
	if depth > 5 {
		return nil
	}
	if v := c.paramOf(e); v != nil {
		return v
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return c.addrParam(x.X, depth+1)
		}
	case *ast.Ident:
		if v, ok := c.info.Uses[x].(*types.Var); ok && !isPkgVar(v) {
			if def := c.deps.ConstLocal(v); def != nil {
				return c.addrParam(def, depth+1)
			}
		}
	case *ast.CallExpr:
		if f := sprintfHead(c.info, x); f != nil {
			return c.addrParam(f, depth+1)
		}
	}
	return nil
}
