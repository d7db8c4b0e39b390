package freshtimeout

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// This file decides whether, at a call, a context is known to be done:
// the call follows a receive from ctx.Done(), sits in a "case
// <-ctx.Done():" clause, or in the branch of a check that ctx.Err() is
// not nil. There a fresh root is the only correct parent for shutdown
// work. Any context counts, not only the inherited one: a derived
// context that is done says the same about the work at hand, and
// precision comes first.

// knownDone reports whether a context is known to be done at the node at
// cur, looking at the statements that enclose it up to fn, the function
// that declared the inherited context (nil: up to the file).
func (c *checker) knownDone(cur inspector.Cursor, fn ast.Node) bool {
	for child := cur; child.Node() != fn; {
		parent := child.Parent()
		if parent.Node() == nil {
			return false
		}
		kind := child.ParentEdgeKind()
		switch p := parent.Node().(type) {
		case *ast.CommClause:
			if kind == edge.CommClause_Body && c.isDoneRecvStmt(p.Comm) {
				return true
			}
		case *ast.IfStmt:
			if kind == edge.IfStmt_Body && (c.impliesDone(p.Cond) || c.failedUnderParam(parent, p)) {
				return true
			}
			if kind == edge.IfStmt_Else && c.impliesNotDone(p.Cond) {
				return true
			}
		case *ast.CaseClause:
			if kind == edge.CaseClause_Body && c.caseImpliesDone(parent, p) {
				return true
			}
		}
		if isListElem(child) {
			for sib, ok := child.PrevSibling(); ok && sib.ParentEdgeKind() == kind; sib, ok = sib.PrevSibling() {
				if stmt, ok := sib.Node().(ast.Stmt); ok && c.marksDone(stmt) {
					return true
				}
			}
		}
		child = parent
	}
	return false
}

// caseImpliesDone reports whether the body of the switch case clause cc
// (at cur) runs only when a context is done: in a tagless switch, a case
// expression that implies it; in "switch ctx.Err()", a case that lists
// only non-nil values.
func (c *checker) caseImpliesDone(cur inspector.Cursor, cc *ast.CaseClause) bool {
	sw, ok := cur.Parent().Parent().Node().(*ast.SwitchStmt)
	if !ok || len(cc.List) == 0 {
		return false
	}
	if sw.Tag == nil {
		for _, e := range cc.List {
			if c.impliesDone(e) {
				return true
			}
		}
		return false
	}
	if !c.isCtxErr(sw.Tag) {
		return false
	}
	for _, e := range cc.List {
		if isNil(c.pass.TypesInfo, e) {
			return false
		}
	}
	return true
}

// marksDone reports whether, after the statement s completes normally, a
// context is known to be done.
func (c *checker) marksDone(s ast.Stmt) bool {
	var label *ast.Ident
	if ls, ok := s.(*ast.LabeledStmt); ok {
		label, s = ls.Label, ls.Stmt
	}
	switch s := s.(type) {
	case *ast.ExprStmt, *ast.AssignStmt:
		return c.isDoneRecvStmt(s)
	case *ast.SelectStmt:
		// select { case <-ctx.Done(): ... }: done after the select when a
		// done case reaches its end or breaks out of the select.
		for _, cl := range s.Body.List {
			cc, ok := cl.(*ast.CommClause)
			if !ok || !c.isDoneRecvStmt(cc.Comm) {
				continue
			}
			if !terminates(c.pass.TypesInfo, cc.Body) {
				return true
			}
			for _, b := range cc.Body {
				if c.breaksOnDone(b, label, 0, true) {
					return true
				}
			}
		}
	case *ast.IfStmt:
		// if ctx.Err() == nil { return }: done after the if.
		return c.impliesNotDone(s.Cond) && terminates(c.pass.TypesInfo, s.Body.List)
	case *ast.ForStmt:
		// for ctx.Err() == nil { ... }, or a loop left by a break under
		// a done condition.
		if s.Cond != nil && c.impliesNotDone(s.Cond) {
			return true
		}
		return c.breaksOnDone(s.Body, label, 0, false)
	case *ast.RangeStmt:
		return c.breaksOnDone(s.Body, label, 0, false)
	}
	return false
}

