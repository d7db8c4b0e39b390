package retrysite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
)

// findLoops records every hand-written retry loop of the package.
func (a *analyzer) findLoops() {
	for cur := range a.insp.Root().Preorder((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if s := a.loopSite(cur); s != nil {
			a.sites = append(a.sites, s)
		}
	}
}

// loop is the for statement under study.
type loop struct {
	stmt    ast.Stmt // *ast.ForStmt or *ast.RangeStmt
	body    *ast.BlockStmt
	label   *types.Label // the loop's label, if any
	counter types.Object // the counted variable (i in for i := 0; i < n; i++), if any
	cond    ast.Expr     // the loop condition, if any

	// assigns are the assignments and variable declarations of the body,
	// outside nested loops and function literals, in source order; built on
	// first use by lastAssignedCall.
	assigns []ast.Node
	indexed bool
}

// loopSite returns the retry site of the loop at cur, or nil if the loop is
// not a retry loop.
func (a *analyzer) loopSite(cur inspector.Cursor) *Site {
	l := &loop{stmt: cur.Node().(ast.Stmt)}
	switch s := l.stmt.(type) {
	case *ast.ForStmt:
		l.body, l.cond = s.Body, s.Cond
		l.counter = a.forCounter(s)
	case *ast.RangeStmt:
		// Only "for range n" over an integer repeats the same work.
		xt := a.pass.TypesInfo.TypeOf(s.X)
		if xt == nil {
			return nil
		}
		t, ok := xt.Underlying().(*types.Basic)
		if !ok || t.Info()&types.IsInteger == 0 {
			return nil
		}
		l.body = s.Body
		if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
			l.counter = a.pass.TypesInfo.ObjectOf(id)
		}
	}
	if l.body == nil || len(l.body.List) == 0 {
		return nil
	}
	if ls, ok := cur.Parent().Node().(*ast.LabeledStmt); ok {
		l.label, _ = a.pass.TypesInfo.Defs[ls.Label].(*types.Label)
	}

	d := a.decisiveAttempt(l)
	if d == nil {
		return nil
	}
	call := d.call
	// An attempt that indexes with the loop counter tries a different item
	// each time (failover over a list), not the same operation again.
	if l.counter != nil && a.indexesWith(call, l.counter) {
		return nil
	}
	if a.changesInput(l, call) || a.consumesExitingCall(l, call) || (d.ifs != nil && a.inTickerCase(l, d.ifs)) {
		return nil
	}
	s := &Site{
		Kind:     Loop,
		Node:     l.stmt,
		Pos:      l.stmt.Pos(),
		Func:     astx.EnclosingFunc(cur),
		Bound:    a.loopBound(l),
		Backoff:  a.loopBackoff(l),
		Guard:    a.loopGuard(l, call),
		Body:     l.body,
		Attempts: []Attempt{{Call: call, Dep: a.depOf(call)}},
		Decision: d.ifs,
		FailThen: d.failThen,
		Err:      d.err,
	}
	return s
}

// forCounter returns the variable a for statement counts with: the
// variable incremented by its post statement.
func (a *analyzer) forCounter(s *ast.ForStmt) types.Object {
	var id *ast.Ident
	switch post := s.Post.(type) {
	case *ast.IncDecStmt:
		if post.Tok == token.INC {
			id, _ = unparen(post.X).(*ast.Ident)
		}
	case *ast.AssignStmt:
		if post.Tok == token.ADD_ASSIGN && len(post.Lhs) == 1 {
			id, _ = unparen(post.Lhs[0]).(*ast.Ident)
		}
	}
	if id == nil {
		return nil
	}
	return a.pass.TypesInfo.ObjectOf(id)
}

// decision is the test that makes a loop a retry loop.
type decision struct {
	call     *ast.CallExpr // the attempt
	ifs      *ast.IfStmt   // the if statement testing its error; nil when the loop condition does
	failThen bool          // the if's then branch is the failure path
	err      types.Object  // the error variable
}

