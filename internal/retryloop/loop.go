package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// loop is the for statement under study.
type loop struct {
	stmt    ast.Stmt // *ast.ForStmt or *ast.RangeStmt
	body    *ast.BlockStmt
	label   *types.Label // the loop's label, if any
	counter types.Object // the counted variable (i in for i := 0; i < n; i++), if any
	// countdown is the variable a for statement's post statement counts
	// down (r in for r := n; r > 0; r--), if any.
	countdown types.Object
	cond      ast.Expr // the loop condition, if any
	fn        ast.Node // the enclosing function

	// A range over a slice or array: a candidate failover.
	over types.Object // the element variable (or the index, when there is no element)
	list ast.Expr     // the ranged expression
	// indexed: a list of endpoints the attempt's target is taken from by
	// the loop's counter (servers[i]), one endpoint per attempt: a
	// failover over it (sameValue).
	indexed ast.Expr
	keyed   bool // the list holds no endpoints but keys that pick one (keyedTarget)
	// A for statement whose post statement picks the next endpoint
	// (b = s.leastLoaded()) while the condition says one is left
	// (b != nil): a failover too, over the endpoints the call hands out;
	// over is the picked variable.
	picker *ast.CallExpr
	// cursor: the same shape over values that are no endpoints (for t :=
	// q.next(); t != nil; t = q.next()): each is other work.
	cursor types.Object

	ticker *ast.CallExpr // for range t.C over a cenkalti/backoff ticker: the NewTicker call

	// A range over a retry timer (retryTimer): the call that makes the
	// iterator, and the argument its loop counts to.
	timer      *ast.CallExpr
	timerCount ast.Expr

	g  *cfg.CFG
	in []bool // in[i]: block i belongs to the loop

	typeSwitch  map[ast.Stmt]*ast.TypeSwitchStmt // a case clause's type switch
	caseTag     map[ast.Expr]ast.Expr            // a case expression's switch tag
	preds       map[types.Object]ast.Expr        // booleans assigned once from a condition (ok := errors.As(...))
	statusAlias map[types.Object]ast.Expr        // integers assigned once from a status (code := resp.StatusCode)
	statusVars  map[types.Object]bool            // integers assigned a call's status result (code, err := c.get(ctx)); the flow says where they hold the attempt's
	assigned    []*types.Var                     // the local variables the body assigns, in source order
	errFields   map[*types.Var]types.Object      // error fields the body assigns (nc.err = ...), by the one variable they are reached through
	unwrapped   map[types.Object]bool            // targets of errors.As and type assertions in the body
	setBy       map[types.Object]*ast.CallExpr   // variables the body assigns from a call: the call
	stmtOf      map[ast.Node]ast.Stmt            // a CFG node's statement in a statement list of the body
	condNodes   map[types.Object]bool            // variables the loop's conditions (or values they test) use
	condCalls   []*ast.CallExpr                  // calls in those conditions
	guards      map[ast.Node][]*ast.CallExpr     // the budget checks of each CFG node, found on first use
	isGuard     map[*ast.CallExpr]bool           // whether a call is a budget check, found on first use
	rel         map[types.Object]bool            // the variables the conditions depend on, found on first use
	conds       []ast.Node                       // what the loop decides on, found on first use
	goCalls     map[*ast.CallExpr]goAttempt      // candidates made in a goroutine the body starts (goCandidates)
}

// goAttempt is what a flow needs to know of an attempt made in a goroutine
// the loop's body starts: the channels, held by the function, on which
// the goroutine reports the attempt's failure (every send of a non-nil
// error) and, if any, its answer.
type goAttempt struct {
	errCh types.Object
	valCh types.Object
}

