package nonidempotent

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/srcpos"
	"github.com/retrylint/retrylint/internal/typesx"
)

// maxCallDepth is how many calls deep the functions of the package that a
// retry site's attempt calls are followed.
const maxCallDepth = 3

// crossRegion is the body of a function of the package that a retry
// site's attempt calls, directly or through other functions of the
// package: it runs once per attempt too.
type crossRegion struct {
	site *retrysite.Site
	via  *ast.CallExpr // the call in the site's per-attempt code that leads there
}

// findCrossRegions indexes the bodies of the functions of the package that
// the attempts of retry sites call: for a loop, the attempt and the calls
// made before it on every iteration; for a retried function literal, every
// call it makes; for an operation passed as a function or method value,
// that function. A static call of a function of the package is followed,
// and an interface method call when exactly one type of the package
// implements the interface (declared in the package); function values and
// other interface calls are not.
func (c *checker) findCrossRegions() {
	c.cross = make(map[*ast.BlockStmt][]crossRegion)
	for _, s := range c.sites {
		if s.Exempt != "" {
			continue
		}
		type item struct {
			decl  *ast.FuncDecl
			via   *ast.CallExpr
			depth int
		}
		var work []item
		for _, call := range c.attemptCalls(s) {
			for _, fd := range c.calleeDecls(call) {
				work = append(work, item{fd, call, 1})
			}
		}
		if s.Body == nil && s.Op != nil {
			if call, ok := s.Node.(*ast.CallExpr); ok {
				if fd := c.declOf(c.funcValue(s.Op)); fd != nil {
					work = append(work, item{fd, call, 1})
				}
			}
		}
		seen := make(map[*ast.FuncDecl]bool)
		for len(work) > 0 {
			it := work[0]
			work = work[1:]
			if seen[it.decl] || ast.Node(it.decl) == s.Func {
				continue
			}
			seen[it.decl] = true
			c.cross[it.decl.Body] = append(c.cross[it.decl.Body], crossRegion{site: s, via: it.via})
			if it.depth == maxCallDepth {
				continue
			}
			for _, call := range callsOnce(it.decl.Body) {
				for _, fd := range c.calleeDecls(call) {
					work = append(work, item{fd, it.via, it.depth + 1})
				}
			}
		}
	}
}

// callsOnce returns the calls a body makes itself: not those of function
// literals, nor the calls go and defer statements start.
func callsOnce(body ast.Node) []*ast.CallExpr {
	var out []*ast.CallExpr
	astx.InspectNoLit(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		case *ast.CallExpr:
			out = append(out, n)
		}
		return true
	})
	return out
}

// attemptCalls returns the calls of a retry site that run once per
// attempt: for a loop, its attempt and the calls that precede the attempt
// in every iteration (in the statements before it, not in a branch the
// attempt is not in); for a library or helper site whose operation is a
// literal, every call of the literal.
func (c *checker) attemptCalls(s *retrysite.Site) []*ast.CallExpr {
	if s.Kind != retrysite.Loop {
		if s.Body == nil {
			return nil
		}
		return callsOnce(s.Body)
	}
	if s.Loop == nil || s.Loop.Attempt == nil || s.Body == nil {
		return nil
	}
	att := s.Loop.Attempt
	// The blocks from the loop body down to the attempt.
	onPath := make(map[ast.Node]bool)
	cur, ok := c.find.Find(att)
	if !ok {
		return nil
	}
	for p := cur; p.Valid() && p.Node() != s.Body; p = p.Parent() {
		onPath[p.Node()] = true
	}
	var out []*ast.CallExpr
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if n == nil || n.Pos() >= att.End() {
			return false
		}
		switch n := n.(type) {
		case *ast.GoStmt, *ast.DeferStmt, *ast.FuncLit:
			return false
		case *ast.BlockStmt, *ast.CaseClause, *ast.CommClause:
			return onPath[n] // a branch the attempt is not in may not run
		case *ast.CallExpr:
			out = append(out, n)
		}
		return true
	}
	for _, st := range s.Body.List {
		if st.Pos() >= att.End() {
			break
		}
		ast.Inspect(st, visit)
	}
	return out
}

// calleeDecls returns the declarations of the package's functions that a
// call reaches: its static callee, or the one implementation of an
// interface method in the package.
func (c *checker) calleeDecls(call *ast.CallExpr) []*ast.FuncDecl {
	fn := c.callee(call)
	if fn == nil {
		return nil
	}
	if typesx.IsInterfaceMethod(fn) {
		fn = c.soleImpl(fn)
	}
	if fd := c.declOf(fn); fd != nil {
		return []*ast.FuncDecl{fd}
	}
	return nil
}

// funcValue returns the function an operation value names: f, pkg.F, or
// the method of a method value x.M.
func (c *checker) funcValue(e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := c.pass.TypesInfo.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel := c.pass.TypesInfo.Selections[e]; sel != nil {
			if sel.Kind() != types.MethodVal {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			if fn != nil && typesx.IsInterfaceMethod(fn) {
				return c.soleImpl(fn)
			}
			return fn
		}
		fn, _ := c.pass.TypesInfo.Uses[e.Sel].(*types.Func)
		return fn
	}
	return nil
}

// declOf returns the declaration of a function of the package, with a
// body, or nil.
func (c *checker) declOf(fn *types.Func) *ast.FuncDecl {
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return nil
	}
	if c.decls == nil {
		c.decls = make(map[*types.Func]*ast.FuncDecl)
		for _, f := range c.pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if obj, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						c.decls[obj] = fd
					}
				}
			}
		}
	}
	return c.decls[fn.Origin()]
}

// soleImpl returns the method that an interface method call reaches when
// the interface is declared in the package and exactly one named type of
// the package implements it, or nil.
func (c *checker) soleImpl(m *types.Func) *types.Func {
	sig, ok := m.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	named, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg || named.TypeParams().Len() > 0 {
		return nil
	}
	iface, ok := named.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	if impl, ok := c.impls[named]; ok {
		return lookupMethod(impl, m)
	}
	var impl types.Type
	n := 0
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || c.testDouble(tn) {
			continue
		}
		t, ok := tn.Type().(*types.Named)
		if !ok || t.TypeParams().Len() > 0 {
			continue
		}
		if _, isIface := t.Underlying().(*types.Interface); isIface {
			continue
		}
		switch {
		case types.Implements(t, iface):
			impl, n = t, n+1
		case types.Implements(types.NewPointer(t), iface):
			impl, n = types.NewPointer(t), n+1
		}
	}
	if n != 1 {
		impl = nil
	}
	if c.impls == nil {
		c.impls = make(map[*types.Named]types.Type)
	}
	c.impls[named] = impl
	return lookupMethod(impl, m)
}

// testDouble reports whether a type is declared in a test file: a fake
// the tests hand the code, which never runs where the code is used, so
// the code's findings do not depend on it (go vet analyzes a package with
// its tests, lint mode without them, and both must agree).
func (c *checker) testDouble(tn *types.TypeName) bool {
	return srcpos.InTest(c.pass.Fset, tn.Pos())
}

// lookupMethod returns t's method named like m, or nil.
func lookupMethod(t types.Type, m *types.Func) *types.Func {
	if t == nil {
		return nil
	}
	sel := types.NewMethodSet(t).Lookup(m.Pkg(), m.Name())
	if sel == nil {
		return nil
	}
	fn, _ := sel.Obj().(*types.Func)
	return fn
}