// decisiveAttempt finds, in the loop body, an if statement that tests the
// error of a call made in the body such that success leaves the loop and
// failure reaches the next iteration.
func (a *analyzer) decisiveAttempt(l *loop) *decision {
	// for err != nil { ...; err = attempt() }: the condition decides.
	if l.cond != nil {
		for _, c := range conjuncts(l.cond) {
			if errObj, successThen := a.errCond(c); errObj != nil && !successThen {
				if call := a.lastAssignedCall(l, l.body.End(), errObj); call != nil {
					return &decision{call: call, err: errObj}
				}
			}
		}
	}
	var found *decision
	a.walkStmts(l.body.List, false, func(s ast.Stmt, list []ast.Stmt, i int, inSwitch bool) bool {
		ifs, ok := s.(*ast.IfStmt)
		if !ok {
			return true
		}
		errObj, call, successThen := a.errTest(ifs.Cond)
		if errObj != nil {
			call = a.lastAssignedCall(l, ifs.Cond.Pos(), errObj)
		}
		if call == nil {
			return true
		}
		rest := list[i+1:]
		var succ, fail []ast.Stmt
		if successThen {
			succ = ifs.Body.List
			fail = elseList(ifs.Else, rest)
		} else {
			fail = ifs.Body.List
			switch {
			case ifs.Else != nil:
				succ = elseList(ifs.Else, nil)
			case a.terminates(l, fail, inSwitch) || endsWithContinue(fail):
				succ = rest
			default:
				return true // both outcomes flow on: not the decision
			}
		}
		// Success must always leave the loop (a loop that sometimes goes on
		// after a success reads, pages or polls), and failure must reach
		// the next iteration.
		if !a.terminates(l, succ, inSwitch) && !a.condEndsOnSuccess(l, errObj, succ) {
			return true
		}
		if a.terminates(l, fail, inSwitch) {
			return true
		}
		found = &decision{call: call, ifs: ifs, failThen: !successThen, err: errObj}
		return false
	})
	return found
}

func elseList(els ast.Stmt, rest []ast.Stmt) []ast.Stmt {
	switch e := els.(type) {
	case nil:
		return rest
	case *ast.BlockStmt:
		return e.List
	default:
		return []ast.Stmt{e}
	}
}

func endsWithContinue(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	b, ok := list[len(list)-1].(*ast.BranchStmt)
	return ok && b.Tok == token.CONTINUE
}

// walkStmts visits the statements of list and of the statements nested in
// them, not entering nested loops or function literals. inSwitch is true
// for statements whose unlabeled break leaves a switch or select. f returns
// false to stop the walk.
func (a *analyzer) walkStmts(list []ast.Stmt, inSwitch bool, f func(s ast.Stmt, list []ast.Stmt, i int, inSwitch bool) bool) bool {
	for i, s := range list {
		if !f(s, list, i, inSwitch) {
			return false
		}
		if !a.walkStmt(s, inSwitch, f) {
			return false
		}
	}
	return true
}

func (a *analyzer) walkStmt(s ast.Stmt, inSwitch bool, f func(ast.Stmt, []ast.Stmt, int, bool) bool) bool {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return a.walkStmts(s.List, inSwitch, f)
	case *ast.LabeledStmt:
		return a.walkStmt(s.Stmt, inSwitch, f)
	case *ast.IfStmt:
		if !a.walkStmts(s.Body.List, inSwitch, f) {
			return false
		}
		if s.Else != nil {
			return a.walkStmts([]ast.Stmt{s.Else}, inSwitch, f)
		}
	case *ast.SwitchStmt:
		for _, c := range s.Body.List {
			if !a.walkStmts(c.(*ast.CaseClause).Body, true, f) {
				return false
			}
		}
	case *ast.TypeSwitchStmt:
		for _, c := range s.Body.List {
			if !a.walkStmts(c.(*ast.CaseClause).Body, true, f) {
				return false
			}
		}
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			if !a.walkStmts(c.(*ast.CommClause).Body, true, f) {
				return false
			}
		}
	}
	return true
}