// Loop decides whether the for or range statement at cur is a retry
// loop, and returns what the definition found in it; nil when it is none.
func (a *Definer) Loop(cur inspector.Cursor) *Loop {
	l := &loop{stmt: cur.Node().(ast.Stmt)}
	switch s := l.stmt.(type) {
	case *ast.ForStmt:
		l.body, l.cond = s.Body, s.Cond
		l.counter = a.forCounter(s)
		if post, ok := s.Post.(*ast.IncDecStmt); ok && post.Tok == token.DEC {
			l.countdown = a.objOf(post.X)
		}
		if v, call := a.picker(s); v != nil && a.isEndpoint(v) {
			l.over, l.picker = v, call
		} else if v != nil {
			l.cursor = v
		}
	case *ast.RangeStmt:
		xt := a.pass.TypesInfo.TypeOf(s.X)
		if xt == nil {
			return nil
		}
		switch t := xt.Underlying().(type) {
		case *types.Basic:
			// for range n over an integer repeats the same work.
			if t.Info()&types.IsInteger == 0 {
				return nil
			}
			if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
				l.counter = a.pass.TypesInfo.ObjectOf(id)
			}
		case *types.Slice, *types.Array, *types.Pointer:
			// Each element is different work, unless the elements are the
			// endpoints of one operation (failover).
			l.list = s.X
			if xs := a.permutedList(s.X); xs != nil {
				// for _, i := range rand.Perm(len(addrs)): the
				// endpoints of addrs, in random order.
				l.list = xs
			}
			if id, ok := s.Value.(*ast.Ident); ok && id.Name != "_" {
				l.over = a.pass.TypesInfo.ObjectOf(id)
			} else if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
				l.over = a.pass.TypesInfo.ObjectOf(id)
			}
			if l.over == nil {
				return nil
			}
			// A list of keys (protocol names, regions) is a failover
			// when each picks the endpoint the attempt is made on
			// (dialer := dialers[proto]; dialer.Dial(ctx)): keyedTarget
			// below keeps those candidates only.
			l.keyed = !a.isEndpoints(l.list, l.over)
		case *types.Chan:
			// for range ticker.C over a backoff's ticker: a retry loop
			// paced by the backoff.
			if l.ticker = a.backoffTicker(s.X); l.ticker == nil {
				return nil
			}
		case *types.Signature:
			// for range over a retry timer of the package: one attempt
			// per yield, the timer waiting between them.
			if l.timer, l.timerCount = a.retryTimer(s.X); l.timer == nil {
				return nil
			}
			if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
				l.counter = a.pass.TypesInfo.ObjectOf(id)
			}
		default:
			return nil
		}
		l.body = s.Body
	}
	if l.body == nil || len(l.body.List) == 0 {
		return nil
	}
	cands := a.candidates(l)
	if l.keyed {
		cands = slices.DeleteFunc(cands, func(c *ast.CallExpr) bool { return !a.keyedTarget(l, c) })
	}
	if len(cands) == 0 {
		return nil
	}
	if ls, ok := cur.Parent().Node().(*ast.LabeledStmt); ok {
		l.label, _ = a.pass.TypesInfo.Defs[ls.Label].(*types.Label)
	}
	l.fn = astx.EnclosingFunc(cur)
	if l.g = a.cfgOf(l.fn); l.g == nil {
		return nil
	}
	a.indexLoop(l)

	var f *flow
	tried := 0
	for _, call := range cands {
		if tried == maxCandidates {
			break
		}
		if !a.outcomeTested(l, call) {
			continue
		}
		tried++
		c := a.newFlow(l, call)
		if c == nil {
			continue
		}
		if !a.hasStatus(call) && !a.returnsStream(call) {
			// Without a status to test, only an error can go round: a
			// cheap first look that follows errors alone, since most
			// candidates leave on every error (decoding, reading loops).
			c.run(oErr)
			if c.arriveSeen&oErr == 0 {
				continue
			}
			c = a.newFlow(l, call)
		}
		c.run(oAll)
		if c.isRetry() {
			f = c
			break
		}
	}
	if f == nil {
		return nil
	}
	if !a.sameOperation(l, f) || a.oneTimeRepair(l, f) {
		return nil
	}
	lp := a.loopFacts(l, f)
	lp.Primed = a.attemptBeforeLoop(l, f)
	lp.Bound, lp.BoundExits = a.loopBound(l, f, lp.Primed)
	if l.picker != nil && lp.Bound.Kind != BoundCount {
		// No count: one attempt per endpoint the picker hands out,
		// however long that takes.
		lp.Bound = Bound{Kind: BoundUnknown, Note: "one per endpoint " + a.render(l.picker) + " hands out"}
	}
	lp.TickerBound = l.ticker != nil && lp.Bound == (Bound{}) && len(lp.BoundExits) == 0
	lp.HeaderBound = a.headerBound(l, lp)
	if lp.HeaderBound && len(lp.BoundExits) == 0 {
		lp.LastExits = f.lastExits()
	}
	a.markSorting(l, f, lp)
	lp.Exempt = a.conflictOnly(l, f)
	lp.Waits = a.loopWaits(l, lp.Path)
	if l.timer != nil {
		// The timer waits between the attempts, for a duration this
		// loop does not see.
		lp.Waits = append(lp.Waits, Wait{Wait: durkind.Wait{Call: l.timer, At: l.timer}, Kind: durkind.Unknown, Shape: durkind.Unknown})
	}
	return lp
}

// retryTimer returns, for the iterator x of a range-over-func loop, the
// call that makes it and the argument that counts its turns, when it is a
// retry timer: a call of a function of the package that returns an
// iterator literal whose body is a counted loop over one of the
// function's parameters (for i := range n, or for i := 0; i < n; i++)
// that yields once per turn and then waits (time.Sleep, time.After, a
// timer), as in for range c.newRetryTimer(ctx, maxRetry, unit, cap).
// Each yield is an attempt of the range loop's body. It returns nil for
// other iterators (each of their values is different work).
func (a *Definer) retryTimer(x ast.Expr) (*ast.CallExpr, ast.Expr) {
	call, ok := unparen(x).(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return nil, nil
	}
	fn := a.callee(call)
	if fn == nil || fn.Pkg() != a.pass.Pkg {
		return nil, nil
	}
	fd := a.host.Decl(fn)
	if fd == nil || fd.Body == nil || len(fd.Body.List) == 0 {
		return nil, nil
	}
	ret, ok := fd.Body.List[len(fd.Body.List)-1].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 {
		return nil, nil
	}
	lit, ok := unparen(ret.Results[0]).(*ast.FuncLit)
	if !ok || lit.Type.Params.NumFields() != 1 || len(lit.Type.Params.List[0].Names) != 1 {
		return nil, nil
	}
	yield := a.pass.TypesInfo.Defs[lit.Type.Params.List[0].Names[0]]
	params := map[types.Object]int{}
	i := 0
	for _, f := range fd.Type.Params.List {
		for _, n := range f.Names {
			params[a.pass.TypesInfo.Defs[n]] = i
			i++
		}
		if len(f.Names) == 0 {
			i++
		}
	}
	for _, st := range lit.Body.List {
		var n ast.Expr
		var body *ast.BlockStmt
		switch st := st.(type) {
		case *ast.RangeStmt:
			if t, ok := a.pass.TypesInfo.TypeOf(st.X).Underlying().(*types.Basic); ok && t.Info()&types.IsInteger != 0 {
				n, body = st.X, st.Body
			}
		case *ast.ForStmt:
			if b, ok := unparen(st.Cond).(*ast.BinaryExpr); ok && b.Op == token.LSS && st.Init != nil {
				n, body = b.Y, st.Body
			}
		}
		id, ok := unparen(n).(*ast.Ident)
		if !ok || body == nil {
			continue
		}
		pi, ok := params[a.pass.TypesInfo.Uses[id]]
		if !ok || pi >= len(call.Args) {
			continue
		}
		// The body yields, then waits.
		var yieldAt token.Pos
		astx.InspectNoLit(body, func(m ast.Node) bool {
			if c, ok := m.(*ast.CallExpr); ok && yieldAt == token.NoPos {
				if id, ok := unparen(c.Fun).(*ast.Ident); ok && a.pass.TypesInfo.Uses[id] == yield {
					yieldAt = c.Pos()
				}
			}
			return yieldAt == token.NoPos
		})
		if yieldAt == token.NoPos {
			continue
		}
		for _, w := range a.dur.WaitsIn(body) {
			if w.Call != nil && w.Call.Pos() > yieldAt {
				return call, call.Args[pi]
			}
		}
	}
	return nil, nil
}

