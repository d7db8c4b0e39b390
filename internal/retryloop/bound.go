package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// loopBound works out what limits the attempts of a retry loop: the exits
// a failing attempt passes on its way to the next one. An exit that only
// sorts the attempt's errors (if !retryable(err) { return err }) does not
// bound the retries of the transient ones, and a budget's refusal is a
// guard, not a bound.
func (a *Definer) loopBound(l *loop, f *flow, primed *ast.CallExpr) (Bound, []BoundExit) {
	if r, ok := l.stmt.(*ast.RangeStmt); ok && l.ticker == nil {
		if l.timer != nil {
			return a.CountBound(l.timerCount, 0, false), nil
		}
		if l.list != nil {
			x := r.X
			if _, isCall := unparen(x).(*ast.CallExpr); isCall && l.list != r.X {
				x = l.list // rand.Perm(len(addrs)) has len(addrs) elements
			}
			n := "len(" + a.render(x) + ")"
			return Bound{Kind: BoundCount, Base: n, Expr: n, Note: "one per element of " + a.render(r.X)}, nil
		}
		return a.CountBound(r.X, 0, false), nil
	}
	pre := int64(0)
	if primed != nil {
		pre = 1
	}
	if fs, ok := l.stmt.(*ast.ForStmt); ok && fs.Cond != nil && l.counter != nil {
		start := a.counterStart(l)
		for _, c := range conjuncts(fs.Cond) {
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
			if op != token.LSS && op != token.NEQ && op != token.LEQ {
				continue
			}
			if reset := a.restartIn(l, f, l.counter); reset != nil {
				// i = 0 on the way round: the count starts again, and
				// the condition bounds nothing.
				return Bound{Kind: Unbounded, Note: a.render(reset.Lhs[0]) + " = " + a.render(reset.Rhs[0]) + " starts its count again"}, nil
			}
			return a.offset(a.CountBound(y, start, op == token.LEQ), pre), nil
		}
	}
	var count, timed, cond, other, noted, policy *Bound
	exits := map[*Bound][]BoundExit{}
	for _, e := range f.exits {
		for _, t := range a.triggers(l, f, e) {
			b, kind := a.exitBound(l, f, e, t)
			be := BoundExit{Node: e.node, OnYes: e.onYes, Trigger: t}
			switch kind {
			case exitCount:
				if count == nil {
					count = &b
				}
				exits[count] = append(exits[count], be)
			case exitCondCount:
				if cond == nil {
					cond = &b
				}
				exits[cond] = append(exits[cond], be)
			case exitTime:
				// A context parameter bounds the loop only when no other
				// clock does.
				if timed == nil || timed.Param != "" && (b.Param == "" || b.Param != timed.Param) {
					if timed != nil {
						b.Param, b.ParamIndex = "", 0
					}
					timed = &b
				}
				exits[timed] = append(exits[timed], be)
			case exitOther:
				if other == nil {
					other = &b
				}
				if noted == nil && b.Note != "" {
					noted = &b
				}
				if policy == nil && b.Note != "" && a.readsCount(l, t) {
					policy = &b
					exits[policy] = append(exits[policy], be)
				}
				exits[other] = append(exits[other], be)
			}
		}
	}
	// What counts the attempts on every path wins: a count, or an exit a
	// call decides from the loop's count (a policy's "is this the last
	// attempt", r.isLast(n)). A context or a deadline bounds the loop
	// only when nothing counts: it stops the waiting, and the count is
	// what a reader can act on. A count under a condition (when
	// max > 0) leaves the other paths to the clock, and a call that is
	// given no count (a classifier of the error, r.retryIf(err)) sorts the
	// failures: the clock stays the bound.
	switch {
	case count != nil:
		return a.offset(*count, pre), exits[count]
	case policy != nil:
		return *policy, exits[policy]
	case timed != nil:
		return *timed, exits[timed]
	case cond != nil:
		return a.offset(*cond, pre), exits[cond]
	case noted != nil:
		return *noted, exits[other]
	case other != nil:
		return *other, exits[other]
	case l.ticker != nil:
		return Bound{}, nil // the ticker's backoff bounds it (Loop.TickerBound)
	}
	return Bound{Kind: Unbounded}, nil
}

// readsCount reports whether an exit's trigger reads a counter of the
// loop (the for statement's, or a variable it increments or decrements).
func (a *Definer) readsCount(l *loop, t ast.Expr) bool {
	found := false
	astx.InspectNoLit(t, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !found {
			if o := a.pass.TypesInfo.Uses[id]; o != nil && (o == l.counter || a.countedIn(l, o, token.INC) || a.countedIn(l, o, token.DEC)) {
				found = true
			}
		}
		return !found
	})
	return found
}

// offset adds n attempts made before the loop to a bound.
func (a *Definer) offset(b Bound, n int64) Bound {
	if n == 0 || b.Kind != BoundCount {
		return b
	}
	return b.Add(int(n))
}

