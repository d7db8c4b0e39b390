package retrysite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/typesx"
)

// guardOf returns the budget guard that call is, or nil.
func (a *analyzer) guardOf(call *ast.CallExpr) *Guard {
	fn := a.callee(call)
	if fn == nil {
		return nil
	}
	kind, receiver := a.guardKind(fn)
	if kind == 0 {
		return nil
	}
	g := &Guard{Kind: kind, Call: call, Desc: a.render(call.Fun)}
	if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok && receiver {
		g.Budget = sel.X
	}
	return g
}

// guardKind returns what kind of budget check a call of fn is, if any, and
// whether the budget is the receiver of the call.
func (a *analyzer) guardKind(fn *types.Func) (kind GuardKind, receiver bool) {
	path, name, recv := typesx.PkgPath(fn), fn.Name(), typesx.RecvName(fn)
	if g, ok := retryapi.GuardOf(path, recv, name); ok {
		switch g.Kind {
		case retryapi.Limiter:
			return GuardLimiter, g.Receiver
		case retryapi.Breaker:
			return GuardBreaker, g.Receiver
		}
		return 0, false
	}
	if a.funcs[path+"."+name] || recv != "" && a.funcs[path+"."+recv+"."+name] {
		return GuardListed, recv != ""
	}
	if recv != "" && a.methods[name] && verdictResult(fn) {
		return GuardMethod, true
	}
	if a.guardFuncs[fn] {
		return GuardFunc, recv != ""
	}
	return 0, false
}

// verdictResult reports whether fn's last result is a bool or an error,
// the shape of a budget's answer.
func verdictResult(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Results().Len() == 0 {
		return false
	}
	t := sig.Results().At(sig.Results().Len() - 1).Type()
	if b, ok := t.Underlying().(*types.Basic); ok && b.Kind() == types.Bool {
		return true
	}
	return typesx.IsError(t)
}

// firstGuard returns the first budget guard called in n (not inside nested
// function literals unless lits is true), or nil.
func (a *analyzer) firstGuard(n ast.Node, lits bool) *Guard {
	var g *Guard
	walk := astx.InspectNoLit
	if lits {
		walk = ast.Inspect
	}
	walk(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && g == nil {
			g = a.guardOf(call)
		}
		return g == nil
	})
	return g
}

// guardCalls returns the budget checks called in n, outside nested
// function literals, in source order.
func (a *analyzer) guardCalls(n ast.Node) []*ast.CallExpr {
	var out []*ast.CallExpr
	astx.InspectNoLit(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && a.guardOf(call) != nil {
			out = append(out, call)
		}
		return true
	})
	return out
}

// loopGuard returns the guard of a retry loop: the attempt itself when a
// circuit breaker runs it, else a budget check that every failing path
// asks before the next attempt. A check of an object made for the call
// (a per-request counter) is no budget.
func (a *analyzer) loopGuard(lp *retryloop.Loop) *Guard {
	if g := a.guardOf(lp.Attempt); g != nil {
		return g
	}
	if lp.Unguarded != 0 {
		return nil
	}
	for _, u := range lp.Guards {
		if g := a.guardOf(u.Call); g != nil && !a.perCall(lp.Func, g) {
			return g
		}
	}
	return nil
}

// perCall reports whether a guard's budget is an object the enclosing
// function makes itself (b := budget.New(), c := &counter{max: 3}): it
// lives for one call, so it bounds one request, not the fleet's retries.
func (a *analyzer) perCall(fn ast.Node, g *Guard) bool {
	if g.Budget == nil {
		return false
	}
	x := unparen(g.Budget)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = unparen(u.X)
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.IsField() {
		return false
	}
	body := astx.FuncBody(fn)
	if body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
		return false // a parameter: the caller chooses the budget
	}
	switch d := unparen(a.definingExpr(v)).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, lit := unparen(d.X).(*ast.CompositeLit)
		return d.Op == token.AND && lit
	case *ast.CallExpr:
		if id, ok := unparen(d.Fun).(*ast.Ident); ok && id.Name == "new" {
			return true
		}
		// A constructor (budget.New(), rate.NewLimiter(...)), not a
		// lookup of a long-lived budget (s.budgets.For(host)).
		fn := a.callee(d)
		return fn != nil && typesx.RecvName(fn) == "" && !typesx.IsInterfaceMethod(fn)
	case nil:
		// var b Budget: a zero value made here.
		return true
	}
	return false
}

// exportGuardFacts marks the package's functions that return a budget's
// verdict: a bool or error result and a budget check in the body. A few
// rounds let a check that calls another local check be found too.
func (a *analyzer) exportGuardFacts() {
	if !a.mayGuard() {
		return
	}
	var decls []*ast.FuncDecl
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				decls = append(decls, fd)
			}
		}
	}
	done := make(map[*ast.FuncDecl]bool)
	for round := 0; round < 3; round++ {
		changed := false
		for _, fd := range decls {
			if done[fd] {
				continue
			}
			fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			// A function with a function parameter is a retry helper, not
			// a budget check, even when a budget guards its retries.
			if !ok || !verdictResult(fn) || strings.HasPrefix(fd.Name.Name, "Test") || hasFuncParam(fd) {
				continue
			}
			if a.returnsGuard(fd) {
				a.pass.ExportObjectFact(fn, new(GuardFact))
				a.guardFuncs[fn] = true
				done[fd], changed = true, true
			}
		}
		if !changed {
			break
		}
	}
}

// mayGuard reports whether a call in the package can be a budget check at
// all: the package imports a limiter or breaker, calls a method with a
// budget method's name or a dependency's check, or checks are listed by
// name. Most packages do none of these and skip the search.
func (a *analyzer) mayGuard() bool {
	if len(a.funcs) > 0 {
		return true
	}
	imported := make(map[*types.Package]bool)
	for _, p := range a.pass.Pkg.Imports() {
		if retryapi.IsGuardPath(p.Path()) {
			return true
		}
		imported[p] = true
	}
	for fn := range a.guardFuncs {
		if imported[fn.Pkg()] {
			return true // a function called as pkg.F
		}
	}
	for _, sel := range a.pass.TypesInfo.Selections {
		if fn, ok := sel.Obj().(*types.Func); ok && (a.methods[fn.Name()] || a.guardFuncs[fn]) {
			return true // a method, called as x.M
		}
	}
	return false
}

// returnsGuard reports whether a function's body asks a budget and uses
// the answer in a return statement or in the condition of an if.
func (a *analyzer) returnsGuard(fd *ast.FuncDecl) bool {
	found := false
	astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
		var exprs []ast.Expr
		switch n := n.(type) {
		case *ast.ReturnStmt:
			exprs = n.Results
		case *ast.IfStmt:
			exprs = []ast.Expr{n.Cond}
		default:
			return !found
		}
		for _, e := range exprs {
			if g := a.firstGuard(e, false); g != nil && g.Kind != GuardBreaker {
				found = true
			}
		}
		return !found
	})
	return found
}