// returnsStream reports whether a call returns a stream (an io.Reader, or
// a value with one in a field): reading it can fail the attempt after it
// answered.
func (a *Definer) returnsStream(call *ast.CallExpr) bool {
	return a.returnsMember(call, "Read", "Body")
}

// hasStatus reports whether a call returns a value with a status (a
// StatusCode field or method): a response whose status a loop may retry.
func (a *Definer) hasStatus(call *ast.CallExpr) bool {
	return a.returnsMember(call, "StatusCode", "Status", "Code") || slices.Contains(a.statusResults(call), true)
}

// returnsMember reports whether one of the call's results has a field or
// method of one of the names.
func (a *Definer) returnsMember(call *ast.CallExpr, names ...string) bool {
	tv, ok := a.pass.TypesInfo.Types[call]
	if !ok || tv.Type == nil {
		return false
	}
	ts := []types.Type{tv.Type}
	if tuple, ok := tv.Type.(*types.Tuple); ok {
		ts = ts[:0]
		for v := range tuple.Variables() {
			ts = append(ts, v.Type())
		}
	}
	for _, t := range ts {
		for _, name := range names {
			if obj, _, _ := types.LookupFieldOrMethod(t, true, a.pass.Pkg, name); obj != nil {
				return true
			}
		}
	}
	return false
}

// outcomeTested reports whether the loop can test what the call returned:
// the call is in a condition, or a variable it assigns is used in one (of
// an if, a switch, a case, the loop's condition), or in a call that a
// condition may test the result of. A call whose results nothing looks at
// cannot be what the loop retries.
func (a *Definer) outcomeTested(l *loop, call *ast.CallExpr) bool {
	if l.condNodes == nil {
		l.condNodes = map[types.Object]bool{}
		mark := func(e ast.Node, calls bool) {
			if e == nil {
				return
			}
			astx.InspectNoLit(e, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.Ident:
					if o := a.pass.TypesInfo.Uses[n]; o != nil {
						l.condNodes[o] = true
					}
				case *ast.CallExpr:
					if calls {
						l.condCalls = append(l.condCalls, n)
					}
				}
				return true
			})
		}
		for _, c := range l.conditions() {
			mark(c, true)
		}
		// ok := errors.As(err, &e), st := status(err): the values a
		// condition tests later.
		astx.InspectNoLit(l.body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Rhs) == 1 {
				mark(as.Rhs[0], false)
			}
			return true
		})
	}
	for _, c := range l.condCalls {
		if c == call || astx.Within(call, c) {
			return true
		}
	}
	if ga, ok := l.goCalls[call]; ok {
		return l.condNodes[ga.errCh] // a select receives its failure
	}
	found := false
	for _, b := range l.g.Blocks {
		if found || !l.in[b.Index] {
			continue
		}
		for _, n := range b.Nodes {
			if !astx.Within(call, n) {
				continue
			}
			lhs, _ := assignParts(n)
			for _, e := range lhs {
				if o := a.objOf(e); o != nil && l.condNodes[o] {
					found = true
				}
			}
			break
		}
	}
	return found
}

// maxCandidates bounds the calls tried as the attempt of one loop.
const maxCandidates = 16

// isRetry is the definition: a failure an outage produces, as a test of
// the attempt's outcome found it, reaches the attempt again; success
// never does, and success can leave the loop.
func (f *flow) isRetry() bool {
	return !f.budgetHit && f.arriveSeen&oTransient != 0 && f.arrive&oSuccess == 0 && f.leave&oSuccess != 0
}

// cfgOf returns the control-flow graph of a function declaration or
// literal. Graphs are built only for the functions that hold a candidate
// loop, once each: building one for every function of every package
// would cost more than the whole analysis.
func (a *Definer) cfgOf(fn ast.Node) *cfg.CFG {
	body := astx.FuncBody(fn)
	if body == nil {
		return nil
	}
	if g, ok := a.cfgs[fn]; ok {
		return g
	}
	if a.cfgs == nil {
		a.cfgs = map[ast.Node]*cfg.CFG{}
	}
	g := cfg.New(body, a.host.MayReturn)
	a.cfgs[fn] = g
	return g
}

// forCounter returns the variable a for statement counts with: the
// variable incremented by its post statement.
func (a *Definer) forCounter(s *ast.ForStmt) types.Object {
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

// candidates returns the calls of the loop, outside function literals and
// go or defer statements, that can be the attempt: calls to a dependency
// whose results say whether they failed. A call in a nested loop is one
// too: the outer loop retries what the inner one does (a failover over
// the endpoints, retried after a wait).
func (a *Definer) candidates(l *loop) []*ast.CallExpr {
	var out []*ast.CallExpr
	visit := func(n ast.Node) {
		astx.InspectNoLit(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GoStmt:
				out = append(out, a.goCandidates(l, n)...)
				return false
			case *ast.DeferStmt:
				return false
			case *ast.CallExpr:
				if a.isCandidate(n) {
					out = append(out, n)
				}
			}
			return true
		})
	}
	if f, ok := l.stmt.(*ast.ForStmt); ok {
		visit(f.Cond)
		visit(f.Post)
	}
	visit(l.body)
	sortByPos(out)
	return out
}