// breaksOnDone reports whether n holds a break or goto that leaves the
// enclosing statement (labelled label; depth counts the breakable
// statements between) under a condition that says a context is done.
func (c *checker) breaksOnDone(n ast.Node, label *ast.Ident, depth int, done bool) bool {
	found := false
	visit := func(m ast.Node, d int, dn bool) {
		if m != nil && !found && c.breaksOnDone(m, label, d, dn) {
			found = true
		}
	}
	ast.Inspect(n, func(m ast.Node) bool {
		if found {
			return false
		}
		switch m := m.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if done {
				switch m.Tok {
				case token.GOTO:
					found = true
				case token.BREAK:
					found = (m.Label == nil && depth == 0) ||
						(m.Label != nil && label != nil && m.Label.Name == label.Name)
				}
			}
			return false
		case *ast.ForStmt:
			visit(m.Body, depth+1, done)
			return false
		case *ast.RangeStmt:
			visit(m.Body, depth+1, done)
			return false
		case *ast.SwitchStmt:
			visit(m.Body, depth+1, done)
			return false
		case *ast.TypeSwitchStmt:
			visit(m.Body, depth+1, done)
			return false
		case *ast.SelectStmt:
			visit(m.Body, depth+1, done)
			return false
		case *ast.CommClause:
			d := done || c.isDoneRecvStmt(m.Comm)
			for _, s := range m.Body {
				visit(s, depth, d)
			}
			return false
		case *ast.IfStmt:
			visit(m.Body, depth, done || c.impliesDone(m.Cond))
			visit(m.Else, depth, done || c.impliesNotDone(m.Cond))
			return false
		}
		return true
	})
	return found
}

// terminates reports whether the statement list never completes
// normally: it ends in a return, a branch, or a call that does not return.
func terminates(info *types.Info, list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt, *ast.BranchStmt:
		return true
	case *ast.BlockStmt:
		return terminates(info, s.List)
	case *ast.IfStmt:
		if s.Else == nil {
			return false
		}
		return terminates(info, s.Body.List) && terminates(info, []ast.Stmt{s.Else})
	case *ast.ExprStmt:
		call, ok := ast.Unparen(s.X).(*ast.CallExpr)
		if !ok {
			return false
		}
		switch fn := typeutil.Callee(info, call).(type) {
		case *types.Builtin:
			return fn.Name() == "panic"
		case *types.Func:
			return noReturn[fn.Origin().FullName()]
		}
	}
	return false
}

// noReturn lists functions that do not return to their caller.
var noReturn = map[string]bool{
	"os.Exit":                   true,
	"runtime.Goexit":            true,
	"log.Fatal":                 true,
	"log.Fatalf":                true,
	"log.Fatalln":               true,
	"log.Panic":                 true,
	"log.Panicf":                true,
	"log.Panicln":               true,
	"(*log.Logger).Fatal":       true,
	"(*log.Logger).Fatalf":      true,
	"(*log.Logger).Fatalln":     true,
	"(*testing.common).Fatal":   true,
	"(*testing.common).Fatalf":  true,
	"(*testing.common).FailNow": true,
	"(*testing.common).Skip":    true,
	"(*testing.common).Skipf":   true,
	"(*testing.common).SkipNow": true,
	"(testing.TB).Fatal":        true,
	"(testing.TB).Fatalf":       true,
	"(testing.TB).FailNow":      true,
	"(testing.TB).Skip":         true,
	"(testing.TB).Skipf":        true,
	"(testing.TB).SkipNow":      true,
}