// attemptBeforeLoop returns the call that makes the attempt once before
// the loop, when the loop runs only after it failed: its error is tested
// by the loop condition (err := call(); for err != nil && i < 3 { ...;
// err = call() }), or the statement just before the loop leaves when it
// succeeded (err := call(); if err == nil { return nil }; for a := 1; a <
// n; a++ { ... }). It returns nil otherwise.
func (a *Definer) attemptBeforeLoop(l *loop, f *flow) *ast.CallExpr {
	if c := a.failedBeforeLoop(l, f); c != nil {
		return c
	}
	if l.cond == nil {
		return nil
	}
	lhs, _ := assignParts(f.node)
	for _, e := range lhs {
		o := a.objOf(e)
		if o == nil || !typesx.IsError(o.Type()) || !typesx.Refers(a.pass.TypesInfo, l.cond, o) {
			continue
		}
		body := astx.FuncBody(l.fn)
		if body == nil {
			return nil
		}
		fn := a.callee(f.call)
		var found *ast.CallExpr
		astx.InspectNoLit(body, func(n ast.Node) bool {
			if found != nil || n == l.stmt {
				return false
			}
			if n != nil && n.Pos() >= l.stmt.Pos() {
				return false
			}
			if c, ok := n.(*ast.CallExpr); ok && fn != nil && a.callee(c) == fn {
				found = c
			}
			return true
		})
		return found
	}
	return nil
}

// failedBeforeLoop returns the attempt made once just before the loop,
// when an if that returns when it succeeded lies between them: err :=
// call(); if err == nil { return nil }, or ok, err := try(); if !retry {
// return err }. It returns nil otherwise.
func (a *Definer) failedBeforeLoop(l *loop, f *flow) *ast.CallExpr {
	list, k := stmtListOf(astx.FuncBody(l.fn), l.stmt)
	if k < 1 {
		return nil
	}
	ifs, ok := list[k-1].(*ast.IfStmt)
	if !ok || ifs.Else != nil || len(ifs.Body.List) == 0 {
		return nil
	}
	if _, ok := ifs.Body.List[len(ifs.Body.List)-1].(*ast.ReturnStmt); !ok {
		return nil
	}
	pre := ifs.Init
	if pre == nil && k >= 2 {
		pre = list[k-2]
	}
	lhs, rhs := assignParts(pre)
	if len(rhs) != 1 {
		return nil
	}
	c, ok := unparen(rhs[0]).(*ast.CallExpr)
	if !ok || types.ExprString(c.Fun) != types.ExprString(f.call.Fun) || a.callee(c) != a.callee(f.call) {
		return nil // another operation
	}
	results := map[types.Object]bool{}
	for _, e := range lhs {
		if o := a.objOf(e); o != nil {
			results[o] = true
		}
	}
	// One disjunct that holds on success is enough: the if returns then.
	for _, d := range disjuncts(ifs.Cond) {
		if a.successTest(d, results) {
			return c
		}
	}
	return nil
}

// successTest reports whether e holds when the call that set results
// succeeded: its error is nil (err == nil), or its verdict says no retry
// is wanted (!retry, ok).
func (a *Definer) successTest(e ast.Expr, results map[types.Object]bool) bool {
	e = unparen(e)
	want := true
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		e, want = unparen(u.X), false
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if !want || x.Op != token.EQL {
			return false
		}
		v := x.X
		if a.isNil(v) {
			v = x.Y
		} else if !a.isNil(x.Y) {
			return false
		}
		o := a.objOf(v)
		return o != nil && results[o] && typesx.IsError(o.Type())
	case *ast.Ident:
		o := a.pass.TypesInfo.Uses[x]
		if o == nil || !results[o] || !isBool(o.Type()) {
			return false
		}
		switch namePolarity(o.Name(), 0) {
		case +1: // retry: false is success
			return !want
		case -1: // ok: true is success
			return want
		}
	}
	return false
}

// stmtListOf returns the statement list of body that holds s (or the
// labeled statement of s), and its index there; -1 when there is none.
func stmtListOf(body *ast.BlockStmt, s ast.Stmt) ([]ast.Stmt, int) {
	var list []ast.Stmt
	idx := -1
	if body == nil {
		return nil, -1
	}
	find := func(l []ast.Stmt) {
		for i, t := range l {
			if ls, ok := t.(*ast.LabeledStmt); ok && ls.Stmt == s || t == s {
				list, idx = l, i
			}
		}
	}
	astx.InspectNoLit(body, func(n ast.Node) bool {
		if idx >= 0 {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			find(n.List)
		case *ast.CaseClause:
			find(n.Body)
		case *ast.CommClause:
			find(n.Body)
		}
		return idx < 0
	})
	return list, idx
}

type exitKind uint8

const (
	exitNone exitKind = iota
	exitCount
	exitCondCount // a count that holds only under another condition
	exitTime
	exitOther
)

// triggers returns the parts of an exit's condition that each alone make
// the loop leave: the disjuncts of a condition that leaves when it holds,
// the conjuncts of one that leaves when it does not.
func (a *Definer) triggers(l *loop, f *flow, e exit) []ast.Expr {
	cond, ok := e.node.(ast.Expr)
	if !ok {
		return []ast.Expr{nil} // a select clause
	}
	if tag, ok := l.caseTag[cond]; ok {
		cond = &ast.BinaryExpr{X: tag, Op: token.EQL, Y: cond}
	}
	cond = a.expandPreds(l, cond, 0)
	var parts []ast.Expr
	if e.onYes {
		parts = disjuncts(cond)
	} else {
		parts = conjuncts(cond)
	}
	return parts
}

