package freshtimeout

// This file knows which callees hand their arguments to an owner that
// outlives the call, as facts on the callee: a function that stores its
// context parameter in a struct it keeps, or that starts its function
// parameter in a goroutine (or keeps it to run later). A fresh root
// handed to such a callee is a deliberate detach, and a literal handed to
// it runs on its own time. It also knows when a function waits for a
// goroutine it starts, which then runs during the call.

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/typesx"
)

// handoffFact records, for a function that takes a context or a function
// argument, which of them it hands to an owner that outlives its call.
// Indexes are those of the signature's parameters (a variadic parameter
// counts once); it is exported only when one of them is set.
type handoffFact struct {
	// Keeps lists the context parameters stored in a struct the function
	// keeps: a field or element of its receiver, of another parameter or
	// of a package variable (directly, in a composite literal, or through
	// append), or passed to a callee that keeps them.
	Keeps []int
	// Starts lists the function parameters started in a goroutine the
	// function does not wait for, stored as Keeps says, or passed to a
	// callee that starts them or runs them later.
	Starts []int
}

func (*handoffFact) AFact() {}

func (f *handoffFact) String() string {
	var parts []string
	if len(f.Keeps) > 0 {
		parts = append(parts, "keeps "+joinInts(f.Keeps))
	}
	if len(f.Starts) > 0 {
		parts = append(parts, "starts "+joinInts(f.Starts))
	}
	return "handoff(" + strings.Join(parts, "; ") + ")"
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ",")
}

func (f *handoffFact) has(list []int, i int) bool {
	for _, x := range list {
		if x == i {
			return true
		}
	}
	return false
}

// exportHandoffs computes the fact of every function declared in the
// package that takes a context or a function argument, and exports the
// ones that hand something off.
func (c *checker) exportHandoffs() {
	c.decls = map[*types.Func]inspector.Cursor{}
	var order []*types.Func
	for cur := range c.insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fd.Body == nil {
			continue
		}
		if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
			c.decls[fn] = cur
			order = append(order, fn)
		}
	}
	for _, fn := range order {
		if f := c.localHandoff(fn); f != nil {
			c.pass.ExportObjectFact(fn, f)
		}
	}
}

// handoffOf returns the fact of the function fn, or nil.
func (c *checker) handoffOf(fn *types.Func) *handoffFact {
	fn = fn.Origin()
	if fn.Pkg() == c.pass.Pkg {
		return c.localHandoff(fn)
	}
	f := new(handoffFact)
	if c.facts.ReadsFacts(fn.Pkg()) && c.pass.ImportObjectFact(fn, f) {
		return f
	}
	return nil
}

// localHandoff computes the fact of a function of this package, once; a
// call cycle is broken by taking the function being computed to hand
// nothing off.
func (c *checker) localHandoff(fn *types.Func) *handoffFact {
	if f, ok := c.handoffs[fn]; ok {
		return f
	}
	c.handoffs[fn] = nil
	decl, ok := c.decls[fn]
	if !ok {
		return nil
	}
	f := c.computeHandoff(fn, decl)
	c.handoffs[fn] = f
	return f
}

// handoffParam is a parameter being followed: its index, and whether it
// is a function (else a context).
type handoffParam struct {
	idx    int
	isFunc bool
}

func (c *checker) computeHandoff(fn *types.Func, fc inspector.Cursor) *handoffFact {
	decl := fc.Node().(*ast.FuncDecl)
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return nil
	}
	tracked := map[*types.Var]handoffParam{}
	params := sig.Params()
	for i := 0; i < params.Len(); i++ {
		p := params.At(i)
		t := p.Type()
		if sig.Variadic() && i == params.Len()-1 {
			if s, ok := t.(*types.Slice); ok {
				t = s.Elem()
			}
		}
		switch {
		case c.isContextType(t):
			tracked[p] = handoffParam{i, false}
		case isFuncType(t):
			tracked[p] = handoffParam{i, true}
		}
	}
	if len(tracked) == 0 {
		return nil
	}
	f := new(handoffFact)
	info := c.pass.TypesInfo
	for cur := range fc.ChildAt(edge.FuncDecl_Body, -1).Preorder((*ast.Ident)(nil)) {
		v, ok := info.Uses[cur.Node().(*ast.Ident)].(*types.Var)
		if !ok {
			continue
		}
		hp, ok := tracked[v]
		if !ok || (hp.isFunc && f.has(f.Starts, hp.idx)) || (!hp.isFunc && f.has(f.Keeps, hp.idx)) {
			continue
		}
		// Follow the variables that take its value over: the elements of
		// a variadic parameter, a plain copy.
		if w := aliasOf(info, cur); w != nil {
			tracked[w] = hp
			continue
		}
		if c.paramEscapes(decl, cur, hp.isFunc) {
			if hp.isFunc {
				f.Starts = append(f.Starts, hp.idx)
			} else {
				f.Keeps = append(f.Keeps, hp.idx)
			}
		}
	}
	if len(f.Keeps) == 0 && len(f.Starts) == 0 {
		return nil
	}
	return f
}