// impliesDone reports whether the condition e, when true, says that a
// context is done.
func (c *checker) impliesDone(e ast.Expr) bool {
	info := c.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			return c.impliesDone(e.X) || c.impliesDone(e.Y)
		case token.LOR:
			return c.impliesDone(e.X) && c.impliesDone(e.Y)
		case token.NEQ:
			return (c.isCtxErr(e.X) && isNil(info, e.Y)) || (c.isCtxErr(e.Y) && isNil(info, e.X))
		case token.EQL:
			return c.isCtxSentinel(e.X) || c.isCtxSentinel(e.Y) || c.isNilParamCheck(e)
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			if b, ok := ast.Unparen(e.X).(*ast.BinaryExpr); ok && b.Op == token.EQL {
				return (c.isCtxErr(b.X) && isNil(info, b.Y)) || (c.isCtxErr(b.Y) && isNil(info, b.X))
			}
		}
	case *ast.CallExpr:
		// errors.Is(err, context.Canceled)
		if fn, ok := typeutil.Callee(info, e).(*types.Func); ok && fn.FullName() == "errors.Is" && len(e.Args) == 2 {
			return c.isCtxSentinel(e.Args[1])
		}
	}
	return false
}

// impliesNotDone reports whether the condition e, when true, says that a
// context is not done (so that its else branch says it is).
func (c *checker) impliesNotDone(e ast.Expr) bool {
	info := c.pass.TypesInfo
	switch e := ast.Unparen(e).(type) {
	case *ast.BinaryExpr:
		switch e.Op {
		case token.LAND:
			return c.impliesNotDone(e.X) || c.impliesNotDone(e.Y)
		case token.EQL:
			return (c.isCtxErr(e.X) && isNil(info, e.Y)) || (c.isCtxErr(e.Y) && isNil(info, e.X))
		case token.NEQ:
			return c.isNilParamCheck(e)
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			if b, ok := ast.Unparen(e.X).(*ast.BinaryExpr); ok && b.Op == token.NEQ {
				return (c.isCtxErr(b.X) && isNil(info, b.Y)) || (c.isCtxErr(b.Y) && isNil(info, b.X))
			}
		}
	}
	return false
}

// isCtxErr reports whether e is ctx.Err() or context.Cause(ctx) for some
// context ctx, or a local variable initialised from one.
func (c *checker) isCtxErr(e ast.Expr) bool {
	e = ast.Unparen(e)
	if c.isCtxErrCall(e) {
		return true
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pkg() != c.pass.Pkg || v.Parent() == c.pass.Pkg.Scope() || !v.Pos().IsValid() {
		return false
	}
	def, ok := c.insp.Root().FindByPos(v.Pos(), v.Pos()+token.Pos(len(v.Name())))
	if !ok {
		return false
	}
	if did, ok := def.Node().(*ast.Ident); !ok || c.pass.TypesInfo.Defs[did] != v {
		return false
	}
	rhs, _, ok := storedValue(def)
	return ok && rhs != nil && c.isCtxErrCall(ast.Unparen(rhs))
}

// isCtxErrCall reports whether e is a call ctx.Err() or context.Cause(ctx).
func (c *checker) isCtxErrCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	if fn := contextFunc(c.pass.TypesInfo, call); fn != nil {
		return fn.Name() == "Cause"
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && len(call.Args) == 0 && sel.Sel.Name == "Err" && c.isContext(sel.X)
}

// isCtxSentinel reports whether e is context.Canceled or
// context.DeadlineExceeded.
func (c *checker) isCtxSentinel(e ast.Expr) bool {
	var id *ast.Ident
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	return ok && v.Pkg() != nil && v.Pkg().Path() == "context" &&
		(v.Name() == "Canceled" || v.Name() == "DeadlineExceeded")
}

// isDoneRecvStmt reports whether s is "<-ctx.Done()", possibly assigned.
func (c *checker) isDoneRecvStmt(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		return c.isDoneRecv(s.X)
	case *ast.AssignStmt:
		return len(s.Rhs) == 1 && c.isDoneRecv(s.Rhs[0])
	}
	return false
}