// expandPreds replaces the booleans of e that the loop assigns once from
// a condition by that condition: willRetry := !exhausted && ok, with
// exhausted := try >= max.
func (a *Definer) expandPreds(l *loop, e ast.Expr, depth int) ast.Expr {
	if depth > 4 {
		return e
	}
	switch x := unparen(e).(type) {
	case *ast.Ident:
		if pred := l.preds[a.pass.TypesInfo.Uses[x]]; pred != nil {
			return &ast.ParenExpr{X: a.expandPreds(l, pred, depth+1)}
		}
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return &ast.UnaryExpr{Op: token.NOT, X: a.expandPreds(l, x.X, depth+1)}
		}
	case *ast.BinaryExpr:
		if x.Op == token.LAND || x.Op == token.LOR {
			return &ast.BinaryExpr{X: a.expandPreds(l, x.X, depth+1), Op: x.Op, Y: a.expandPreds(l, x.Y, depth+1)}
		}
	}
	return e
}

// onlyOutcome reports whether e mentions nothing but the attempt's own
// values (its error, response, verdict), errors and constants: a test
// that sorts outcomes, not one that counts or times them.
func (f *flow) onlyOutcome(e ast.Expr) bool {
	attempt := false
	other := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if n == f.call {
				attempt = true
				return false
			}
			// A classifier held in a variable is not state: permanent(err).
			if _, ok := ast.Unparen(n.Fun).(*ast.Ident); ok {
				for _, x := range n.Args {
					if f.onlyOutcome(x) {
						attempt = true
					} else if !f.constantOnly(x) {
						other = true
					}
				}
				return false
			}
		case *ast.Ident:
			switch o := f.a.pass.TypesInfo.Uses[n].(type) {
			case *types.Var:
				if i := f.slot(o); i >= 0 && i < len(f.objs) && f.attemptSlot(i) {
					attempt = true
				} else if typesx.IsError(o.Type()) || f.l.unwrapped[o] {
					// Another call's error, or an error unwrapped: a test
					// that sorts failures, not one that counts them.
					attempt = true
				} else if o.Pkg() != nil && o.Parent() != o.Pkg().Scope() && !o.IsField() {
					other = true
				}
			}
		}
		return true
	})
	return attempt && !other
}

// constantOnly reports whether e mentions no variable.
func (f *flow) constantOnly(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if id, isID := n.(*ast.Ident); isID {
			if v, isVar := f.a.pass.TypesInfo.Uses[id].(*types.Var); isVar && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// attemptSlot reports whether the attempt binds slot i on some path: it is
// one of the attempt's results or a value made from them.
func (f *flow) attemptSlot(i int) bool {
	for _, st := range f.arrivals {
		if b := st.vals[i]; b == bAttempt || b == bConsumer {
			return true
		}
	}
	lhs, _ := assignParts(f.node)
	for _, e := range lhs {
		if f.slot(f.a.objOf(e)) == i {
			return true
		}
	}
	o := f.objs[i]
	if pred := f.l.preds[o]; pred != nil {
		return f.onlyOutcome(pred)
	}
	return false
}

// exitBound reads one trigger of an exit as a bound.
func (a *Definer) exitBound(l *loop, f *flow, e exit, t ast.Expr) (Bound, exitKind) {
	if t == nil {
		// A select clause that leaves: a context's end or a deadline's
		// timer.
		// (The edge past a select's last clause is no way out: a
		// select blocks until a clause is taken.)
		if cc, ok := e.node.(*ast.CommClause); ok && e.onYes && cc.Comm != nil && a.isDoneRecv(cc.Comm) {
			return a.contextBound(cc.Comm), exitTime
		}
		return Bound{}, exitNone
	}
	if g := a.firstGuard(t); g != nil {
		if a.host.PerCall(l.fn, g) {
			// A counter made for the call that happens to look like a
			// budget: it bounds the attempts, in a way we do not read.
			return Bound{Note: a.render(g.Fun)}, exitOther
		}
		return Bound{}, exitNone // a budget's refusal: a guard, not a bound
	}
	if b, ok := a.counterExit(l, f, e, t); ok {
		return b, exitCount
	}
	if id, ok := unparen(t).(*ast.Ident); ok && e.onYes && f.setOnEveryRetry(a.pass.TypesInfo.Uses[id]) {
		// if retried { return err }; retried = true: one retry.
		return Bound{Kind: BoundCount, N: 2}, exitCount
	}
	if e.onYes {
		// if deadlineSec != 0 && retryCount > 3 { return }: a count for
		// some calls only.
		for _, c := range conjuncts(t) {
			if c == t {
				break
			}
			if b, ok := a.counterExit(l, f, e, c); ok {
				b.Note = "when " + a.render(t)
				return b, exitCondCount
			}
		}
	}
	if a.timeBounded(t) || a.contextSleep(t) || a.contextSleepInit(l, e) {
		return a.contextBound(t), exitTime
	}
	if f.onlyOutcome(t) {
		return Bound{}, exitNone // it sorts failures; the transient ones go round
	}
	if a.loopInvariant(l, t) {
		return Bound{}, exitNone // rt == nil: decided before the first attempt, no bound
	}
	return Bound{Note: a.decider(l, t)}, exitOther
}

// contextSleepInit reports whether the exit's condition tests the error
// of a context-aware wait, or the context's own error, made in the if
// statement's init or just before (if err := ctx.Err(); err != nil).
func (a *Definer) contextSleepInit(l *loop, e exit) bool {
	cond, ok := e.node.(ast.Expr)
	if !ok {
		return false
	}
	if ifs, ok := l.stmtOf[cond].(*ast.IfStmt); ok && ifs.Init != nil {
		if a.contextSleep(ifs.Init) || a.timeBounded(ifs.Init) && a.setsOneOf(ifs.Init, cond) {
			return true
		}
	}
	// err := sleep(ctx, d); if err != nil { return err }
	for _, n := range e.block.Nodes {
		if n != cond && (a.contextSleep(n) || a.timeBounded(n)) && a.setsOneOf(n, cond) {
			return true
		}
	}
	return false
}

// setsOneOf reports whether n is an assignment to a variable the
// condition reads.
func (a *Definer) setsOneOf(n ast.Node, cond ast.Expr) bool {
	as, ok := n.(*ast.AssignStmt)
	if !ok {
		return false
	}
	for _, o := range identsOf(a, cond) {
		for _, lhs := range as.Lhs {
			if a.objOf(lhs) == o {
				return true
			}
		}
	}
	return false
}

func identsOf(a *Definer, e ast.Expr) []types.Object {
	var out []types.Object
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if o := a.pass.TypesInfo.Uses[id]; o != nil {
				out = append(out, o)
			}
		}
		return true
	})
	return out
}