// goCandidates returns the candidate attempts of a goroutine the loop's
// body starts, go func() { ...; if err != nil { errs <- err; return };
// answers <- v }(), that reports over channels the function holds: the
// calls whose error it sends, where every error it sends on that channel
// is sent only when it is not nil, and at most one other channel carries
// its answer. A receive from the error channel is then the attempt's
// failure, and one from the other its success.
func (a *Definer) goCandidates(l *loop, g *ast.GoStmt) []*ast.CallExpr {
	lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit)
	if !ok || len(g.Call.Args) > 0 {
		return nil
	}
	outside := func(o types.Object) bool {
		return o != nil && (o.Pos() < lit.Pos() || o.Pos() >= lit.End())
	}
	var errCh, valCh types.Object
	sent := map[types.Object]bool{} // the errors sent on errCh
	ok = true
	var stack []ast.Node
	astx.InspectNoLit(lit.Body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		send, isSend := n.(*ast.SendStmt)
		if !isSend || !ok {
			return ok
		}
		ch := a.objOf(send.Chan)
		if !outside(ch) {
			ok = false
			return false
		}
		if !typesx.IsError(typeOf(a, send.Value)) {
			if valCh != nil && valCh != ch {
				ok = false
			}
			valCh = ch
			return true
		}
		if errCh != nil && errCh != ch {
			ok = false
			return false
		}
		errCh = ch
		v := a.objOf(send.Value)
		if v == nil || !a.underNonNil(stack, v) {
			ok = false
			return false
		}
		sent[v] = true
		return true
	})
	if !ok || errCh == nil || errCh == valCh {
		return nil
	}
	var out []*ast.CallExpr
	astx.InspectNoLit(lit.Body, func(n ast.Node) bool {
		as, isAssign := n.(*ast.AssignStmt)
		if !isAssign || len(as.Rhs) != 1 {
			return true
		}
		c, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
		if !isCall || !a.isCandidate(c) {
			return true
		}
		for _, lhs := range as.Lhs {
			if sent[a.objOf(lhs)] {
				if l.goCalls == nil {
					l.goCalls = map[*ast.CallExpr]goAttempt{}
				}
				l.goCalls[c] = goAttempt{errCh: errCh, valCh: valCh}
				out = append(out, c)
				break
			}
		}
		return true
	})
	return out
}

// underNonNil reports whether the innermost node of stack is in the body
// of an if statement whose condition is v != nil.
func (a *Definer) underNonNil(stack []ast.Node, v types.Object) bool {
	for i := len(stack) - 2; i >= 0; i-- {
		ifs, ok := stack[i].(*ast.IfStmt)
		if !ok || !astx.Within(stack[len(stack)-1], ifs.Body) {
			continue
		}
		if be, ok := ast.Unparen(ifs.Cond).(*ast.BinaryExpr); ok && be.Op == token.NEQ && a.isNil(be.Y) && a.objOf(be.X) == v {
			return true
		}
		return false
	}
	return false
}

func sortByPos(calls []*ast.CallExpr) {
	for i := 1; i < len(calls); i++ {
		for j := i; j > 0 && calls[j].Pos() < calls[j-1].Pos(); j-- {
			calls[j], calls[j-1] = calls[j-1], calls[j]
		}
	}
}

// isCandidate reports whether call can be an attempt: it returns an error
// (or a response, a channel of errors, a value that carries an error), it
// does not do local work only, it does not translate an error, and it is
// no budget check or wait.
func (a *Definer) isCandidate(call *ast.CallExpr) bool {
	if !a.resultsError(call) && !a.resultsErrCarrier(call) {
		return false
	}
	if a.host.LocalWork(call) || a.contextSleep(call) || a.translatesError(call) {
		return false
	}
	if a.host.Guard(call) == Check {
		return false
	}
	return true
}

// translatesError reports whether a call turns an error into an error:
// its one result is an error and an argument is one, or is given for a
// parameter of type error (ContextError(ctx, err), toStatus(err),
// checkBadConn(ctx, tok.getError(), false), where getError returns a
// driver's Error struct). It says what a failure was; it makes no
// attempt.
func (a *Definer) translatesError(call *ast.CallExpr) bool {
	t := a.pass.TypesInfo.TypeOf(call)
	if t == nil {
		return false
	}
	if _, isTuple := t.(*types.Tuple); isTuple || !typesx.IsError(t) {
		return false
	}
	var params *types.Tuple
	if sig, ok := a.pass.TypesInfo.TypeOf(call.Fun).Underlying().(*types.Signature); ok && !sig.Variadic() {
		params = sig.Params()
	}
	for i, x := range call.Args {
		if a.isNil(x) {
			continue
		}
		if xt := a.pass.TypesInfo.TypeOf(x); xt != nil && typesx.IsError(xt) {
			return true
		}
		if params != nil && i < params.Len() && typesx.IsError(params.At(i).Type()) {
			return true // an error of a concrete type, handed on as an error
		}
	}
	return false
}

// resultsErrCarrier reports whether a call returns a channel of errors or
// a value that carries its error: a field or a method Err of type error
// (an iterator, a future).
func (a *Definer) resultsErrCarrier(call *ast.CallExpr) bool {
	tv, ok := a.pass.TypesInfo.Types[call]
	if !ok || tv.IsType() || tv.Type == nil {
		return false
	}
	var ts []types.Type
	if tuple, ok := tv.Type.(*types.Tuple); ok {
		for v := range tuple.Variables() {
			ts = append(ts, v.Type())
		}
	} else {
		ts = []types.Type{tv.Type}
	}
	for _, t := range ts {
		if ch, ok := t.Underlying().(*types.Chan); ok && typesx.IsError(ch.Elem()) {
			return true
		}
		if carriesError(t, a.pass.Pkg) {
			return true
		}
	}
	return false
}