// isDoneRecv reports whether e is a receive from ctx.Done() for some
// context ctx.
func (c *checker) isDoneRecv(e ast.Expr) bool {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	call, ok := ast.Unparen(u.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Done" && c.isContext(sel.X)
}

// isContext reports whether the value e implements context.Context.
func (c *checker) isContext(e ast.Expr) bool {
	t := c.pass.TypesInfo.TypeOf(e)
	if t == nil {
		return false
	}
	return types.Implements(t, c.ctxIface) || types.Implements(types.NewPointer(t), c.ctxIface)
}

// isNil reports whether e is the predeclared nil.
func isNil(info *types.Info, e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	_, ok = info.Uses[id].(*types.Nil)
	return ok
}

// isNilParamCheck reports whether the comparison e compares the inherited
// parameter with nil: where it is nil, a fresh root is the only parent
// there is.
func (c *checker) isNilParamCheck(e *ast.BinaryExpr) bool {
	if c.param == nil {
		return false
	}
	info := c.pass.TypesInfo
	is := func(x ast.Expr) bool {
		id, ok := ast.Unparen(x).(*ast.Ident)
		return ok && info.Uses[id] == c.param
	}
	return (is(e.X) && isNil(info, e.Y)) || (is(e.Y) && isNil(info, e.X))
}

// failedUnderParam reports whether the condition of the if statement at
// cur says that work given the inherited context failed: err != nil, where
// err was just assigned (in the if's init or the statement before it) from
// a call that was passed the inherited parameter. The error may be the
// context's own, so cleanup in that branch needs a fresh root:
//
//	if err = p.Start(ctx); err != nil {
//		ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
//		defer cancel()
//		p.Delete(ctx)
//	}
func (c *checker) failedUnderParam(cur inspector.Cursor, ifs *ast.IfStmt) bool {
	if c.param == nil {
		return false
	}
	info := c.pass.TypesInfo
	var errVars []*types.Var
	var collect func(e ast.Expr)
	collect = func(e ast.Expr) {
		b, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if !ok {
			return
		}
		switch b.Op {
		case token.LAND:
			collect(b.X)
			collect(b.Y)
		case token.NEQ:
			for _, pair := range [2][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				if id, ok := ast.Unparen(pair[0]).(*ast.Ident); ok && isNil(info, pair[1]) {
					if v, ok := info.Uses[id].(*types.Var); ok && isError(v.Type()) {
						errVars = append(errVars, v)
					}
				}
			}
		}
	}
	collect(ifs.Cond)
	if len(errVars) == 0 {
		return false
	}
	stmts := []ast.Stmt{ifs.Init}
	if prev, ok := cur.PrevSibling(); ok && prev.ParentEdgeKind() == cur.ParentEdgeKind() {
		if s, ok := prev.Node().(ast.Stmt); ok {
			stmts = append(stmts, s)
		}
	}
	for _, s := range stmts {
		var lhs []ast.Expr
		var rhs []ast.Expr
		switch s := s.(type) {
		case *ast.AssignStmt:
			lhs, rhs = s.Lhs, s.Rhs
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok && len(gd.Specs) == 1 {
				if vs, ok := gd.Specs[0].(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						lhs = append(lhs, n)
					}
					rhs = vs.Values
				}
			}
		default:
			continue
		}
		assigns := false
		for _, l := range lhs {
			if id, ok := ast.Unparen(l).(*ast.Ident); ok {
				for _, v := range errVars {
					if info.ObjectOf(id) == v {
						assigns = true
					}
				}
			}
		}
		if assigns && c.passesParam(rhs) {
			return true
		}
	}
	return false
}

// passesParam reports whether one of exprs calls something with the
// inherited parameter (or an expression built from it, like r.Context())
// among its arguments.
func (c *checker) passesParam(exprs []ast.Expr) bool {
	found := false
	for _, e := range exprs {
		ast.Inspect(e, func(n ast.Node) bool {
			if found {
				return false
			}
			if _, ok := n.(*ast.FuncLit); ok {
				return false
			}
			if call, ok := n.(*ast.CallExpr); ok {
				for _, a := range call.Args {
					ast.Inspect(a, func(m ast.Node) bool {
						if id, ok := m.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == c.param {
							found = true
						}
						return !found
					})
				}
			}
			return !found
		})
	}
	return found
}

// isError reports whether t is the predeclared error type.
func isError(t types.Type) bool {
	return types.Identical(t, types.Universe.Lookup("error").Type())
}