// decider names what decides an exit we cannot read as a bound, for
// messages: the call it asks ("r.Retry"), else "".
func (a *Definer) decider(l *loop, t ast.Expr) string {
	name := ""
	astx.InspectNoLit(t, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok && name == "" {
			if a.builtinOrConversion(c) {
				return true // len(x), string(b): they decide nothing
			}
			name = a.render(c.Fun)
			// A flag read atomically: the flag decides.
			if fn := a.callee(c); fn != nil && typesx.PkgPath(fn) == "sync/atomic" {
				if sel, ok := unparen(c.Fun).(*ast.SelectorExpr); ok && typesx.RecvName(fn) != "" {
					name = a.render(sel.X)
				} else if len(c.Args) > 0 {
					x := unparen(c.Args[0])
					if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
						x = u.X
					}
					name = a.render(x)
				}
			}
		}
		return name == ""
	})
	if name == "" {
		// d, ok := r.Retry(err); if !ok: the call that set the variable.
		astx.InspectNoLit(t, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && name == "" {
				if c := l.setBy[a.pass.TypesInfo.Uses[id]]; c != nil && !a.builtinOrConversion(c) {
					name = a.render(c.Fun)
				}
			}
			return name == ""
		})
	}
	return name
}

// counterExit reads a trigger that compares a counter with a limit: one
// the loop increments (attempts >= 3), or one it decrements, compared
// with zero (retries == 0; retries > 0 when the loop leaves on its
// negation). A test in the loop condition comes before the attempt, one
// in the body after it; the flow says whether the counter was incremented
// since the attempt when the test is made.
func (a *Definer) counterExit(l *loop, f *flow, e exit, t ast.Expr) (Bound, bool) {
	onYes, before := e.onYes, e.node == l.cond || allPassedHead(e)
	if u, ok := unparen(t).(*ast.UnaryExpr); ok && u.Op == token.NOT {
		t, onYes = u.X, !onYes
	}
	b, ok := unparen(t).(*ast.BinaryExpr)
	if !ok {
		return Bound{}, false
	}
	x, y, op := unparen(b.X), unparen(b.Y), b.Op
	if !onYes {
		op = negate(op)
		if op == token.ILLEGAL {
			return Bound{}, false
		}
	}
	counted := func(e ast.Expr) bool {
		o := a.objOf(e)
		return o != nil && (o == l.counter || a.countedIn(l, o, token.INC) || a.countedIn(l, o, token.DEC))
	}
	// What is left of a limit, worked out in the body (remain := n - i;
	// if remain <= 0): the counter compared with the limit (i >= n).
	if c, lim := a.remainder(l, f, x); c != nil && counted(c) {
		if k, isConst := a.intConst(y); isConst && k == 0 {
			x, y, op = c, lim, flip(op)
		}
	}
	// The counter may be compared with an offset (attempt+1 >= 3, 3 <=
	// attempt+1): counter+shift op y is counter op y-shift.
	xb, shift := a.Linear(x)
	if yb, k := a.Linear(y); yb != nil && counted(yb) && (xb == nil || !counted(xb)) {
		x, y, xb, shift = y, x, yb, k
		op = flip(op)
	}
	if xb == nil {
		return Bound{}, false
	}
	obj := a.objOf(xb)
	if obj == nil {
		return Bound{}, false
	}
	switch {
	case obj == l.counter || a.countedIn(l, obj, token.INC):
		// The loop leaves when obj op y. Tested before its increment
		// (the for statement's counter, or try++ after the test), the
		// counter is one behind the attempts made: i == n after n+1
		// attempts when i starts at 0. Tested after it (attempts++;
		// if attempts >= 3), it counts them.
		start := a.initialValue(l, obj)
		if obj == l.counter {
			start = a.counterStart(l)
		}
		// A test before the attempt of its iteration sees the attempts
		// made, wherever the increment is.
		extra := 1 - start
		if f.advanced(e, obj) || before {
			extra = -start
		}
		switch op {
		case token.GEQ, token.EQL:
		case token.GTR:
			extra++
		default:
			return Bound{}, false
		}
		cb := a.CountBound(y, shift-extra, false)
		if cb.Kind == BoundCount {
			if reset := a.restartIn(l, f, obj); reset != nil {
				// attempts = 1 on the way round: the count starts
				// again, and the limit bounds nothing.
				return Bound{Kind: Unbounded, Note: a.render(reset.Lhs[0]) + " = " + a.render(reset.Rhs[0]) + " starts its count again"}, true
			}
		}
		return cb, cb.Kind == BoundCount
	case a.countedIn(l, obj, token.DEC):
		n, ok := a.intConst(y)
		if !ok {
			return Bound{}, false
		}
		n -= shift
		// retries == 0 (or <= 0, < 1) tested after the attempt, retries--
		// after each failure: one attempt more than the count's initial
		// value; tested before the attempt, as many as it.
		var extra int64
		switch {
		case op == token.EQL && n == 0, op == token.LEQ && n == 0, op == token.LSS && n == 1:
			extra = 1
		case op == token.LSS && n == 0, op == token.LEQ && n == -1:
			extra = 2
		default:
			return Bound{}, false
		}
		if before {
			extra--
		}
		if v, ok := a.initialConst(l, obj); ok {
			if v+extra < 1 {
				return Bound{}, false
			}
			return Bound{Kind: BoundCount, N: int(v + extra)}, true
		}
		b := Bound{Kind: BoundCount, Base: obj.Name(), Expr: retryapi.AddOffset(obj.Name(), extra), Offset: int(extra)}
		if i, ok := a.paramIndex(obj); ok {
			b.Param, b.ParamIndex = obj.Name(), i
		}
		return b, true
	}
	return Bound{}, false
}

