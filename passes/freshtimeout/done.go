package freshtimeout

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/typesx"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
	"golang.org/x/tools/go/types/typeutil"
)

// This file decides whether, at a call, the inherited context is known to
// be done: every path to the call passes a receive from ctx.Done(), a
// "case <-ctx.Done():", a branch where ctx.Err() is not nil, or one where
// an error of a call given ctx is context.Canceled or DeadlineExceeded.
// There a fresh root is the only correct parent for shutdown work. A
// context that the function did not derive (a field, another parameter)
// counts like the inherited one: its owner being done is shutdown too.
// A child derived in the function (by WithCancel, WithTimeout,
// WithDeadline or their Cause forms) does not: its own timeout or cancel
// says nothing about the caller's context.
//
// It also decides the two other exemptions that hang on control flow:
// cleanup of the resource whose call given ctx just failed, and a new
// context used only by deferred calls.

// knownDone reports whether the inherited context is known to be done at
// the node at cur: in the function around it, or, for a function literal
// that runs there, at the literal in the function around that, and so on
// up to stop (the function that declared the inherited context; nil: up
// to the file).
func (c *checker) knownDone(cur inspector.Cursor, stop ast.Node) bool {
	at := cur.Node()
	for fc := range cur.Parent().Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if c.doneAt(fc, at.Pos()) {
			return true
		}
		if fc.Node() == stop {
			break
		}
		at = fc.Node()
	}
	return false
}

// doneAt reports whether every path through the function fc to the node
// at pos passes a point where a context it did not derive is done.
func (c *checker) doneAt(fc inspector.Cursor, pos token.Pos) bool {
	f := c.flowOf(fc.Node())
	if f == nil {
		return false
	}
	l, ok := f.locate(pos)
	if !ok {
		return false
	}
	return f.everyPath(l, pathEvents{
		node: func(n ast.Node, _ loc) bool {
			s, ok := n.(ast.Stmt)
			return ok && !f.comms[s] && c.doneRecvStmt(fc, s)
		},
		edge: func(p, s *cfg.Block) bool { return c.edgeDone(fc, f, p, s) },
		block: func(b *cfg.Block) bool {
			// After a select that waits for ctx.Done() and carries on
			// from that case: every way out of it is shutdown.
			sel, ok := b.Stmt.(*ast.SelectStmt)
			if !ok || b.Kind != cfg.KindSelectDone {
				return false
			}
			for _, cl := range sel.Body.List {
				if cc, ok := cl.(*ast.CommClause); ok && c.doneRecvStmt(fc, cc.Comm) {
					if body := f.caseBody[cc]; body != nil && f.reachesFrom(body, b) {
						return true
					}
				}
			}
			return false
		},
	})
}

// edgeDone reports whether taking the edge from p to s in the graph of fc
// says that a context is done: entering a "case <-ctx.Done():", or the
// branch of a condition that implies it.
func (c *checker) edgeDone(fc inspector.Cursor, f *flow, p, s *cfg.Block) bool {
	if len(p.Succs) != 2 || p.Succs[0] == p.Succs[1] {
		return false
	}
	if s.Kind == cfg.KindSelectCaseBody {
		cc, ok := s.Stmt.(*ast.CommClause)
		return ok && p.Succs[0] == s && c.doneRecvStmt(fc, cc.Comm)
	}
	if s.Kind == cfg.KindSelectAfterCase || len(p.Nodes) == 0 {
		return false
	}
	e, ok := p.Nodes[len(p.Nodes)-1].(ast.Expr)
	if !ok {
		return false
	}
	ecur, ok := fc.FindNode(e)
	if !ok {
		return false
	}
	if sw := f.caseSwitch[e]; sw != nil {
		// One case expression: its true edge enters the case body.
		if s != p.Succs[0] {
			return false
		}
		if sw.Tag == nil {
			return c.impliesDone(ecur)
		}
		tag, ok := fc.FindNode(sw.Tag)
		return ok && c.isCtxErr(tag) && !isNil(c.pass.TypesInfo, e)
	}
	if s == p.Succs[0] {
		return c.impliesDone(ecur)
	}
	return c.impliesNotDone(ecur)
}