// errCond recognises a condition that tests an error variable against nil.
// It returns the variable and whether the branch taken when the condition
// holds is the success branch (err == nil, also within && or ||) or the
// failure branch (err != nil). Other conditions give a nil object.
func (a *analyzer) errCond(cond ast.Expr) (obj types.Object, successThen bool) {
	obj, _, successThen = a.errTest(cond)
	return obj, successThen
}

// errTest is errCond that also recognises an attempt tested in place
// (if call() == nil): it returns the call instead of a variable.
func (a *analyzer) errTest(cond ast.Expr) (obj types.Object, call *ast.CallExpr, successThen bool) {
	b, ok := unparen(cond).(*ast.BinaryExpr)
	if !ok {
		return nil, nil, false
	}
	switch b.Op {
	case token.EQL, token.NEQ:
		if o := a.errNilOperand(b); o != nil {
			return o, nil, b.Op == token.EQL
		}
		if c := a.errNilCall(b); c != nil {
			return nil, c, b.Op == token.EQL
		}
	case token.LAND, token.LOR:
		// err == nil && resp.StatusCode < 500: true only on (some) success;
		// err != nil || resp.StatusCode >= 500: true on every failure;
		// err == nil || permanent(err): true on success, false on the
		// failures worth retrying; err != nil && retryable(err): true on
		// the failures worth retrying. In each the err test gives the
		// branch's polarity.
		for _, side := range []ast.Expr{b.X, b.Y} {
			if o, c, succ := a.errTest(side); o != nil || c != nil {
				return o, c, succ
			}
		}
	}
	return nil, nil, false
}

// errNilCall returns the call of "call() == nil" or "call() != nil" when
// the call returns just an error and is an attempt.
func (a *analyzer) errNilCall(b *ast.BinaryExpr) *ast.CallExpr {
	x, y := unparen(b.X), unparen(b.Y)
	if a.isNil(x) {
		x, y = y, x
	}
	if !a.isNil(y) {
		return nil
	}
	call, ok := x.(*ast.CallExpr)
	if !ok || !isErrorType(a.pass.TypesInfo.TypeOf(call)) || a.isPureCall(call) {
		return nil
	}
	return call
}

// errNilOperand returns the error variable of "err == nil" or "err != nil".
func (a *analyzer) errNilOperand(b *ast.BinaryExpr) types.Object {
	x, y := unparen(b.X), unparen(b.Y)
	if a.isNil(x) {
		x, y = y, x
	}
	if !a.isNil(y) {
		return nil
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || !isErrorType(v.Type()) {
		return nil
	}
	return v
}

func (a *analyzer) isNil(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := a.pass.TypesInfo.Uses[id].(*types.Nil)
	return isNil
}

// lastAssignedCall returns the call, made inside the loop body, whose
// result was last assigned to errObj before pos.
func (a *analyzer) lastAssignedCall(l *loop, pos token.Pos, errObj types.Object) *ast.CallExpr {
	var best *ast.CallExpr
	consider := func(lhs []ast.Expr, rhs []ast.Expr) {
		for i, e := range lhs {
			id, ok := unparen(e).(*ast.Ident)
			if !ok || a.pass.TypesInfo.ObjectOf(id) != errObj {
				continue
			}
			var call *ast.CallExpr
			switch {
			case len(rhs) == 1:
				call, _ = unparen(rhs[0]).(*ast.CallExpr)
			case i < len(rhs):
				call, _ = unparen(rhs[i]).(*ast.CallExpr)
			}
			if call != nil && a.resultsError(call) && !a.isPureCall(call) {
				best = call
			} else {
				best = nil // a later non-call assignment hides earlier calls
			}
		}
	}
	if !l.indexed {
		l.indexed = true
		astx.InspectNoLit(l.body, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				return n == l.stmt // assignments in a nested loop do not feed this test directly
			case *ast.AssignStmt, *ast.ValueSpec:
				l.assigns = append(l.assigns, n)
			}
			return true
		})
	}
	// A loop body with many error tests asks for each of them: scan the
	// index, not the body.
	for _, n := range l.assigns {
		if n.Pos() >= pos {
			break
		}
		switch n := n.(type) {
		case *ast.AssignStmt:
			consider(n.Lhs, n.Rhs)
		case *ast.ValueSpec:
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			consider(lhs, n.Values)
		}
	}
	return best
}