// carriesError reports whether values of t, a named struct or a pointer
// to one, hold an error in a field named err or Err, or have a method
// Err() error.
func carriesError(t types.Type, from *types.Package) bool {
	elem := t
	if p, ok := t.(*types.Pointer); ok {
		elem = p.Elem()
	}
	n, ok := types.Unalias(elem).(*types.Named)
	if !ok {
		return false
	}
	if _, isStruct := n.Underlying().(*types.Struct); !isStruct && elem == t {
		return false // an interface value with an Err method: a context, not an answer
	}
	if st, ok := n.Underlying().(*types.Struct); ok {
		for fld := range st.Fields() {
			if (fld.Name() == "err" || fld.Name() == "Err") && typesx.IsError(fld.Type()) && (fld.Exported() || fld.Pkg() == from) {
				return true
			}
		}
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, from, "Err")
	if m, ok := obj.(*types.Func); ok {
		sig := m.Type().(*types.Signature)
		return sig.Params().Len() == 0 && sig.Results().Len() == 1 && typesx.IsError(sig.Results().At(0).Type())
	}
	return false
}

// tupleVerdict returns the index of the boolean result of a call with
// several results, one of them a boolean and none an error (retry, delay
// := p.next(err)): a predicate that says more than yes or no. It returns
// -1 for other calls.
func (a *Definer) tupleVerdict(c *ast.CallExpr) int {
	t, ok := typeOf(a, c).(*types.Tuple)
	if !ok {
		return -1
	}
	found := -1
	for i := range t.Len() {
		switch r := t.At(i).Type(); {
		case typesx.IsError(r):
			return -1
		case isBool(r):
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// indexLoop works out which blocks of the function's graph belong to the
// loop, and what the flows need to know of its body.
func (a *Definer) indexLoop(l *loop) {
	l.in = make([]bool, len(l.g.Blocks))
	for _, b := range l.g.Blocks {
		l.in[b.Index] = a.blockInLoop(l, b)
	}
	l.typeSwitch = map[ast.Stmt]*ast.TypeSwitchStmt{}
	l.caseTag = map[ast.Expr]ast.Expr{}
	l.preds = map[types.Object]ast.Expr{}
	l.statusAlias = map[types.Object]ast.Expr{}
	l.statusVars = map[types.Object]bool{}
	l.stmtOf = map[ast.Node]ast.Stmt{}
	l.unwrapped = map[types.Object]bool{}
	l.setBy = map[types.Object]*ast.CallExpr{}
	defs := map[types.Object]int{}
	seen := map[*types.Var]bool{}
	var addVar func(e ast.Expr)
	addVar = func(e ast.Expr) {
		if sel, ok := ast.Unparen(e).(*ast.SelectorExpr); ok {
			a.addErrField(l, sel)
			return
		}
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return
		}
		v, ok := a.pass.TypesInfo.ObjectOf(id).(*types.Var)
		if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || seen[v] {
			return
		}
		seen[v] = true
		l.assigned = append(l.assigned, v)
	}
	one := func(lhs, rhs ast.Expr) {
		o := a.objOf(lhs)
		if o == nil {
			return
		}
		defs[o]++
		if rhs == nil {
			return
		}
		if isBool(typeOf(a, lhs)) {
			if _, isConst := a.boolConst(rhs); !isConst {
				l.preds[o] = rhs
			}
		}
		if isInteger(typeOf(a, lhs)) {
			if sel, ok := ast.Unparen(rhs).(*ast.SelectorExpr); ok && isStatusName(sel.Sel.Name) {
				l.statusAlias[o] = rhs
			} else if c, ok := ast.Unparen(rhs).(*ast.CallExpr); ok && len(c.Args) == 0 {
				if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && isStatusName(sel.Sel.Name) {
					l.statusAlias[o] = rhs
				}
			}
		}
	}
	var lists func(list []ast.Stmt)
	lists = func(list []ast.Stmt) {
		for _, s := range list {
			l.stmtOf[s] = s
			switch s := s.(type) {
			case *ast.IfStmt:
				if s.Init != nil {
					l.stmtOf[s.Init] = s
				}
				l.stmtOf[s.Cond] = s
			case *ast.SwitchStmt:
				if s.Init != nil {
					l.stmtOf[s.Init] = s
				}
				if s.Tag != nil {
					l.stmtOf[s.Tag] = s
				}
			case *ast.TypeSwitchStmt:
				if s.Init != nil {
					l.stmtOf[s.Init] = s
				}
				l.stmtOf[s.Assign] = s
			case *ast.SelectStmt:
				// Its block starts with the clauses' sends and receives.
				for _, c := range s.Body.List {
					if cc := c.(*ast.CommClause); cc.Comm != nil {
						l.stmtOf[cc.Comm] = s
					}
				}
			case *ast.DeclStmt:
				if gd, ok := s.Decl.(*ast.GenDecl); ok {
					for _, spec := range gd.Specs {
						l.stmtOf[spec] = s
					}
				}
			}
		}
	}
	lists(l.body.List)
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			if n != l.body {
				lists(n.List)
			}
		case *ast.CaseClause:
			lists(n.Body)
		case *ast.CommClause:
			lists(n.Body)
		case *ast.TypeSwitchStmt:
			for _, c := range n.Body.List {
				l.typeSwitch[c.(*ast.CaseClause)] = n
			}
		case *ast.SwitchStmt:
			if n.Tag != nil {
				for _, c := range n.Body.List {
					for _, e := range c.(*ast.CaseClause).List {
						l.caseTag[e] = n.Tag
					}
				}
			}
		case *ast.CallExpr:
			if fn := a.callee(n); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() == "errors" && fn.Name() == "As" && len(n.Args) == 2 {
				if u, ok := unparen(n.Args[1]).(*ast.UnaryExpr); ok && u.Op == token.AND {
					if o := a.objOf(u.X); o != nil {
						l.unwrapped[o] = true
					}
				}
			}
		case *ast.AssignStmt:
			if len(n.Rhs) == 1 {
				if _, ok := unparen(n.Rhs[0]).(*ast.TypeAssertExpr); ok {
					if o := a.objOf(n.Lhs[0]); o != nil {
						l.unwrapped[o] = true
					}
				}
			}
			if c, ok := unparen(n.Rhs[len(n.Rhs)-1]).(*ast.CallExpr); ok && (len(n.Rhs) == 1 || len(n.Rhs) == len(n.Lhs)) {
				for i, lhs := range n.Lhs {
					if len(n.Rhs) == 1 || i == len(n.Lhs)-1 {
						if o := a.objOf(lhs); o != nil {
							l.setBy[o] = c
						}
					}
				}
			}
			if c, ok := unparen(n.Rhs[0]).(*ast.CallExpr); ok && len(n.Rhs) == 1 && len(n.Lhs) > 1 {
				for i, isStatus := range a.statusResults(c) {
					if o := a.objOf(n.Lhs[i]); o != nil && isStatus {
						l.statusVars[o] = true
					}
				}
			}
			for i, lhs := range n.Lhs {
				addVar(lhs)
				switch {
				case len(n.Rhs) == len(n.Lhs):
					one(lhs, n.Rhs[i])
				case len(n.Rhs) == 1 && i == 1 && len(n.Lhs) == 2:
					// _, ok := err.(T)
					if ta, ok := ast.Unparen(n.Rhs[0]).(*ast.TypeAssertExpr); ok {
						one(lhs, ta)
					} else if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && a.tupleVerdict(c) == i {
						one(lhs, c)
					} else {
						one(lhs, nil)
					}
				case len(n.Rhs) == 1:
					// retry, why := r.shouldRetry(err, resp): the verdict of
					// a classifier with more to say.
					if c, ok := ast.Unparen(n.Rhs[0]).(*ast.CallExpr); ok && a.tupleVerdict(c) == i {
						one(lhs, c)
					} else {
						one(lhs, nil)
					}
				default:
					one(lhs, nil)
				}
			}
		case *ast.ValueSpec:
			for i, id := range n.Names {
				addVar(id)
				if i < len(n.Values) && len(n.Values) == len(n.Names) {
					one(id, n.Values[i])
				} else {
					one(id, nil)
				}
			}
		case *ast.IncDecStmt:
			addVar(n.X)
			if o := a.objOf(n.X); o != nil {
				defs[o] += 2
			}
		}
		return true
	})
	if len(l.errFields) > 0 {
		// A field reached through two variables is two places.
		astx.InspectNoLit(l.body, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if v, ok := a.objOf(sel.Sel).(*types.Var); ok {
					if base, ok := l.errFields[v]; ok && base != a.objOf(sel.X) {
						l.errFields[v] = nil
					}
				}
			}
			return true
		})
	}
	for o := range l.preds {
		if defs[o] != 1 {
			delete(l.preds, o)
		}
	}
	for o := range l.statusAlias {
		if defs[o] != 1 {
			delete(l.statusAlias, o)
		}
	}
}