// resetIn returns the assignment in the loop's body that gives the
// counter obj a constant again (attempts = 1), if there is one.
func (a *Definer) resetIn(l *loop, f *flow, obj types.Object) *ast.AssignStmt {
	v, ok := obj.(*types.Var)
	if !ok {
		return nil
	}
	for _, d := range a.defsInLoop(l, v) {
		as, ok := d.node.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || d.compound || len(as.Lhs) != 1 {
			continue
		}
		if fs, ok := l.stmt.(*ast.ForStmt); ok && fs.Post == as {
			continue
		}
		if _, ok := a.intConst(d.rhs); ok && !f.leavesAfter(as) {
			return as
		}
	}
	return nil
}

// restartIn returns the assignment of the loop's body, on a way round,
// that sets a counter that counts up to a constant (attempt = 1, i = 0)
// no greater than the one it starts from, where that is known: its count
// starts again. One that sets it past its start (i = max) ends the count
// instead.
func (a *Definer) restartIn(l *loop, f *flow, obj types.Object) *ast.AssignStmt {
	reset := a.resetIn(l, f, obj)
	if reset == nil {
		return nil
	}
	v, _ := a.intConst(reset.Rhs[0])
	if start, ok := a.initialConst(l, obj); ok && v > start {
		return nil
	}
	return reset
}

// leavesAfter reports whether the statement list of the loop's body that
// holds st leaves the loop (leavesLoop: a return, a break of the loop): a
// reset there starts no count again.
func (f *flow) leavesAfter(st ast.Stmt) bool {
	leaves := false
	var walk func(n ast.Node, nested bool)
	walk = func(n ast.Node, nested bool) {
		astx.InspectNoLit(n, func(x ast.Node) bool {
			var list []ast.Stmt
			switch x := x.(type) {
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
				if x != n {
					walk(x, true) // break means something else in these
					return false
				}
			case *ast.BlockStmt:
				list = x.List
			case *ast.CaseClause:
				list = x.Body
			case *ast.CommClause:
				list = x.Body
			}
			if slices.Contains(list, st) && f.leavesLoop(&ast.BlockStmt{List: list}, nested) {
				leaves = true
			}
			return !leaves
		})
	}
	walk(f.l.body, false)
	return leaves
}

// remainder reads x as a local the loop's body assigns once, to a limit
// the loop does not change less a counter (remain := c.RetryMax - i), and
// returns the counter and the limit; nils otherwise.
func (a *Definer) remainder(l *loop, f *flow, x ast.Expr) (counter, limit ast.Expr) {
	v, ok := a.objOf(x).(*types.Var)
	if !ok {
		return nil, nil
	}
	defs := a.defsInLoop(l, v)
	if len(defs) != 1 || defs[0].compound {
		return nil, nil
	}
	b, ok := unparen(defs[0].rhs).(*ast.BinaryExpr)
	if !ok || b.Op != token.SUB || !f.invariant(b.X) {
		return nil, nil
	}
	if _, ok := unparen(b.Y).(*ast.Ident); !ok {
		return nil, nil
	}
	return unparen(b.Y), b.X
}

// initialValue returns the constant a counter starts at before the loop,
// or 0.
func (a *Definer) initialValue(l *loop, obj types.Object) int64 {
	if v, ok := a.initialConst(l, obj); ok {
		return v
	}
	return 0
}

// initialConst returns the constant a variable holds when the loop
// starts: its declaration's value (attempts := 0, n := 5) or the for
// statement's init.
func (a *Definer) initialConst(l *loop, obj types.Object) (int64, bool) {
	if f, ok := l.stmt.(*ast.ForStmt); ok {
		if as, ok := f.Init.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
			for i, lhs := range as.Lhs {
				if a.objOf(lhs) == obj {
					return a.foldInt(as.Rhs[i])
				}
			}
		}
	}
	v, ok := obj.(*types.Var)
	if !ok {
		return 0, false
	}
	def := a.host.Definition(v)
	if def == nil {
		return 0, false
	}
	return a.foldInt(def)
}

// counterStart returns the constant the for statement's counter starts
// at, or 0.
func (a *Definer) counterStart(l *loop) int64 {
	f, ok := l.stmt.(*ast.ForStmt)
	if !ok {
		return 0
	}
	if as, ok := f.Init.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && a.objOf(as.Lhs[0]) == l.counter {
		if v, ok := a.foldInt(as.Rhs[0]); ok {
			return v
		}
	}
	return 0
}