// leaves reports whether the statements contain a jump out of the loop:
// a return, a break of the loop, or a goto.
func (a *analyzer) leaves(l *loop, list []ast.Stmt, inSwitch bool) bool {
	found := false
	a.walkStmts(list, inSwitch, func(s ast.Stmt, _ []ast.Stmt, _ int, inSwitch bool) bool {
		if a.jumpsOut(l, s, inSwitch) {
			found = true
			return false
		}
		return true
	})
	return found
}

func (a *analyzer) jumpsOut(l *loop, s ast.Stmt, inSwitch bool) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		switch s.Tok {
		case token.GOTO:
			return true
		case token.BREAK:
			if s.Label == nil {
				return !inSwitch
			}
			return l.label != nil && a.pass.TypesInfo.Uses[s.Label] == l.label
		}
	}
	return false
}

// terminates reports whether the statement list always leaves the loop
// (or the function) instead of reaching the next iteration.
func (a *analyzer) terminates(l *loop, list []ast.Stmt, inSwitch bool) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return a.jumpsOut(l, s, inSwitch)
	case *ast.BlockStmt:
		return a.terminates(l, s.List, inSwitch)
	case *ast.IfStmt:
		return s.Else != nil && a.terminates(l, s.Body.List, inSwitch) && a.terminates(l, elseList(s.Else, nil), inSwitch)
	case *ast.ExprStmt:
		if call, ok := unparen(s.X).(*ast.CallExpr); ok {
			return a.isNoReturn(call)
		}
	}
	return false
}

// isNoReturn reports whether call never returns: panic, os.Exit,
// log.Fatal*, testing's Fatal* and FailNow.
func (a *analyzer) isNoReturn(call *ast.CallExpr) bool {
	if id, ok := unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := a.pass.TypesInfo.Uses[id].(*types.Builtin); ok && id.Name == "panic" {
			return true
		}
	}
	fn := a.callee(call)
	if fn == nil {
		return false
	}
	name := fn.Name()
	switch typesx.PkgPath(fn) {
	case "os":
		return name == "Exit"
	case "log":
		return strings.HasPrefix(name, "Fatal") || strings.HasPrefix(name, "Panic")
	case "testing":
		return strings.HasPrefix(name, "Fatal") || name == "FailNow" || strings.HasPrefix(name, "Skip")
	}
	return false
}

// condEndsOnSuccess reports whether the loop condition stops the loop
// after a success: it tests the error itself (for err != nil) or a
// variable the success path assigns (for !done).
func (a *analyzer) condEndsOnSuccess(l *loop, errObj types.Object, succ []ast.Stmt) bool {
	if l.cond == nil {
		return false
	}
	if a.usesObj(l.cond, errObj) {
		return true
	}
	assigned := false
	for _, s := range succ {
		astx.InspectNoLit(s, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok {
				for _, lhs := range as.Lhs {
					if o := a.objOf(lhs); o != nil && a.usesObj(l.cond, o) {
						assigned = true
					}
				}
			}
			return !assigned
		})
	}
	return assigned
}