// statusResults says, for each result of the function a call calls, whether
// it is the status of a response: a function of the package whose every
// return gives there an integer constant (no response: return 0, err) or
// a response's status (return resp.StatusCode, nil), at least one the
// latter. The caller's integer is then that status (code, err :=
// c.get(ctx); if err == nil && code == 200). It returns nil for calls of
// other functions.
func (a *Definer) statusResults(c *ast.CallExpr) []bool {
	fn := a.callee(c)
	if fn == nil || fn.Pkg() != a.pass.Pkg {
		return nil
	}
	if out, ok := a.statuses[fn]; ok {
		return out
	}
	if a.statuses == nil {
		a.statuses = map[*types.Func][]bool{}
	}
	a.statuses[fn] = nil // a recursive call finds none
	sig, _ := fn.Type().(*types.Signature)
	fd := a.host.Decl(fn)
	if sig == nil || fd == nil || fd.Body == nil || sig.Results().Len() < 2 {
		return nil
	}
	n := sig.Results().Len()
	out := make([]bool, n)
	bad := make([]bool, n)
	astx.InspectNoLit(fd.Body, func(x ast.Node) bool {
		ret, ok := x.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		for i := range n {
			if len(ret.Results) != n || !isInteger(sig.Results().At(i).Type()) {
				bad[i] = true
				continue
			}
			r := unparen(ret.Results[i])
			if sel, ok := r.(*ast.SelectorExpr); ok && isStatusName(sel.Sel.Name) && isInteger(typeOf(a, sel)) {
				out[i] = true
			} else if _, isConst := a.intConst(r); !isConst {
				bad[i] = true
			}
		}
		return true
	})
	for i := range out {
		out[i] = out[i] && !bad[i]
	}
	a.statuses[fn] = out
	return out
}

// blockInLoop reports whether a block of the function's graph belongs to
// the loop: its condition, post statement, body, or a statement inside.
func (a *Definer) blockInLoop(l *loop, b *cfg.Block) bool {
	if b.Stmt == nil {
		return false
	}
	if b.Stmt == l.stmt {
		switch b.Kind {
		case cfg.KindForDone, cfg.KindRangeDone:
			return false
		}
		return true
	}
	return l.body.Pos() <= b.Stmt.Pos() && b.Stmt.Pos() < l.body.End()
}

// newFlow prepares a flow for the candidate attempt call, or returns nil
// when the call is in no block of the loop.
func (a *Definer) newFlow(l *loop, call *ast.CallExpr) *flow {
	f := &flow{a: a, l: l, call: call, slots: map[types.Object]int{}}
	for _, b := range l.g.Blocks {
		if !l.in[b.Index] || !b.Live {
			continue
		}
		for _, n := range b.Nodes {
			if astx.Within(call, n) {
				f.node, f.start = n, b
				break
			}
		}
		if f.node != nil {
			break
		}
	}
	if f.node == nil {
		return nil
	}
	f.nested = a.inNestedLoop(l, call)
	f.siblings = a.siblingCalls(l, call, f.node)
	// The attempt's results first, then the other variables the body
	// assigns.
	lhs, _ := assignParts(f.node)
	for _, e := range lhs {
		if v, ok := a.objOf(e).(*types.Var); ok {
			f.track(v)
		}
	}
	if ga, ok := l.goCalls[call]; ok {
		for _, o := range []types.Object{ga.errCh, ga.valCh} {
			if v, ok := o.(*types.Var); ok {
				f.track(v)
			}
		}
	}
	if v, ok := l.counter.(*types.Var); ok {
		f.track(v)
	}
	if v, ok := l.countdown.(*types.Var); ok {
		f.track(v)
	}
	// Errors and flags first: when the slots run short, the variables
	// that carry an outcome or a verdict (ctxErr := ctx.Err(), retry :=
	// shouldRetry(res)) are kept before other values.
	rel := a.relevant(l)
	for _, first := range []bool{true, false} {
		for _, v := range l.assigned {
			if rel[v] && carriesOutcome(v) == first {
				f.track(v)
			}
		}
	}
	for v, base := range l.errFields {
		if base != nil && rel[v] {
			f.track(v)
		}
	}
	return f
}