// retryTest returns Loop.RetryTest: the counter of a for statement that
// starts at a constant or at a local the loop never assigns (isStartVar)
// and that only the post statement moves, or the key of a range over an
// integer that the body never assigns, compared with its first value.
func (a *Definer) retryTest(l *loop) string {
	switch s := l.stmt.(type) {
	case *ast.RangeStmt:
		id, ok := s.Key.(*ast.Ident)
		if !ok || id.Name == "_" || s.Value != nil || !isInteger(typeOf(a, s.X)) {
			return ""
		}
		if v, ok := a.objOf(id).(*types.Var); !ok || a.movedInBody(l, v) {
			return ""
		}
		return id.Name + " > 0"
	case *ast.ForStmt:
		init, ok := s.Init.(*ast.AssignStmt)
		if !ok || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
			return ""
		}
		id, ok := init.Lhs[0].(*ast.Ident)
		v, isVar := a.objOf(id).(*types.Var)
		post, isInc := s.Post.(*ast.IncDecStmt)
		if !ok || !isVar || !isInc || a.objOf(post.X) != v || a.movedInBody(l, v) {
			return ""
		}
		var start string
		if tv, ok := a.pass.TypesInfo.Types[init.Rhs[0]]; ok && tv.Value != nil {
			start = tv.Value.ExactString()
		} else if sv, ok := unparen(init.Rhs[0]).(*ast.Ident); ok && sv.Name != id.Name && l.counter == v && a.isStartVar(l, sv) {
			start = sv.Name
		} else {
			return ""
		}
		op := " > "
		if post.Tok == token.DEC {
			op = " < "
		}
		return id.Name + op + start
	}
	return ""
}

// movedInBody reports whether the loop's body assigns v, increments it
// or takes its address (the post statement aside).
func (a *Definer) movedInBody(l *loop, v *types.Var) bool {
	moved := false
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.AND && a.objOf(u.X) == v {
			moved = true
		}
		return !moved
	})
	if moved {
		return true
	}
	fs, _ := l.stmt.(*ast.ForStmt)
	for _, d := range a.defsInLoop(l, v) {
		if fs == nil || d.node != fs.Post {
			return true
		}
	}
	return false
}

// isStartVar reports whether e is the local variable a counter starts
// from (for i := start; ...), which the loop never assigns: it holds the
// counter's first value on every iteration.
func (a *Definer) isStartVar(l *loop, e ast.Expr) bool {
	fs, ok := l.stmt.(*ast.ForStmt)
	if !ok {
		return false
	}
	as, ok := fs.Init.(*ast.AssignStmt)
	if !ok || len(as.Lhs) != 1 || len(as.Rhs) != 1 || a.objOf(as.Lhs[0]) != l.counter {
		return false
	}
	v, ok := a.objOf(unparen(e)).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == nil || v.Parent() == v.Pkg().Scope() || a.objOf(unparen(as.Rhs[0])) != v {
		return false
	}
	return !a.movedInBody(l, v)
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

// negate returns the comparison that holds when op does not.
func negate(op token.Token) token.Token {
	switch op {
	case token.LSS:
		return token.GEQ
	case token.GEQ:
		return token.LSS
	case token.GTR:
		return token.LEQ
	case token.LEQ:
		return token.GTR
	case token.EQL:
		return token.NEQ
	case token.NEQ:
		return token.EQL
	}
	return token.ILLEGAL
}

func conjuncts(e ast.Expr) []ast.Expr {
	e = unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LAND {
		return append(conjuncts(b.X), conjuncts(b.Y)...)
	}
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		// !(a || b) holds when neither does.
		if b, ok := unparen(u.X).(*ast.BinaryExpr); ok && b.Op == token.LOR {
			var out []ast.Expr
			for _, d := range disjuncts(b) {
				out = append(out, &ast.UnaryExpr{Op: token.NOT, X: d})
			}
			return out
		}
	}
	return []ast.Expr{e}
}

func disjuncts(e ast.Expr) []ast.Expr {
	e = unparen(e)
	if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.LOR {
		return append(disjuncts(b.X), disjuncts(b.Y)...)
	}
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.NOT {
		// !(a && b) leaves when either fails.
		var out []ast.Expr
		for _, c := range conjuncts(u.X) {
			out = append(out, &ast.UnaryExpr{Op: token.NOT, X: c})
		}
		return out
	}
	return []ast.Expr{e}
}

// countBound turns a count expression into a bound: start is subtracted
// and inclusive adds one. Constants fold (podRetries-1 with a constant
// podRetries of 30, counted inclusively, is 30), and so does a local
// assigned once from a constant; otherwise the bound is the expression
// with its constant offset folded ("maxRetries+1", "podRetries").
func (a *Definer) CountBound(e ast.Expr, start int64, inclusive bool) Bound {
	base, k := a.Linear(e)
	n := k - start
	if inclusive {
		n++
	}
	if base == nil {
		if n < 1 {
			return Bound{Kind: BoundUnknown}
		}
		return Bound{Kind: BoundCount, N: int(n)}
	}
	b := Bound{Kind: BoundCount, Base: a.render(base), Offset: int(n)}
	b.Expr = retryapi.AddOffset(b.Base, n)
	if v := a.objOf(base); v != nil {
		if i, ok := a.paramIndex(v); ok {
			b.Param, b.ParamIndex = v.Name(), i
		}
	}
	return b
}