// indexesWith reports whether call indexes or slices with obj.
func (a *analyzer) indexesWith(call *ast.CallExpr, obj types.Object) bool {
	found := false
	ast.Inspect(call, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IndexExpr:
			found = found || a.usesObj(n.Index, obj)
		case *ast.SliceExpr:
			for _, e := range []ast.Expr{n.Low, n.High, n.Max} {
				if e != nil && a.usesObj(e, obj) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// loopBound works out what limits the attempts of a retry loop.
func (a *analyzer) loopBound(l *loop) Bound {
	if r, ok := l.stmt.(*ast.RangeStmt); ok {
		return a.countBound(r.X, 0, false)
	}
	f := l.stmt.(*ast.ForStmt)
	if f.Cond != nil && l.counter != nil {
		start := a.counterStart(l)
		for _, c := range conjuncts(f.Cond) {
			b, ok := c.(*ast.BinaryExpr)
			if !ok {
				continue
			}
			x, y, op := unparen(b.X), unparen(b.Y), b.Op
			if a.objOf(y) == l.counter { // n > i  ==  i < n
				x, y = y, x
				op = flip(op)
			}
			if a.objOf(x) != l.counter {
				continue
			}
			switch op {
			case token.LSS, token.NEQ:
				return a.countBound(y, start, false)
			case token.LEQ:
				return a.countBound(y, start, true)
			}
		}
	}
	if l.cond != nil && a.timeBounded(l.cond) {
		return Bound{Kind: BoundTime, Note: "a deadline"}
	}
	// A counter checked on an exit: if attempts >= 3 { return err },
	// if err == nil || retries == 0 { break }.
	if b, ok := a.counterBound(l); ok {
		return b
	}
	if a.bodyTimeBounded(l) {
		return Bound{Kind: BoundTime, Note: "the context or a deadline"}
	}
	// An exit on some other state (a retry policy's verdict, a stop flag):
	// the bound is not known, but it is not certain there is none.
	if a.otherExit(l) {
		return Bound{}
	}
	return Bound{Kind: Unbounded}
}

// exits calls f for every if statement of the loop body whose body leaves
// the loop, with the disjuncts of its condition (each alone triggers it).
func (a *analyzer) exits(l *loop, f func(ifs *ast.IfStmt, trigger ast.Expr) bool) {
	a.walkStmts(l.body.List, false, func(s ast.Stmt, _ []ast.Stmt, _ int, inSwitch bool) bool {
		ifs, ok := s.(*ast.IfStmt)
		if !ok || !a.terminates(l, ifs.Body.List, inSwitch) && !a.leaves(l, ifs.Body.List, inSwitch) {
			return true
		}
		for _, d := range disjuncts(ifs.Cond) {
			if !f(ifs, d) {
				return false
			}
		}
		return true
	})
}

func disjuncts(e ast.Expr) []ast.Expr {
	e = unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return append(disjuncts(b.X), disjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

// counterBound finds an exit on a counter: one the loop increments,
// compared with a limit (attempts >= 3), or one it decrements, compared
// with zero (retries == 0).
func (a *analyzer) counterBound(l *loop) (Bound, bool) {
	var bound Bound
	found := false
	a.exits(l, func(_ *ast.IfStmt, trigger ast.Expr) bool {
		for _, c := range conjuncts(trigger) {
			b, ok := c.(*ast.BinaryExpr)
			if !ok {
				continue
			}
			x, y, op := unparen(b.X), unparen(b.Y), b.Op
			if o := a.objOf(y); o != nil && (o == l.counter || a.countedIn(l.body, o, token.INC) || a.countedIn(l.body, o, token.DEC)) {
				x, y = y, x
				op = flip(op)
			}
			obj := a.objOf(x)
			if obj == nil {
				continue
			}
			switch {
			case obj == l.counter || a.countedIn(l.body, obj, token.INC):
				// The for statement's counter is checked before its
				// increment: i == n after n+1 attempts when i starts at 0.
				extra := int64(0)
				if obj == l.counter {
					extra = 1 - a.counterStart(l)
				}
				switch op {
				case token.GEQ, token.EQL:
				case token.GTR:
					extra++
				default:
					continue
				}
				if n, ok := a.intConst(y); ok {
					if n+extra < 1 {
						continue
					}
					bound = Bound{Kind: BoundCount, N: int(n + extra)}
				} else {
					text := a.render(y)
					if extra > 0 {
						text = fmt.Sprintf("%s+%d", text, extra)
					}
					bound = Bound{Kind: BoundCount, Expr: text}
				}
				found = true
			case a.countedIn(l.body, obj, token.DEC):
				n, ok := a.intConst(y)
				if !ok || !(op == token.EQL && n == 0 || op == token.LEQ && n == 0 || op == token.LSS && n == 1) {
					continue
				}
				bound = Bound{Kind: BoundCount, Expr: obj.Name() + "+1"}
				found = true
			}
			if found {
				return false
			}
		}
		return true
	})
	return bound, found
}

// otherExit reports whether the loop body has an exit whose condition we
// cannot read as a bound: not a test of the attempt's error (which only
// sorts errors, and does not bound retries of the transient ones).
func (a *analyzer) otherExit(l *loop) bool {
	errVars := map[types.Object]bool{}
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		if v, ok := n.(*ast.Ident); ok {
			if o, ok := a.pass.TypesInfo.Uses[v].(*types.Var); ok && isErrorType(o.Type()) {
				errVars[o] = true
			}
		}
		return true
	})
	if l.cond != nil {
		mentionsErr := false
		for o := range errVars {
			mentionsErr = mentionsErr || a.usesObj(l.cond, o)
		}
		if !mentionsErr {
			return true
		}
	}
	other := false
	a.exits(l, func(ifs *ast.IfStmt, trigger ast.Expr) bool {
		if a.firstGuard(trigger, false) != nil {
			return true // a budget's refusal: a guard, not a bound
		}
		mentionsErr := false
		for o := range errVars {
			if a.usesObj(trigger, o) || ifs.Init != nil && a.usesObj(ifs.Init, o) {
				mentionsErr = true
			}
		}
		if !mentionsErr {
			other = true
		}
		return !other
	})
	return other
}

// counterStart returns the constant the for statement's counter starts
// at, or 0.
func (a *analyzer) counterStart(l *loop) int64 {
	f, ok := l.stmt.(*ast.ForStmt)
	if !ok {
		return 0
	}
	if as, ok := f.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && a.objOf(as.Lhs[0]) == l.counter {
		if v, ok := a.intConst(as.Rhs[0]); ok {
			return v
		}
	}
	return 0
}

func flip(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GTR
	case token.GTR:
		return token.LSS
	case token.LEQ:
		return token.GEQ
	case token.GEQ:
		return token.LEQ
	}
	return op
}

func conjuncts(e ast.Expr) []ast.Expr {
	e = unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	return []ast.Expr{e}
}

// countBound turns a count expression into a bound; inclusive adds one.
func (a *analyzer) countBound(e ast.Expr, start int64, inclusive bool) Bound {
	if n, ok := a.intConst(e); ok {
		n -= start
		if inclusive {
			n++
		}
		if n < 1 {
			return Bound{Kind: BoundUnknown}
		}
		return Bound{Kind: BoundCount, N: int(n)}
	}
	text := a.render(e)
	switch {
	case start < 0:
		text += "+1"
	case start > 0:
		text = fmt.Sprintf("%s-%d", text, start)
	}
	if inclusive {
		text += "+1"
	}
	return Bound{Kind: BoundCount, Expr: text}
}

// countedIn reports whether body increments (tok INC: obj++, obj += k) or
// decrements (tok DEC: obj--, obj -= k) obj.
func (a *analyzer) countedIn(body ast.Node, obj types.Object, tok token.Token) bool {
	assign := token.ADD_ASSIGN
	if tok == token.DEC {
		assign = token.SUB_ASSIGN
	}
	found := false
	astx.InspectNoLit(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			found = found || n.Tok == tok && a.objOf(n.X) == obj
		case *ast.AssignStmt:
			if n.Tok == assign && len(n.Lhs) == 1 && a.objOf(n.Lhs[0]) == obj {
				found = true
			}
		}
		return !found
	})
	return found
}