// doneRecvStmt reports whether s is "<-ctx.Done()", possibly assigned,
// for a context ctx that the function did not derive.
func (c *checker) doneRecvStmt(fc inspector.Cursor, s ast.Stmt) bool {
	var e ast.Expr
	switch s := s.(type) {
	case *ast.ExprStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			e = s.Rhs[0]
		}
	}
	x := c.doneRecv(e)
	if x == nil {
		return false
	}
	xc, ok := fc.FindNode(x)
	return ok && !c.isChild(xc, 0)
}

// doneRecv returns ctx if e is a receive from ctx.Done() for some context
// ctx, or nil.
func (c *checker) doneRecv(e ast.Expr) ast.Expr {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	call, ok := ast.Unparen(u.X).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Done" || !c.isContext(sel.X) {
		return nil
	}
	return sel.X
}

// unparenCur returns the cursor of the expression at cur without its
// parentheses.
func unparenCur(cur inspector.Cursor) inspector.Cursor {
	for {
		if _, ok := cur.Node().(*ast.ParenExpr); !ok {
			return cur
		}
		cur = cur.ChildAt(edge.ParenExpr_X, -1)
	}
}

// impliesDone reports whether the condition at cur, when true, says that
// a context the function did not derive is done.
func (c *checker) impliesDone(cur inspector.Cursor) bool {
	cur = unparenCur(cur)
	info := c.pass.TypesInfo
	switch e := cur.Node().(type) {
	case *ast.BinaryExpr:
		x := unparenCur(cur.ChildAt(edge.BinaryExpr_X, -1))
		y := unparenCur(cur.ChildAt(edge.BinaryExpr_Y, -1))
		switch e.Op {
		case token.LAND:
			return c.impliesDone(x) || c.impliesDone(y)
		case token.LOR:
			return c.impliesDone(x) && c.impliesDone(y)
		case token.NEQ:
			return (c.isCtxErr(x) && isNil(info, e.Y)) || (c.isCtxErr(y) && isNil(info, e.X))
		case token.EQL:
			return c.sentinelDone(x, y) || c.sentinelDone(y, x) || c.isNilParamCheck(e)
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return c.impliesNotDone(cur.ChildAt(edge.UnaryExpr_X, -1))
		}
	case *ast.CallExpr:
		// errors.Is(err, context.Canceled)
		if fn, ok := typeutil.Callee(info, e).(*types.Func); ok && fn.FullName() == "errors.Is" && len(e.Args) == 2 {
			return c.sentinelDone(cur.ChildAt(edge.CallExpr_Args, 0), cur.ChildAt(edge.CallExpr_Args, 1))
		}
	}
	return false
}

// impliesNotDone reports whether the condition at cur, when true, says
// that the contexts it tests are not done (so that its else branch says
// one is).
func (c *checker) impliesNotDone(cur inspector.Cursor) bool {
	cur = unparenCur(cur)
	info := c.pass.TypesInfo
	switch e := cur.Node().(type) {
	case *ast.BinaryExpr:
		x := unparenCur(cur.ChildAt(edge.BinaryExpr_X, -1))
		y := unparenCur(cur.ChildAt(edge.BinaryExpr_Y, -1))
		switch e.Op {
		case token.LAND:
			return c.impliesNotDone(x) || c.impliesNotDone(y)
		case token.LOR:
			return c.impliesNotDone(x) && c.impliesNotDone(y)
		case token.EQL:
			return (c.isCtxErr(x) && isNil(info, e.Y)) || (c.isCtxErr(y) && isNil(info, e.X))
		case token.NEQ:
			return c.isNilParamCheck(e)
		}
	case *ast.UnaryExpr:
		if e.Op == token.NOT {
			return c.impliesDone(cur.ChildAt(edge.UnaryExpr_X, -1))
		}
	}
	return false
}

// sentinelDone reports whether "errCur == sentinelCur" (or errors.Is)
// says that a context is done: the sentinel is context.Canceled or
// DeadlineExceeded, and the error is a context's own (see ctxError).
func (c *checker) sentinelDone(errCur, sentinelCur inspector.Cursor) bool {
	return c.isCtxSentinel(sentinelCur.Node().(ast.Expr)) && c.ctxError(errCur, 0)
}