// isFuncType reports whether t is a function type.
func isFuncType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

// aliasOf returns the variable that the use at cur is copied into: the
// value of "for _, w := range v", or w in "w := v".
func aliasOf(info *types.Info, cur inspector.Cursor) *types.Var {
	switch kind, idx := cur.ParentEdge(); kind {
	case edge.RangeStmt_X:
		rs := cur.Parent().Node().(*ast.RangeStmt)
		if id, ok := rs.Value.(*ast.Ident); ok && rs.Tok == token.DEFINE {
			w, _ := info.Defs[id].(*types.Var)
			return w
		}
	case edge.AssignStmt_Rhs:
		as := cur.Parent().Node().(*ast.AssignStmt)
		if as.Tok == token.DEFINE && len(as.Lhs) == len(as.Rhs) {
			if id, ok := as.Lhs[idx].(*ast.Ident); ok {
				w, _ := info.Defs[id].(*types.Var)
				return w
			}
		}
	}
	return nil
}

// paramEscapes reports whether the use at cur, in the function declared
// by decl, hands the parameter to an owner that outlives the call.
func (c *checker) paramEscapes(decl *ast.FuncDecl, cur inspector.Cursor, isFunc bool) bool {
	if isFunc && c.underGo(cur) {
		return true // run by a goroutine the function does not wait for
	}
	p := cur
	for {
		switch kind, idx := p.ParentEdge(); kind {
		case edge.ParenExpr_X, edge.CompositeLit_Elts:
			p = p.Parent()
			continue
		case edge.KeyValueExpr_Value:
			if p.Parent().ParentEdgeKind() != edge.CompositeLit_Elts {
				return false
			}
			p = p.Parent().Parent()
			continue
		case edge.UnaryExpr_X:
			if p.Parent().Node().(*ast.UnaryExpr).Op != token.AND {
				return false
			}
			p = p.Parent()
			continue
		case edge.CallExpr_Args:
			call := p.Parent().Node().(*ast.CallExpr)
			if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
				if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "append" {
					p = p.Parent()
					continue
				}
			}
			if isFunc && inherit.RunsLater(c.pass.TypesInfo, call) {
				return true
			}
			return c.handsOff(call, idx, isFunc)
		case edge.AssignStmt_Rhs:
			as := p.Parent().Node().(*ast.AssignStmt)
			if len(as.Lhs) != len(as.Rhs) {
				return false
			}
			return c.keptTarget(decl, as.Lhs[idx])
		}
		return false
	}
}

// keptTarget reports whether storing into lhs keeps the value beyond the
// call of the function decl: lhs is a package variable, or a field or
// element of the receiver, of a parameter, or of a package variable (not
// the target of a pointer, which is the caller's own variable).
func (c *checker) keptTarget(decl *ast.FuncDecl, lhs ast.Expr) bool {
	info := c.pass.TypesInfo
	e := ast.Unparen(lhs)
	if _, ok := e.(*ast.Ident); !ok {
		for {
			switch x := e.(type) {
			case *ast.SelectorExpr:
				e = ast.Unparen(x.X)
				continue
			case *ast.IndexExpr:
				e = ast.Unparen(x.X)
				continue
			}
			break
		}
		id, ok := e.(*ast.Ident)
		if !ok {
			return false
		}
		v, ok := info.Uses[id].(*types.Var)
		if !ok {
			return false
		}
		return v.Parent() == c.pass.Pkg.Scope() || isParamOf(info, v, decl.Recv) || isParamOf(info, v, decl.Type.Params)
	}
	v, ok := info.ObjectOf(e.(*ast.Ident)).(*types.Var)
	return ok && v.Parent() == c.pass.Pkg.Scope()
}

// handsOff reports whether the callee of call hands its argument at
// index arg to an owner that outlives the call: keeps it (a context) or
// starts it (a function), by its fact.
func (c *checker) handsOff(call *ast.CallExpr, arg int, isFunc bool) bool {
	info := c.pass.TypesInfo
	fn := typeutil.StaticCallee(info, call)
	if fn == nil {
		return false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok {
		return false
	}
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if s := info.Selections[sel]; s != nil && s.Kind() == types.MethodExpr {
			arg-- // T.M(x, ...): the receiver comes first
		}
	}
	n := sig.Params().Len()
	switch {
	case arg < 0:
		return false
	case sig.Variadic() && arg >= n-1:
		arg = n - 1
	case arg >= n:
		return false
	}
	f := c.handoffOf(fn)
	if f == nil {
		return false
	}
	if isFunc {
		return f.has(f.Starts, arg)
	}
	return f.has(f.Keeps, arg)
}