// timeBounded reports whether e consults a clock or a context.
func (a *analyzer) timeBounded(e ast.Node) bool {
	found := false
	astx.InspectNoLit(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := a.callee(call); fn != nil {
				switch {
				case typesx.PkgPath(fn) == "time" && (fn.Name() == "Now" || fn.Name() == "Since" || fn.Name() == "Until"):
					found = true
				case fn.Name() == "Err" && isContext(fn):
					found = true
				}
			}
		}
		return !found
	})
	return found
}

func isContext(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	n, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	return ok && n.Obj().Name() == "Context" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context"
}

// bodyTimeBounded reports whether the loop body leaves the loop when a
// context ends or a deadline passes.
func (a *analyzer) bodyTimeBounded(l *loop) bool {
	found := false
	a.walkStmts(l.body.List, false, func(s ast.Stmt, _ []ast.Stmt, _ int, inSwitch bool) bool {
		switch s := s.(type) {
		case *ast.IfStmt:
			exits := a.terminates(l, s.Body.List, inSwitch) || a.leaves(l, s.Body.List, inSwitch)
			if exits && (a.timeBounded(s.Cond) || a.contextSleep(s.Init) || a.contextSleep(s.Cond)) {
				found = true
			}
		case *ast.SelectStmt:
			for _, c := range s.Body.List {
				cc := c.(*ast.CommClause)
				if cc.Comm != nil && a.isDoneRecv(cc.Comm) && (a.terminates(l, cc.Body, true) || a.leaves(l, cc.Body, true)) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// isDoneRecv reports whether a select case receives from x.Done() or from
// a timer channel (time.After, a deadline timer).
func (a *analyzer) isDoneRecv(comm ast.Stmt) bool {
	var x ast.Expr
	switch c := comm.(type) {
	case *ast.ExprStmt:
		x = c.X
	case *ast.AssignStmt:
		if len(c.Rhs) == 1 {
			x = c.Rhs[0]
		}
	}
	u, ok := unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return false
	}
	if call, ok := unparen(u.X).(*ast.CallExpr); ok {
		if fn := a.callee(call); fn != nil && fn.Name() == "Done" {
			return true
		}
	}
	return false
}

// loopBackoff classifies the wait between the attempts of a loop.
func (a *analyzer) loopBackoff(l *loop) Backoff {
	var b Backoff
	growing := false
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			fn := a.callee(n)
			if fn == nil {
				return true
			}
			path, name := typesx.PkgPath(fn), fn.Name()
			switch {
			case path == "time" && (name == "Sleep" || name == "After" || name == "NewTimer" || name == "Tick" || name == "Reset" || name == "AfterFunc"):
				if b.Delay == NoDelay {
					b.Delay = FixedDelay
				}
			case strings.Contains(path, "backoff") || name == "NextBackOff" || name == "Pause":
				b.Delay, growing = GrowingDelay, true
			case path == "math" && name == "Pow":
				growing = true
			case path == "math/rand" || path == "math/rand/v2":
				b.Jitter = true
			}
			if strings.Contains(strings.ToLower(name), "jitter") {
				b.Jitter = true
			}
		case *ast.AssignStmt:
			if n.Tok == token.MUL_ASSIGN || n.Tok == token.SHL_ASSIGN {
				growing = true
			}
		case *ast.BinaryExpr:
			if n.Op == token.SHL {
				growing = true
			}
		case *ast.SelectStmt:
			if b.Delay == NoDelay {
				b.Delay = SomeDelay
			}
		}
		return true
	})
	if growing && b.Delay != NoDelay {
		b.Delay = GrowingDelay
	}
	return b
}

// changesInput reports whether the attempt uses a variable declared before
// the loop that the loop body assigns: each iteration then does different
// work (a halved buffer size, the next page), which is not a retry.
func (a *analyzer) changesInput(l *loop, call *ast.CallExpr) bool {
	assigned := map[types.Object]bool{}
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if containsNode(n, call) {
				return true // the attempt's own results
			}
			for _, lhs := range n.Lhs {
				if o := a.objOf(lhs); o != nil {
					assigned[o] = true
				}
			}
		case *ast.IncDecStmt:
			if o := a.objOf(n.X); o != nil {
				assigned[o] = true
			}
		}
		return true
	})
	if len(assigned) == 0 {
		return false
	}
	found := false
	for _, e := range a.attemptInputs(call) {
		ast.Inspect(e, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return !found
			}
			v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
			if ok && assigned[v] && !v.IsField() && (v.Pos() < l.body.Pos() || v.Pos() > l.body.End()) {
				found = true
			}
			return !found
		})
	}
	return found
}