// ctxError reports whether the error at cur is, on every path that
// reaches it, the error of a context the function did not derive: its
// Err() or Cause, or the error of a call given such a context (the
// inherited one, typically). The error of a call given only a child, or
// no context at all, is not known to be the inherited context's.
func (c *checker) ctxError(cur inspector.Cursor, depth int) bool {
	cur = unparenCur(cur)
	if depth > maxRootDepth {
		return false
	}
	switch e := cur.Node().(type) {
	case *ast.CallExpr:
		if x := c.ctxErrRecv(e); x != nil {
			xc, ok := cur.FindNode(x)
			return ok && !c.isChild(xc, depth+1)
		}
		for i, a := range e.Args {
			if c.isContext(a) && !c.isChild(cur.ChildAt(edge.CallExpr_Args, i), depth+1) {
				return true
			}
		}
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		defs, ok := c.defsAt(cur, v)
		if !ok || len(defs) == 0 {
			return false
		}
		for _, d := range defs {
			if d.rhs == nil || d.param {
				return false
			}
			if _, isCall := ast.Unparen(d.rhs).(*ast.CallExpr); !isCall {
				return false
			}
			rc, ok := c.find(d.rhs)
			if !ok || !c.ctxError(rc, depth+1) {
				return false
			}
		}
		return true
	}
	return false
}

// isChild reports whether the context at cur is a child derived in the
// function: a call of WithCancel, WithTimeout, WithDeadline or their
// Cause forms (or WithValue of a child), or a variable that holds one on
// every path to cur.
func (c *checker) isChild(cur inspector.Cursor, depth int) bool {
	if depth > maxRootDepth {
		return false
	}
	cur = unparenCur(cur)
	switch e := cur.Node().(type) {
	case *ast.CallExpr:
		fn := contextFunc(c.pass.TypesInfo, e)
		switch {
		case fn == nil:
			return false
		case cancelFuncs[fn.Name()]:
			return true
		case fn.Name() == "WithValue" && len(e.Args) > 0:
			return c.isChild(cur.ChildAt(edge.CallExpr_Args, 0), depth+1)
		}
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok || v.IsField() || v.Pkg() != c.pass.Pkg || v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
			return false
		}
		defs, ok := c.defsAt(cur, v)
		if !ok {
			// A variable captured by a literal: every store in its
			// function must make a child.
			defs, ok = c.storesOf(v)
		}
		if !ok {
			return false
		}
		n := 0
		for _, d := range defs {
			switch {
			case d.zero:
				continue
			case d.rhs == nil || d.param:
				return false
			case d.tuple:
				call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
				if !ok || d.idx != 0 || !c.isChildCall(call) {
					return false
				}
			default:
				rc, ok := c.find(d.rhs)
				if !ok || !c.isChild(rc, depth+1) {
					return false
				}
			}
			n++
		}
		return n > 0
	}
	return false
}

// isChildCall reports whether call derives a context that can be done
// before its parent: a context function of cancelFuncs, or
// os/signal.NotifyContext.
func (c *checker) isChildCall(call *ast.CallExpr) bool {
	if fn := contextFunc(c.pass.TypesInfo, call); fn != nil {
		return cancelFuncs[fn.Name()]
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return ok && fn.FullName() == "os/signal.NotifyContext"
}

// storesOf returns every assignment of the local variable v in the
// declaration around it, or false if one cannot be told (its address is
// taken, it is a range variable or a parameter).
func (c *checker) storesOf(v *types.Var) ([]def, bool) {
	decl, ok := c.insp.Root().FindByPos(v.Pos(), v.Pos())
	if !ok {
		return nil, false
	}
	top := topDecl(decl)
	if !top.Valid() {
		return nil, false
	}
	info := c.pass.TypesInfo
	var defs []def
	for cur := range top.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] != v && info.Uses[id] != v {
			continue
		}
		p := cur
		for p.ParentEdgeKind() == edge.ParenExpr_X {
			p = p.Parent()
		}
		if u, ok := p.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			return nil, false
		}
		switch kind, _ := cur.ParentEdge(); kind {
		case edge.AssignStmt_Lhs, edge.ValueSpec_Names:
			rhs, tuple, _, ok := storedValue(cur)
			if !ok {
				return nil, false
			}
			defs = append(defs, def{rhs: rhs, idx: tuple, tuple: tuple >= 0, zero: rhs == nil})
		case edge.Field_Names, edge.RangeStmt_Key, edge.RangeStmt_Value, edge.IncDecStmt_X:
			return nil, false
		}
	}
	return defs, true
}