// carriesOutcome reports whether a variable is an error or a boolean.
func carriesOutcome(v *types.Var) bool {
	return typesx.IsError(v.Type()) || isBool(v.Type().Underlying())
}

// addErrField records an error field the loop assigns through a
// variable (nc.err = nc.connect()): kept in it, the attempt's error is
// tested as a local's would be. The loop must reach the field through
// that one variable only.
func (a *Definer) addErrField(l *loop, sel *ast.SelectorExpr) {
	s, ok := a.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.FieldVal || !typesx.IsError(s.Type()) {
		return
	}
	base, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return
	}
	v := s.Obj().(*types.Var)
	o := a.pass.TypesInfo.Uses[base]
	if l.errFields == nil {
		l.errFields = map[*types.Var]types.Object{}
	}
	if prev, seen := l.errFields[v]; seen && prev != o {
		o = nil
	}
	l.errFields[v] = o
}

// fieldSlot returns the slot of a tracked error field reached through
// its variable (nc.err), or -1.
func (f *flow) fieldSlot(sel *ast.SelectorExpr) int {
	v, ok := f.a.objOf(sel.Sel).(*types.Var)
	if !ok || !v.IsField() {
		return -1
	}
	base, ok := f.l.errFields[v]
	if !ok || base == nil || base != f.a.objOf(sel.X) {
		return -1
	}
	return f.slot(v)
}

// relevant returns the variables whose values a condition of the loop can
// depend on: those the conditions use, and, again, those assigned to
// them. Tracking others would only multiply the states of a flow.
func (a *Definer) relevant(l *loop) map[types.Object]bool {
	if l.rel != nil {
		return l.rel
	}
	rel := map[types.Object]bool{}
	add := func(e ast.Node) {
		if e == nil {
			return
		}
		astx.InspectNoLit(e, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				if o := a.pass.TypesInfo.Uses[id]; o != nil {
					rel[o] = true
				}
			}
			return true
		})
	}
	for _, c := range l.conditions() {
		add(c)
	}
	var assigns []*ast.AssignStmt
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			assigns = append(assigns, n)
		case *ast.ValueSpec:
			for i, id := range n.Names {
				if i < len(n.Values) {
					assigns = append(assigns, &ast.AssignStmt{Lhs: []ast.Expr{id}, Tok: token.DEFINE, Rhs: []ast.Expr{n.Values[i]}})
				}
			}
		}
		return true
	})
	for changed := true; changed; {
		changed = false
		for _, as := range assigns {
			hit := false
			for _, l := range as.Lhs {
				if o := a.objOf(l); o != nil && rel[o] {
					hit = true
				}
			}
			if !hit {
				continue
			}
			for _, r := range as.Rhs {
				before := len(rel)
				add(r)
				changed = changed || len(rel) != before
			}
			for _, l := range as.Lhs {
				if o := a.objOf(l); o != nil && !rel[o] {
					rel[o] = true
					changed = true
				}
			}
		}
	}
	l.rel = rel
	return rel
}

// conflictOnly says why a loop is exempt when every failure it retries
// was first found to be a concurrency conflict (a serialization failure,
// IsConflict(err)): conflicts are not an outage, and retrying them does
// not load a failing dependency.
func (a *Definer) conflictOnly(l *loop, f *flow) string {
	if f.beyondConflicts == 0 {
		return "it retries only concurrency conflicts"
	}
	if f.beyondInterrupts == 0 {
		return "it retries only interrupted system calls"
	}
	return ""
}

// inNestedLoop reports whether call is inside a loop nested in l.
func (a *Definer) inNestedLoop(l *loop, call *ast.CallExpr) bool {
	nested := false
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if astx.Within(call, n) {
				nested = true
			}
		}
		return !nested
	})
	return nested
}

// siblingCalls returns the other CFG nodes of the loop that make the same
// call as the attempt: the same function on the same receiver, written
// twice (in the two branches of an if).
func (a *Definer) siblingCalls(l *loop, call *ast.CallExpr, node ast.Node) map[ast.Node]bool {
	fn := a.callee(call)
	text := types.ExprString(call.Fun)
	var out map[ast.Node]bool
	for _, b := range l.g.Blocks {
		if !l.in[b.Index] {
			continue
		}
		for _, n := range b.Nodes {
			if n == node {
				continue
			}
			astx.InspectNoLit(n, func(m ast.Node) bool {
				c, ok := m.(*ast.CallExpr)
				if !ok || c == call {
					return true
				}
				if types.ExprString(c.Fun) == text && (fn == nil || a.callee(c) == fn) {
					if out == nil {
						out = map[ast.Node]bool{}
					}
					out[n] = true
				}
				return true
			})
		}
	}
	return out
}