// attemptInputs returns the expressions an attempt depends on: its
// arguments and its receiver.
func (a *analyzer) attemptInputs(call *ast.CallExpr) []ast.Expr {
	in := append([]ast.Expr{}, call.Args...)
	if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok {
		if _, isMethod := a.pass.TypesInfo.Selections[sel]; isMethod {
			in = append(in, sel.X)
		}
	}
	return in
}

func containsNode(outer, inner ast.Node) bool {
	return outer.Pos() <= inner.Pos() && inner.End() <= outer.End()
}

// consumesExitingCall reports whether the attempt uses a result of an
// earlier call of the same iteration whose failure leaves the loop: the
// dependency is that call, and its failures are not retried (a response
// parsed until a pending state ends, a log fetched by an index that must
// exist).
func (a *analyzer) consumesExitingCall(l *loop, call *ast.CallExpr) bool {
	outputs := map[types.Object]bool{}
	a.walkStmts(l.body.List, false, func(s ast.Stmt, list []ast.Stmt, i int, inSwitch bool) bool {
		as, ok := s.(*ast.AssignStmt)
		if !ok || len(as.Rhs) != 1 || as.Pos() >= call.Pos() || containsNode(as, call) {
			return true
		}
		c, ok := unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || !a.resultsError(c) || a.isPureCall(c) {
			return true
		}
		var errVar types.Object
		var outs []types.Object
		for _, lhs := range as.Lhs {
			o := a.objOf(lhs)
			if o == nil {
				continue
			}
			if isErrorType(o.Type()) {
				errVar = o
			} else {
				outs = append(outs, o)
			}
		}
		if errVar == nil || len(outs) == 0 || i+1 >= len(list) {
			return true
		}
		// The next statement must leave the loop on that error.
		next, ok := list[i+1].(*ast.IfStmt)
		if !ok {
			return true
		}
		if o, succ := a.errCond(next.Cond); o == errVar && !succ && a.terminates(l, next.Body.List, inSwitch) {
			for _, o := range outs {
				outputs[o] = true
			}
		}
		return true
	})
	if len(outputs) == 0 {
		return false
	}
	for _, e := range a.attemptInputs(call) {
		for o := range outputs {
			if a.usesObj(e, o) {
				return true
			}
		}
	}
	return false
}