// isCtxErr reports whether the expression at cur is ctx.Err() or
// context.Cause(ctx) for a context ctx the function did not derive, or a
// variable that holds one on every path to cur.
func (c *checker) isCtxErr(cur inspector.Cursor) bool {
	cur = unparenCur(cur)
	switch e := cur.Node().(type) {
	case *ast.CallExpr:
		x := c.ctxErrRecv(e)
		if x == nil {
			return false
		}
		xc, ok := cur.FindNode(x)
		return ok && !c.isChild(xc, 0)
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok {
			return false
		}
		defs, ok := c.defsAt(cur, v)
		if !ok || len(defs) == 0 {
			return false
		}
		for _, d := range defs {
			if d.rhs == nil || d.tuple {
				return false
			}
			call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
			if !ok {
				return false
			}
			rc, ok := c.find(call)
			if !ok || !c.isCtxErr(rc) {
				return false
			}
		}
		return true
	}
	return false
}

// ctxErrRecv returns ctx if call is ctx.Err() or context.Cause(ctx), else
// nil.
func (c *checker) ctxErrRecv(call *ast.CallExpr) ast.Expr {
	if fn := contextFunc(c.pass.TypesInfo, call); fn != nil {
		if fn.Name() == "Cause" && len(call.Args) == 1 {
			return call.Args[0]
		}
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if ok && len(call.Args) == 0 && sel.Sel.Name == "Err" && c.isContext(sel.X) {
		return sel.X
	}
	return nil
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

// newContext returns the local variable that the context made by the
// call at cur is stored in (c in "c, cancel := context.WithTimeout(...)"),
// or nil.
func (c *checker) newContext(cur inspector.Cursor) *types.Var {
	for cur.ParentEdgeKind() == edge.ParenExpr_X {
		cur = cur.Parent()
	}
	var lhs ast.Expr
	switch cur.ParentEdgeKind() {
	case edge.AssignStmt_Rhs:
		as := cur.Parent().Node().(*ast.AssignStmt)
		if len(as.Rhs) != 1 || len(as.Lhs) == 0 || (as.Tok != token.ASSIGN && as.Tok != token.DEFINE) {
			return nil
		}
		lhs = as.Lhs[0]
	case edge.ValueSpec_Values:
		spec := cur.Parent().Node().(*ast.ValueSpec)
		if len(spec.Values) != 1 || len(spec.Names) == 0 {
			return nil
		}
		lhs = spec.Names[0]
	default:
		return nil
	}
	return inherit.LocalVar(c.pass.TypesInfo, ast.Unparen(lhs))
}

// usesOf returns the cursors of the uses of v within the declaration
// being judged.
func (c *checker) usesOf(v *types.Var) []inspector.Cursor {
	var uses []inspector.Cursor
	for cur := range c.decl.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] == v {
			uses = append(uses, cur)
		}
	}
	return uses
}

// deferredOnly reports whether the context made by the call at cur is
// used only by deferred calls (defer unlock(uctx, key), or in a deferred
// function literal): cleanup, which runs as the function returns and must
// outlive the inherited context's cancellation.
func (c *checker) deferredOnly(cur inspector.Cursor) bool {
	nv := c.newContext(cur)
	if nv == nil {
		return false
	}
	home := astx.EnclosingFuncCursor(cur)
	uses := c.usesOf(nv)
	for _, u := range uses {
		deferred := false
		for p := range u.Enclosing() {
			if p == home {
				break
			}
			if _, ok := p.Node().(*ast.DeferStmt); ok {
				deferred = true
				break
			}
		}
		if !deferred {
			return false
		}
	}
	return len(uses) > 0
}