// backoffTicker returns the backoff.NewTicker call whose ticker's channel
// x is (ticker.C, with ticker := backoff.NewTicker(b)), or nil.
func (a *Definer) backoffTicker(x ast.Expr) *ast.CallExpr {
	sel, ok := unparen(x).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "C" {
		return nil
	}
	var c *ast.CallExpr
	switch x := unparen(sel.X).(type) {
	case *ast.CallExpr:
		c = x
	case *ast.Ident:
		if v, ok := a.pass.TypesInfo.Uses[x].(*types.Var); ok {
			c, _ = unparen(a.host.Definition(v)).(*ast.CallExpr)
		}
	}
	if c == nil {
		return nil
	}
	fn := a.callee(c)
	if fn == nil || fn.Name() != "NewTicker" {
		return nil
	}
	if lib := retryapi.LibraryOf(typesx.PkgPath(fn)); lib == nil || lib.Project != retryapi.ProjectBackoff {
		return nil
	}
	return c
}

// oneTimeRepair reports whether the loop reads again only once, after a
// local repair: every failing path that reaches the attempt again sets a
// flag (repaired = true) that a test on the way out leaves on, and the
// failing path calls something else that can fail (the repair). The
// second attempt is of a repaired state, and there is no third.
func (a *Definer) oneTimeRepair(l *loop, f *flow) bool {
	flag := -1
	for i, o := range f.objs {
		if f.setOnEveryRetry(o) {
			flag = i
			break
		}
	}
	if flag < 0 {
		return false
	}
	tested := false
	for _, e := range f.exits {
		if !e.onYes {
			continue
		}
		for _, t := range a.triggers(l, f, e) {
			if id, ok := unparen(t).(*ast.Ident); ok && a.pass.TypesInfo.Uses[id] == f.objs[flag] {
				tested = true
			}
		}
	}
	if !tested {
		return false
	}
	repair := false
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || repair || c == f.call || astx.Within(f.call, c) {
			return !repair
		}
		if a.resultsError(c) && !a.host.LocalWork(c) && a.host.Guard(c) == NotGuard {
			repair = true
		}
		return !repair
	})
	return repair
}

// conditions returns what the loop decides on: its condition, and the
// conditions, switch tags, case expressions, type switch subjects and
// select receives of its body.
func (l *loop) conditions() []ast.Node {
	if l.conds != nil {
		return l.conds
	}
	var out []ast.Node
	if fs, ok := l.stmt.(*ast.ForStmt); ok && fs.Cond != nil {
		out = append(out, fs.Cond)
	}
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt:
			out = append(out, n.Cond)
		case *ast.SwitchStmt:
			if n.Tag != nil {
				out = append(out, n.Tag)
			}
			for _, c := range n.Body.List {
				for _, e := range c.(*ast.CaseClause).List {
					out = append(out, e)
				}
			}
		case *ast.TypeSwitchStmt:
			out = append(out, n.Assign)
		case *ast.CommClause:
			if n.Comm != nil {
				out = append(out, n.Comm)
			}
		}
		return true
	})
	l.conds = append(out, nil)[:len(out)] // not nil, once computed
	return l.conds
}

// headerBound reports whether the loop's own condition or range ends its
// attempts: a range (over an integer, a list of endpoints or a backoff's
// ticker), a condition on the loop's counter, or a condition that is one
// of the exits that make the bound (a clock, a count the body advances).
func (a *Definer) headerBound(l *loop, lp *Loop) bool {
	fs, ok := l.stmt.(*ast.ForStmt)
	if !ok {
		return true
	}
	if fs.Cond == nil {
		return false
	}
	if l.counter != nil && typesx.Refers(a.pass.TypesInfo, fs.Cond, l.counter) && len(lp.BoundExits) == 0 && lp.Bound.Kind == BoundCount {
		return true
	}
	_, ok = lp.BoundExitAt(fs.Cond)
	return ok
}

// permutedList returns xs when x is a random permutation of its indices,
// rand.Perm(len(xs)), or a local variable defined as one; nil otherwise.
func (a *Definer) permutedList(x ast.Expr) ast.Expr {
	// rand.Perm returns []int: a list of another type is none, and its
	// definition is not looked up.
	if s, ok := types.Unalias(a.pass.TypesInfo.TypeOf(x)).(*types.Slice); !ok || !types.Identical(s.Elem(), types.Typ[types.Int]) {
		return nil
	}
	e := unparen(x)
	if id, ok := e.(*ast.Ident); ok {
		v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok {
			return nil
		}
		e = unparen(a.host.Definition(v))
	}
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil
	}
	fn := a.callee(call)
	if fn == nil || fn.Name() != "Perm" {
		return nil
	}
	if p := typesx.PkgPath(fn); p != "math/rand" && p != "math/rand/v2" {
		return nil
	}
	lc, ok := unparen(call.Args[0]).(*ast.CallExpr)
	if !ok || len(lc.Args) != 1 {
		return nil
	}
	id, ok := unparen(lc.Fun).(*ast.Ident)
	if !ok {
		return nil
	}
	if b, ok := a.pass.TypesInfo.Uses[id].(*types.Builtin); !ok || b.Name() != "len" {
		return nil
	}
	return lc.Args[0]
}

// picker returns, for a for statement that picks the next value in its
// post statement and goes on while one is left (for ; b != nil; b =
// s.leastLoaded()), the picked variable and the call that picks it: a
// variable of the function, compared with nil by a conjunct of the
// condition. Loop asks whether it holds endpoints (isEndpoint).
func (a *Definer) picker(s *ast.ForStmt) (*types.Var, *ast.CallExpr) {
	as, ok := s.Post.(*ast.AssignStmt)
	if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != 1 || len(as.Rhs) != 1 || s.Cond == nil {
		return nil, nil
	}
	call, ok := unparen(as.Rhs[0]).(*ast.CallExpr)
	v, isVar := a.objOf(as.Lhs[0]).(*types.Var)
	if !ok || !isVar || v.IsField() {
		return nil, nil
	}
	for _, c := range conjuncts(s.Cond) {
		if b, ok := unparen(c).(*ast.BinaryExpr); ok && b.Op == token.NEQ &&
			(a.objOf(b.X) == v && a.isNil(b.Y) || a.objOf(b.Y) == v && a.isNil(b.X)) {
			return v, call
		}
	}
	return nil, nil
}