// linear splits e into a base expression and a constant offset: x+1, x-1,
// 2+x, a constant (base nil), or a local assigned once from a constant.
func (a *Definer) Linear(e ast.Expr) (ast.Expr, int64) {
	e = unparen(e)
	if v, ok := a.foldInt(e); ok {
		return nil, v
	}
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		if c, ok := a.foldInt(b.Y); ok {
			base, k := a.Linear(b.X)
			if b.Op == token.SUB {
				c = -c
			}
			return base, k + c
		}
		if c, ok := a.foldInt(b.X); ok && b.Op == token.ADD {
			base, k := a.Linear(b.Y)
			return base, k + c
		}
	}
	return e, 0
}

// foldInt returns the value of a constant integer expression, or of a
// local variable assigned once, from a constant, in its declaration and
// never again (maxRetries := 5).
func (a *Definer) foldInt(e ast.Expr) (int64, bool) {
	if v, ok := a.intConst(e); ok {
		return v, true
	}
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		return 0, false
	}
	v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.IsField() {
		return 0, false
	}
	def := a.host.Definition(v)
	if def == nil {
		return 0, false
	}
	c, ok := a.intConst(def)
	if !ok || a.host.Reassigned(v) {
		return 0, false
	}
	return c, true
}

// paramIndex returns the index of o among the parameters of the package
// function or method that declares it.
func (a *Definer) paramIndex(o types.Object) (int, bool) {
	if a.params == nil {
		a.params = map[types.Object]int{}
		for _, f := range a.pass.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok {
					continue
				}
				fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
				if !ok {
					continue
				}
				params := fn.Type().(*types.Signature).Params()
				for i := range params.Len() {
					a.params[params.At(i)] = i
				}
			}
		}
	}
	i, ok := a.params[o]
	return i, ok
}

// countedIn reports whether the loop increments (tok INC: obj++, obj += k)
// or decrements (tok DEC: obj--, obj -= k) obj, in its body or post
// statement. A duration counts time, not attempts (ttl -= wait: the
// time left), so it is never counted.
func (a *Definer) countedIn(l *loop, obj types.Object, tok token.Token) bool {
	if durkind.IsDuration(obj.Type()) {
		return false
	}
	assign := token.ADD_ASSIGN
	if tok == token.DEC {
		assign = token.SUB_ASSIGN
	}
	found := false
	check := func(n ast.Node) {
		astx.InspectNoLit(n, func(n ast.Node) bool {
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
	}
	check(l.body)
	if f, ok := l.stmt.(*ast.ForStmt); ok && f.Post != nil {
		check(f.Post)
	}
	return found
}

// timeBounded reports whether e consults a clock or a context.
func (a *Definer) timeBounded(e ast.Node) bool {
	found := false
	astx.InspectNoLit(e, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if fn := a.callee(call); fn != nil {
				switch {
				case typesx.PkgPath(fn) == "time" && (fn.Name() == "Now" || fn.Name() == "Since" || fn.Name() == "Until" || fn.Name() == "After" || fn.Name() == "Before"):
					found = true
				case (fn.Name() == "Done" || fn.Name() == "Deadline") && isContext(fn), ContextErr(fn):
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// contextBound is the time bound of an exit n that ends the loop: when
// the one thing n reads the time from is a context that is a parameter
// of a function declared in the package, the bound names the parameter
// (Param, ParamIndex), so that a helper's call can say what its context
// is (Analyzer.callBound: context.Background() is never done).
func (a *Definer) contextBound(n ast.Node) Bound {
	b := Bound{Kind: BoundTime, Note: "the context or a deadline"}
	var ctx *types.Var
	clock := false
	astx.InspectNoLit(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if fn := a.callee(n); fn != nil && typesx.PkgPath(fn) == "time" {
				clock = true // a deadline of its own, or a timer
			}
		case *ast.Ident:
			v, ok := a.pass.TypesInfo.Uses[n].(*types.Var)
			if !ok || !typesx.IsNamed(v.Type(), "context", "Context") {
				break
			}
			if ctx != nil && ctx != v {
				clock = true // two contexts
			}
			ctx = v
		}
		return !clock
	})
	if clock || ctx == nil {
		return b
	}
	if i, ok := a.paramIndex(ctx); ok {
		b.Param, b.ParamIndex = ctx.Name(), i
	}
	return b
}

// ContextErr reports whether fn says why a context ended: a context's Err
// method, or context.Cause. An exit that returns what it says is the
// context's end, nil while the context lives, not a failure of the loop's.
func ContextErr(fn *types.Func) bool {
	return fn != nil && (fn.Name() == "Err" && isContext(fn) || typesx.IsFunc(fn, "context", "Cause"))
}

func isContext(fn *types.Func) bool {
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return false
	}
	n, ok := types.Unalias(sig.Recv().Type()).(*types.Named)
	return ok && n.Obj().Name() == "Context" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context"
}

// isDoneRecv reports whether a select case receives from the channel a
// Done method returns (a context's, or any other type's Done), from
// time.After, or from the C of a time.Timer: a clause that leaves on it
// bounds the loop by time. A stop channel held in a variable is not one,
// nor a ticker's channel; and a timer is taken for a deadline whether it
// is set once or reset on every attempt.
func (a *Definer) isDoneRecv(comm ast.Stmt) bool {
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
	switch ch := unparen(u.X).(type) {
	case *ast.CallExpr:
		if fn := a.callee(ch); fn != nil && (fn.Name() == "Done" || typesx.PkgPath(fn) == "time" && fn.Name() == "After") {
			return true
		}
	case *ast.SelectorExpr:
		if ch.Sel.Name == "C" {
			if t := a.pass.TypesInfo.TypeOf(ch.X); t != nil && (typesx.IsNamed(t, "time", "Timer") || typesx.IsNamedPtr(t, "time", "Timer")) {
				return true
			}
		}
	}
	return false
}

// contextSleep reports whether n calls a wait that takes a context and a
// duration (gax.Sleep(ctx, d), a sleeper func value, a function of the
// package that waits for the duration): it fails when the context ends,
// so leaving on its error bounds the loop by the context.
func (a *Definer) contextSleep(n ast.Node) bool {
	if n == nil {
		return false
	}
	found := false
	astx.InspectNoLit(n, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		hasCtx, dur := false, -1
		for i, arg := range call.Args {
			t := a.pass.TypesInfo.TypeOf(arg)
			if t == nil {
				continue
			}
			switch t.String() {
			case "context.Context":
				hasCtx = true
			case "time.Duration":
				dur = i
			}
		}
		found = hasCtx && dur >= 0 && len(call.Args) == 2
		if fn := a.callee(call); found && fn != nil && fn.Pkg() == a.pass.Pkg && a.host.Decl(fn) != nil && !call.Ellipsis.IsValid() {
			// A function of the package says what it does with the
			// duration: a wait waits for it; a call with a timeout
			// (c.get(ctx, timeout)) is an attempt.
			found = a.waitsInside(fn, dur)
		}
		return !found
	})
	return found
}

// setOnEveryRetry reports whether every failing path that reaches the
// attempt again has set the flag o to true.
func (f *flow) setOnEveryRetry(o types.Object) bool {
	i := f.slot(o)
	if i < 0 || f.roles[i] != roleFlag || !f.a.setTrueIn(f.l, o) {
		return false
	}
	n := 0
	for _, st := range f.arrivals {
		if st.seen && st.out&oTransient != 0 {
			n++
			if st.vals[i] != bNonNil {
				return false
			}
		}
	}
	return n > 0
}

// setTrueIn reports whether the loop body assigns true to o.
func (a *Definer) setTrueIn(l *loop, o types.Object) bool {
	v, ok := o.(*types.Var)
	if !ok {
		return false
	}
	for _, d := range a.defsInLoop(l, v) {
		if d.rhs != nil && !d.compound && a.isBoolConst(d.rhs, true) {
			return true
		}
	}
	return false
}

// loopInvariant reports whether e calls nothing and reads no variable the
// loop assigns: its value is the same on every iteration.
func (a *Definer) loopInvariant(l *loop, e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			ok = false
		case *ast.Ident:
			if v, isVar := a.pass.TypesInfo.Uses[n].(*types.Var); isVar && len(a.defsInLoop(l, v)) > 0 {
				ok = false
			}
		case *ast.SelectorExpr:
			if v, isVar := a.pass.TypesInfo.Uses[n.Sel].(*types.Var); isVar && v.IsField() {
				ok = false // a field another goroutine may change
			}
		}
		return ok
	})
	return ok
}