// cleansUpFailure reports whether the call at cur makes the context of
// cleanup after a failure: it sits in the branch where err != nil (or the
// else of err == nil), err was last set on every path by a method call
// x.M(...) given the inherited context, and every use of the new context
// is a call of another method on the same x (a rollback, a delete of
// what x.Start(ctx) created). The failed call's error may be the
// inherited context's own, and the resource must be released either way.
// A branch that calls anything else with the new context (another
// replica, a fallback store, the same method again) does the caller's
// work again, under a budget the caller never gave, and is reported.
func (c *checker) cleansUpFailure(cur inspector.Cursor, inh *inheritance) bool {
	if inh.param == nil {
		return false
	}
	nv := c.newContext(cur)
	if nv == nil {
		return false
	}
	uses := c.usesOf(nv)
	if len(uses) == 0 {
		return false
	}
	for child := cur; child.Node() != inh.fn; child = child.Parent() {
		parent := child.Parent()
		if _, ok := parent.Node().(*ast.IfStmt); !ok {
			if parent.Node() == nil {
				return false
			}
			continue
		}
		var op token.Token
		switch child.ParentEdgeKind() {
		case edge.IfStmt_Body:
			op = token.NEQ
		case edge.IfStmt_Else:
			op = token.EQL
		default:
			continue
		}
		cond := parent.ChildAt(edge.IfStmt_Cond, -1)
		for _, ev := range c.errTests(cond, op) {
			recv, method, ok := c.failedCall(ev)
			if ok && c.onlyOtherMethods(uses, recv, method) {
				return true
			}
		}
	}
	return false
}

// errTests returns the error variables that the condition at cur compares
// with nil by op, among its && operands (for op != ; for op ==, its ||
// operands, whose else branch says every one is not nil).
func (c *checker) errTests(cur inspector.Cursor, op token.Token) []inspector.Cursor {
	cur = unparenCur(cur)
	b, ok := cur.Node().(*ast.BinaryExpr)
	if !ok {
		return nil
	}
	join := token.LAND
	if op == token.EQL {
		join = token.LOR
	}
	x := cur.ChildAt(edge.BinaryExpr_X, -1)
	y := cur.ChildAt(edge.BinaryExpr_Y, -1)
	switch b.Op {
	case join:
		return append(c.errTests(x, op), c.errTests(y, op)...)
	case op:
		info := c.pass.TypesInfo
		for _, pair := range [2][2]inspector.Cursor{{x, y}, {y, x}} {
			v := unparenCur(pair[0])
			if id, ok := v.Node().(*ast.Ident); ok && isNil(info, pair[1].Node().(ast.Expr)) {
				if obj, ok := info.Uses[id].(*types.Var); ok && typesx.IsError(obj.Type()) {
					return []inspector.Cursor{v}
				}
			}
		}
	}
	return nil
}

// failedCall returns the receiver and method of the call that set the
// error variable at cur on every path to it, when that call is a method
// call given the inherited context (the same receiver and method on
// every path).
func (c *checker) failedCall(cur inspector.Cursor) (ast.Expr, string, bool) {
	v := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)].(*types.Var)
	defs, ok := c.defsAt(cur, v)
	if !ok || len(defs) == 0 {
		return nil, "", false
	}
	var recv ast.Expr
	method := ""
	for _, d := range defs {
		if d.rhs == nil {
			return nil, "", false
		}
		call, ok := ast.Unparen(d.rhs).(*ast.CallExpr)
		if !ok || !c.passesParam(call) {
			return nil, "", false
		}
		x, m, ok := c.methodCall(call)
		if !ok || (recv != nil && (m != method || !c.sameRef(x, recv))) {
			return nil, "", false
		}
		recv, method = x, m
	}
	return recv, method, true
}

// methodCall returns the receiver expression and the method name of a
// call of a method value x.M(...).
func (c *checker) methodCall(call *ast.CallExpr) (ast.Expr, string, bool) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, "", false
	}
	if s := c.pass.TypesInfo.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return nil, "", false
	}
	return sel.X, sel.Sel.Name, true
}

// onlyOtherMethods reports whether every use is an argument of a call of
// a method other than method on the receiver recv.
func (c *checker) onlyOtherMethods(uses []inspector.Cursor, recv ast.Expr, method string) bool {
	for _, u := range uses {
		for u.ParentEdgeKind() == edge.ParenExpr_X {
			u = u.Parent()
		}
		if u.ParentEdgeKind() != edge.CallExpr_Args {
			return false
		}
		x, m, ok := c.methodCall(u.Parent().Node().(*ast.CallExpr))
		if !ok || m == method || !c.sameRef(x, recv) {
			return false
		}
	}
	return true
}

// passesParam reports whether call (or a call within its arguments) is
// given the inherited parameter, or an expression built from it like
// r.Context().
func (c *checker) passesParam(call *ast.CallExpr) bool {
	found := false
	ast.Inspect(call, func(n ast.Node) bool {
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
	return found
}