// inTickerCase reports whether the if statement sits in a select case that
// receives from a ticker or timer channel: the loop runs on a clock (a
// periodic refresh or health check), not on failures.
func (a *analyzer) inTickerCase(l *loop, ifs *ast.IfStmt) bool {
	found := false
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		cc, ok := n.(*ast.CommClause)
		if !ok || found {
			return !found
		}
		if !containsNode(cc, ifs) || cc.Comm == nil {
			return true
		}
		var x ast.Expr
		switch c := cc.Comm.(type) {
		case *ast.ExprStmt:
			x = c.X
		case *ast.AssignStmt:
			if len(c.Rhs) == 1 {
				x = c.Rhs[0]
			}
		}
		if u, ok := unparen(x).(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			switch ch := unparen(u.X).(type) {
			case *ast.SelectorExpr:
				if ch.Sel.Name == "C" {
					if t := a.pass.TypesInfo.TypeOf(ch.X); t != nil && strings.Contains(t.String(), "time.Ticker") {
						found = true
					}
				}
			case *ast.CallExpr:
				if fn := a.callee(ch); fn != nil && typesx.PkgPath(fn) == "time" && fn.Name() == "Tick" {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// contextSleep reports whether n calls a wait that takes a context and a
// duration (gax.Sleep(ctx, d), a sleeper func value): it fails when the
// context ends, so leaving on its error bounds the loop by the context.
func (a *analyzer) contextSleep(n ast.Node) bool {
	if n == nil {
		return false
	}
	found := false
	astx.InspectNoLit(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		hasCtx, hasDur := false, false
		for _, arg := range call.Args {
			t := a.pass.TypesInfo.TypeOf(arg)
			if t == nil {
				continue
			}
			switch t.String() {
			case "context.Context":
				hasCtx = true
			case "time.Duration":
				hasDur = true
			}
		}
		found = hasCtx && hasDur
		return !found
	})
	return found
}