// allPassedHead reports whether every path reaches the exit at the start
// of a new iteration, before its attempt.
func allPassedHead(e exit) bool {
	if len(e.sts) == 0 {
		return false
	}
	for _, st := range e.sts {
		if !st.passedHead {
			return false
		}
	}
	return true
}

// builtinOrConversion reports whether c calls a builtin or converts.
func (a *Definer) builtinOrConversion(c *ast.CallExpr) bool {
	if tv, ok := a.pass.TypesInfo.Types[c.Fun]; ok && tv.IsType() {
		return true
	}
	if id, ok := unparen(c.Fun).(*ast.Ident); ok {
		if _, ok := a.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
			return true
		}
	}
	return false
}

// BoundExit is an exit that makes a loop's bound: a branch a failing path
// passes on its way to the next attempt, which leaves the loop when the
// attempts run out.
type BoundExit struct {
	// Node is the condition, or the select statement's clause, whose
	// branch leaves the loop; OnYes says it is left when the condition
	// holds (else when it does not).
	Node  ast.Node
	OnYes bool
	// Trigger is the part of the condition that decides the bound
	// (attempt >= max in err != nil && attempt >= max); nil for a select
	// clause.
	Trigger ast.Expr
}

// firstGuard returns the first budget check called in n, outside nested
// function literals, or nil.
func (a *Definer) firstGuard(n ast.Node) *ast.CallExpr {
	var g *ast.CallExpr
	astx.InspectNoLit(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && g == nil && a.host.Guard(call) != NotGuard {
			g = call
		}
		return g == nil
	})
	return g
}

// lastExits returns the exits of the body whose branch out of the loop is
// taken on the last attempt the header allows, by a test lastTest reads
// (if attempt == max, in for attempt := 0; attempt <= max; attempt++; if
// i+1 < n on the branch where it fails).
func (f *flow) lastExits() []BoundExit {
	counter := f.l.counter
	if counter == nil {
		counter = f.l.countdown
	}
	i := f.slot(counter)
	if i < 0 {
		return nil
	}
	var out []BoundExit
	for _, e := range f.exits {
		for _, t := range f.a.triggers(f.l, f, e) {
			b, ok := unparen(t).(*ast.BinaryExpr)
			if !ok {
				continue
			}
			sts, ok := f.lastTest(unparen(b.X), b.Y, b.Op, state{}, e.onYes)
			if ok && len(sts) == 1 && sts[0].vals[i] == bLast {
				out = append(out, BoundExit{Node: e.node, OnYes: e.onYes, Trigger: t})
				break
			}
		}
	}
	return out
}