// joined reports whether the function around the go statement at g waits
// for the goroutine it starts, whose function literal has the body body
// (nil if it has none): after the go statement it receives from a
// channel the goroutine sends on or closes, ranges over it, or calls Wait
// on a sync.WaitGroup the goroutine calls Done on; or it closes a channel
// the goroutine receives from (the goroutine then ends with the call).
func (c *checker) joined(g inspector.Cursor, body *ast.BlockStmt) bool {
	if body == nil {
		return false
	}
	info := c.pass.TypesInfo
	var sends, recvs, dones []ast.Expr
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SendStmt:
			sends = append(sends, n.Chan)
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				recvs = append(recvs, n.X)
			}
		case *ast.CallExpr:
			if isBuiltinCall(info, n, "close") && len(n.Args) == 1 {
				sends = append(sends, n.Args[0])
			}
			if x := c.waitGroupCall(n, "Done"); x != nil {
				dones = append(dones, x)
			}
		}
		return true
	})
	if len(sends) == 0 && len(recvs) == 0 && len(dones) == 0 {
		return false
	}
	matches := func(x ast.Expr, list []ast.Expr) bool {
		for _, y := range list {
			if c.sameRef(x, y) {
				return true
			}
		}
		return false
	}
	fc := astx.EnclosingFuncCursor(g)
	if !fc.Valid() {
		return false
	}
	gs := g.Node().(*ast.GoStmt)
	found := false
	fc.Inspect(nil, func(k inspector.Cursor) bool {
		if found {
			return false
		}
		n := k.Node()
		if _, ok := n.(*ast.FuncLit); ok && k != fc {
			// Another goroutine's or callback's code does not wait for
			// this one; a deferred literal runs before the function
			// returns.
			return k.ParentEdgeKind() == edge.CallExpr_Fun && k.Parent().ParentEdgeKind() == edge.DeferStmt_Call
		}
		if n == gs {
			return false
		}
		after := n.Pos() > gs.End()
		switch n := n.(type) {
		case *ast.UnaryExpr:
			found = after && n.Op == token.ARROW && matches(n.X, sends)
		case *ast.RangeStmt:
			found = after && matches(n.X, sends)
		case *ast.CallExpr:
			if x := c.waitGroupCall(n, "Wait"); x != nil {
				found = after && matches(x, dones)
			} else if isBuiltinCall(info, n, "close") && len(n.Args) == 1 {
				found = matches(n.Args[0], recvs)
			}
		}
		return !found
	})
	return found
}

// waitGroupCall returns x if call is x.name() for a sync.WaitGroup x.
func (c *checker) waitGroupCall(call *ast.CallExpr, name string) ast.Expr {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != name || len(call.Args) != 0 {
		return nil
	}
	t := c.pass.TypesInfo.TypeOf(sel.X)
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if !typesx.IsNamed(t, "sync", "WaitGroup") {
		return nil
	}
	return sel.X
}

// isBuiltinCall reports whether call calls the builtin name.
func isBuiltinCall(info *types.Info, call *ast.CallExpr, name string) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok {
		return false
	}
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// sameRef reports whether a and b denote the same variable: the same
// identifier, or the same field path from the same variable (s.wg and
// s.wg), with any & or * in between ignored.
func (c *checker) sameRef(a, b ast.Expr) bool {
	a, b = stripRef(a), stripRef(b)
	info := c.pass.TypesInfo
	switch a := a.(type) {
	case *ast.Ident:
		bi, ok := b.(*ast.Ident)
		if !ok {
			return false
		}
		oa, ob := info.ObjectOf(a), info.ObjectOf(bi)
		return oa != nil && oa == ob
	case *ast.SelectorExpr:
		bs, ok := b.(*ast.SelectorExpr)
		if !ok {
			return false
		}
		oa, ob := info.ObjectOf(a.Sel), info.ObjectOf(bs.Sel)
		if oa == nil || oa != ob {
			return false
		}
		if _, isPkg := info.Uses[identOf(a.X)].(*types.PkgName); isPkg {
			return true // a package-level variable, qualified
		}
		return c.sameRef(a.X, bs.X)
	}
	return false
}

func stripRef(e ast.Expr) ast.Expr {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if x.Op != token.AND {
				return x
			}
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return x
		}
	}
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}
