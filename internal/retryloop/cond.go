package retryloop

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/internal/typesx"
)

// This file says what a condition means for an attempt's outcome: the
// one place that knows nil tests, classified errors, verdicts, statuses
// and how &&, || and ! combine them.

// cond returns the states, from st, in which e evaluates to want. A
// condition it does not understand keeps st on both sides.
func (f *flow) cond(e ast.Expr, st state, want bool) []state {
	return f.condDepth(e, st, want, 0)
}

func (f *flow) condDepth(e ast.Expr, st state, want bool, depth int) []state {
	if depth > 8 {
		return []state{st}
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			return f.condDepth(x.X, st, !want, depth+1)
		}
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND, token.LOR:
			// For &&, the whole holds when both do; it fails when the
			// left fails, or the left holds and the right fails. || is
			// the dual.
			short := x.Op == token.LOR // the left side's value that decides alone
			var out []state
			for _, s := range f.condDepth(x.X, st, short, depth+1) {
				if want == short {
					out = appendState(out, s)
				}
			}
			for _, s := range f.condDepth(x.X, st, !short, depth+1) {
				for _, t := range f.condDepth(x.Y, s, want, depth+1) {
					out = appendState(out, t)
				}
			}
			return out
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
			return f.compareDepth(x.X, x.Y, x.Op, st, want, depth)
		}
	case *ast.Ident:
		return f.flagTest(x, st, want, depth)
	case *ast.CallExpr:
		if f.isGuardCall(x) && isBool(typeOf(f.a, x)) {
			f.askGuard(x, &st)
			return []state{verdict(st, want)}
		}
		return f.predicate(x, st, want, "")
	case *ast.TypeAssertExpr:
		// The ok of e, ok := err.(T): err is a T, so it is not nil.
		if want {
			return f.nilTest(x.X, st, false)
		}
	case *ast.IndexExpr:
		// retryOn[resp.StatusCode]: a set of statuses kept as data, read
		// as a set of failures (the statuses to retry): a status in it
		// is a failing one, and one out of it may be any.
		if _, ok := f.statusOf(x.Index, st); ok && isBool(typeOf(f.a, x)) {
			if _, isMap := typeOf(f.a, x.X).Underlying().(*types.Map); isMap {
				st.seen = true
				out := expand(st.out)
				if want {
					out &^= o2xx
				}
				return with(st, out)
			}
		}
	}
	return []state{st}
}

func appendState(list []state, s state) []state {
	for _, t := range list {
		if t == s {
			return list
		}
	}
	return append(list, s)
}

// with returns st restricted to the outcomes o, or nothing when none is left.
func with(st state, o outcome) []state {
	if o == 0 {
		return nil
	}
	st.out = o
	return []state{st}
}

// compare returns the states in which x op y evaluates to want.
func (f *flow) compare(x, y ast.Expr, op token.Token, st state, want bool) []state {
	return f.compareDepth(x, y, op, st, want, 0)
}

func (f *flow) compareDepth(x, y ast.Expr, op token.Token, st state, want bool, depth int) []state {
	x, y = ast.Unparen(x), ast.Unparen(y)
	if f.a.isNil(x) {
		x, y = y, x
	}
	if f.a.isNil(y) {
		if c, ok := x.(*ast.CallExpr); ok && f.isGuardCall(c) && (op == token.EQL || op == token.NEQ) {
			// lim.Wait(ctx) != nil: a nil answer allowed the retry.
			f.askGuard(c, &st)
			return []state{verdict(st, want == (op == token.EQL))}
		}
		switch op {
		case token.EQL:
			return f.nilTest(x, st, want)
		case token.NEQ:
			return f.nilTest(x, st, !want)
		}
		return []state{st}
	}
	// A flag compared with a constant: done == true.
	if isBool(typeOf(f.a, x)) {
		if v, ok := f.a.boolConst(y); ok && (op == token.EQL || op == token.NEQ) {
			return f.condDepth(x, st, want == (v == (op == token.EQL)), depth+1)
		}
	}
	// The header's test after the last attempt, and a test of the body
	// that says whether another attempt follows.
	if out, ok := f.lastTest(x, y, op, st, want); ok {
		return out
	}
	// A counter past its start compared with a constant: i > 0 after i++.
	if out, ok := f.advancedTest(x, y, op, st, want); ok {
		return out
	}
	if out, ok := f.advancedTest(y, x, flip(op), st, want); ok {
		return out
	}
	// A status compared with a constant.
	if _, ok := f.statusOf(y, st); ok {
		x, y = y, x
		op = flip(op)
	}
	if div, ok := f.statusOf(x, st); ok {
		if c, isConst := f.a.intConst(y); isConst {
			return f.statusTest(div, op, c, st, want)
		}
		if out, ok := f.memberTest(div, y, op, st, want); ok {
			return out
		}
		return []state{st}
	}
	// The attempt's error compared with a sentinel (err == ErrBusy), or a
	// function of it compared with a code (status.Code(err) ==
	// codes.Unavailable): a match is an error.
	if f.isAttemptErr(y, st) {
		x, y = y, x
	}
	if want == (op == token.EQL) && (op == token.EQL || op == token.NEQ) && f.mentionsAttempt(x, st) {
		if s, ok := f.a.stringConst(y); ok && conflictCodes[s] {
			st.conflict = true
		}
	}
	if f.isAttemptErr(x, st) && (op == token.EQL || op == token.NEQ) {
		if want == (op == token.EQL) {
			if f.a.isEOF(y) {
				return f.endOfData(x, st)
			}
			if f.a.answerSentinel(y) || f.a.absentErr(y) {
				return f.answerSaysNo(x, st)
			}
			if f.a.isInterrupt(y) {
				st.interrupted = true
			}
			return f.nilTest(x, st, false)
		}
		return []state{st}
	}
	if out, ok := f.kindTest(x, y, op, st, want); ok {
		return out
	}
	if out, ok := f.lengthTest(x, y, op, st, want); ok {
		return out
	}
	if out, ok := f.budgetGiven(x, y, op, st, want); ok {
		return out
	}
	if c, ok := ast.Unparen(x).(*ast.CallExpr); ok && (op == token.EQL || op == token.NEQ) {
		if err := f.errArg(c, st); err != nil {
			zero, isConst := f.a.isZeroConst(y)
			if !isConst {
				return []state{st}
			}
			match := want == (op == token.EQL) // the comparison says "code == y"
			switch {
			case zero && match:
				return f.nilTest(err, st, true)
			case zero && !match, !zero && match:
				return f.nilTest(err, st, false)
			}
		}
	}
	return []state{st}
}

// isAttemptErr reports whether e holds the attempt's error.
func (f *flow) isAttemptErr(e ast.Expr, st state) bool {
	t := typeOf(f.a, e)
	return t != nil && typesx.IsError(t) && f.valueOf(e, st) == bAttempt
}

// errArg returns the argument of c that holds the attempt's error, or nil.
func (f *flow) errArg(c *ast.CallExpr, st state) ast.Expr {
	for _, x := range c.Args {
		if b := f.valueOf(x, st); (b == bAttempt || b == bConsumer) && typesx.IsError(typeOf(f.a, x)) {
			return x
		}
	}
	return nil
}

func typeOf(a *Definer, e ast.Expr) types.Type {
	if t := a.pass.TypesInfo.TypeOf(e); t != nil {
		return t
	}
	return types.Typ[types.Invalid]
}

// nilTest returns the states in which x is nil (isNil) or not.
func (f *flow) nilTest(x ast.Expr, st state, isNil bool) []state {
	x = ast.Unparen(x)
	b := f.valueOf(x, st)
	t := typeOf(f.a, x)
	isErr := typesx.IsError(t)
	if b == bAttempt || b == bConsumer || b == bStream {
		st.seen = true
	}
	switch b {
	case bVerdict:
		// err := lim.Wait(ctx); err != nil: a budget's answer.
		st = verdict(st, isNil)
		f.learn(x, st, &st, isNil)
	case bAttempt:
		if isErr {
			if isNil {
				return with(st, st.out&^oErr)
			}
			return with(st, st.out&oErr)
		}
		if nilAnswer(t) {
			// A nil response, stream or connection comes with an error.
			if isNil {
				return with(st, st.out&oErr)
			}
			return with(st, st.out&^oErr)
		}
	case bConsumer, bStream, bOther:
		if isErr && !isNil {
			// Using what the attempt returned failed (decoding its
			// answer; reading its stream, which is its own transport
			// failure), or a later call failed: the iteration failed.
			o := st.out & oFailure
			if st.out&oSuccess != 0 {
				switch b {
				case bStream:
					o |= oErr
				case bConsumer:
					o |= oParse
				default:
					o |= oLater
				}
			}
			if b == bOther {
				f.learn(x, st, &st, false)
			}
			return with(st, o)
		}
		if b == bOther {
			f.learn(x, st, &st, isNil)
		}
	case bNil:
		if !isNil {
			return nil
		}
	case bNonNil, bUnknown:
		if b == bNonNil && isNil {
			return nil
		}
		if isErr && !isNil && f.trackedErr(x) && st.out&oSuccess != 0 {
			// An error the iteration made on a successful path (an
			// injected fault, a failure found by other means) that the
			// loop tests as failure: the iteration failed.
			o := st.out&oFailure | oLater
			f.learn(x, st, &st, false)
			return with(st, o)
		}
		f.learn(x, st, &st, isNil)
	}
	return []state{st}
}

// nilAnswer reports whether a nil value of the attempt's result of type t
// stands for no answer, which only a failure gives: a pointer (a
// response), or an interface with methods (a stream, a connection). A
// nil slice, map or any is an empty answer.
func nilAnswer(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return true
	case *types.Interface:
		return u.NumMethods() > 0
	}
	return false
}

// trackedErr reports whether x is an error variable the flow tracks.
func (f *flow) trackedErr(x ast.Expr) bool {
	if sel, ok := x.(*ast.SelectorExpr); ok {
		i := f.fieldSlot(sel)
		return i >= 0 && f.roles[i] == roleErr
	}
	id, ok := x.(*ast.Ident)
	if !ok {
		return false
	}
	i := f.slot(f.a.pass.TypesInfo.Uses[id])
	return i >= 0 && f.roles[i] == roleErr
}

// learn records what a nil test showed of an error variable: it is nil,
// or not, from here on.
func (f *flow) learn(x ast.Expr, _ state, st *state, isNil bool) {
	i := -1
	switch x := x.(type) {
	case *ast.Ident:
		i = f.slot(f.a.pass.TypesInfo.Uses[x])
	case *ast.SelectorExpr:
		i = f.fieldSlot(x)
	}
	if i >= 0 && f.roles[i] == roleErr {
		if isNil {
			st.vals[i] = bNil
		} else {
			st.vals[i] = bNonNil
		}
	}
}

// flagTest returns the states in which the boolean variable id is want.
func (f *flow) flagTest(id *ast.Ident, st state, want bool, depth int) []state {
	obj := f.a.pass.TypesInfo.Uses[id]
	i := f.slot(obj)
	if i < 0 || f.roles[i] != roleFlag {
		if pred := f.l.preds[obj]; pred != nil {
			return f.heldCond(pred, obj, st, want, depth+1)
		}
		return []state{st}
	}
	switch st.vals[i] {
	case bVerdict:
		// ok := b.TryRetry(); !ok: a budget's answer.
		st = verdict(st, want)
		st.vals[i] = map[bool]binding{true: bNonNil, false: bNil}[want]
		return []state{st}
	case bNonNil:
		if !want {
			return nil
		}
		return []state{st}
	case bNil:
		if want {
			return nil
		}
		return []state{st}
	case bAttempt:
		// A verdict returned with the attempt: retry, err := try().
		st.seen = true
		pol := f.verdictPolarity(obj)
		if pol == 0 && st.out == oAll {
			// Nothing on this path told the attempt's failure from its
			// success: the verdict alone decides, as the loop reads it.
			// The value that goes round holds the failure.
			if p := f.loopPolarity(obj); p != 0 && want == (p > 0) {
				return with(st, st.out&oFailure)
			}
		}
		switch pol {
		case +1:
			if want {
				return with(st, st.out&oFailure)
			}
		case -1:
			if want {
				return with(st, st.out&oSuccess)
			}
		}
		return []state{st}
	}
	if pred := f.l.preds[obj]; pred != nil {
		return f.heldCond(pred, obj, st, want, depth+1)
	}
	if want {
		st.vals[i] = bNonNil
	} else {
		st.vals[i] = bNil
	}
	return []state{st}
}

// heldCond returns the states in which the condition e, kept in the
// boolean v, is want: a predicate whose body, fact and name say nothing
// is read by the name of v (needsRetry = cond(resp, err)).
func (f *flow) heldCond(e ast.Expr, v types.Object, st state, want bool, depth int) []state {
	if c, ok := ast.Unparen(e).(*ast.CallExpr); ok && !(f.isGuardCall(c) && isBool(typeOf(f.a, c))) {
		return f.predicate(c, st, want, v.Name())
	}
	return f.condDepth(e, st, want, depth)
}

// verdictPolarity says what a boolean returned with the attempt means
// when true: +1 a failure that wants a retry, -1 success, 0 unknown. It
// reads the name of the result in the callee's signature, else the
// variable's.
func (f *flow) verdictPolarity(v types.Object) int {
	name := v.Name()
	if sig, ok := typeOf(f.a, f.call.Fun).Underlying().(*types.Signature); ok {
		for r := range sig.Results().Variables() {
			if isBool(r.Type()) && r.Name() != "" && r.Name() != "_" {
				name = r.Name()
			}
		}
	}
	return namePolarity(name, 0)
}

// loopPolarity reads a verdict whose name says nothing from the loop, when
// the attempt is a call of a function value (a parameter, a variable or a
// field of func type) that returns only the verdict and an error: what
// the value means is the loop's contract with whoever supplies it, and the
// loop states it. The value on which the loop is left (if !v { return
// err }) wants no retry; the other, which goes round, wants one. Every
// test of v in the body must say the same, with one side that leaves
// and one that does not; else 0.
func (f *flow) loopPolarity(v types.Object) int {
	if !f.a.verdictCallback(f.call) {
		return 0
	}
	pol := 0
	agree := true
	var walk func(list []ast.Stmt, nested bool)
	walk = func(list []ast.Stmt, nested bool) {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.BlockStmt:
				walk(s.List, nested)
			case *ast.IfStmt:
				if s.Init == nil && s.Else == nil {
					if yes, ok := f.a.flagOf(s.Cond, v); ok {
						p := 0
						if f.leavesLoop(s.Body, nested) {
							p = +1 // v == yes leaves: v != yes goes round
							if yes {
								p = -1
							}
						}
						if p == 0 || pol != 0 && p != pol {
							agree = false
						}
						pol = p
						continue
					}
				}
				walk(s.Body.List, nested)
				if e, ok := s.Else.(*ast.BlockStmt); ok {
					walk(e.List, nested)
				} else if e, ok := s.Else.(*ast.IfStmt); ok {
					walk([]ast.Stmt{e}, nested)
				}
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt:
				// break means something else in these; a test of v in
				// them is read only when its side returns.
				ast.Inspect(s, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.FuncLit:
						return false
					case *ast.BlockStmt:
						walk(n.List, true)
						return false
					case *ast.CaseClause:
						walk(n.Body, true)
						return false
					case *ast.CommClause:
						walk(n.Body, true)
						return false
					}
					return true
				})
			}
		}
	}
	walk(f.l.body.List, false)
	if !agree {
		return 0
	}
	return pol
}

// flagOf reports whether e tests the boolean v alone (v, or !v), and the
// value of v for which it holds.
func (a *Definer) flagOf(e ast.Expr, v types.Object) (yes, ok bool) {
	e = unparen(e)
	yes = true
	if u, isNot := e.(*ast.UnaryExpr); isNot && u.Op == token.NOT {
		e, yes = unparen(u.X), false
	}
	id, isID := e.(*ast.Ident)
	return yes, isID && a.pass.TypesInfo.Uses[id] == v
}

// leavesLoop reports whether a block ends by leaving the loop: a return,
// or a break of the loop (unlabelled only outside nested switch, select
// and for statements, nested true).
func (f *flow) leavesLoop(b *ast.BlockStmt, nested bool) bool {
	if len(b.List) == 0 {
		return false
	}
	switch s := b.List[len(b.List)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		if s.Tok != token.BREAK {
			return false
		}
		if s.Label == nil {
			return !nested
		}
		return f.l.label != nil && f.a.pass.TypesInfo.Uses[s.Label] == f.l.label
	}
	return false
}

// verdictCallback reports whether a call is of a function value (not a
// declared function or method) whose results are a bool and an error.
func (a *Definer) verdictCallback(c *ast.CallExpr) bool {
	if _, ok := a.objOf(c.Fun).(*types.Var); !ok {
		return false
	}
	sig, ok := typeOf(a, c.Fun).Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 2 {
		return false
	}
	r := sig.Results()
	return isBool(r.At(0).Type()) && typesx.IsError(r.At(1).Type()) ||
		typesx.IsError(r.At(0).Type()) && isBool(r.At(1).Type())
}

// namePolarity classifies a predicate or verdict by its name: +1 when
// true means failure (retry wanted, retryable, an error), -1 when it means
// success, else def.
func namePolarity(name string, def int) int {
	n := strings.ToLower(name)
	for _, w := range []string{"success", "succeed", "healthy", "isok", "done", "finished", "complete", "ready"} {
		if strings.Contains(n, w) {
			return -1
		}
	}
	if n == "ok" {
		return -1
	}
	for _, w := range []string{"retr", "again", "transient", "temporar", "recoverable", "backoff", "throttl", "fail", "error", "err"} {
		if strings.Contains(n, w) {
			return +1
		}
	}
	return def
}

// predicate returns the states in which a boolean call holds (want) or
// not: errors.Is and errors.As on the attempt's error, a classifier that
// takes it (isRetryable(err), shouldRetry(resp, err)), or a method of the
// attempt's value (resp.IsSuccess(), err.Temporary()). held names the
// variable the call's value is kept in, "" when none: when it says a
// retry is wanted it gives the polarity that nothing else gives.
func (f *flow) predicate(c *ast.CallExpr, st state, want bool, held string) []state {
	if !isBool(typeOf(f.a, c)) && f.a.tupleVerdict(c) < 0 {
		return []state{st}
	}
	fn := f.a.callee(c)
	name := ""
	if fn != nil {
		name = fn.Name()
		if fn.Pkg() != nil && fn.Pkg().Path() == "errors" && (name == "Is" || name == "As") && len(c.Args) == 2 {
			if want && f.isAttemptErr(c.Args[0], st) {
				if isConflictName(f.a.render(c.Args[1])) || isConflictName(typeOf(f.a, c.Args[1]).String()) {
					st.conflict = true
				}
				if name == "Is" && f.a.isEOF(c.Args[1]) {
					return f.endOfData(c.Args[0], st)
				}
				if name == "Is" && (f.a.answerSentinel(c.Args[1]) || f.a.absentErr(c.Args[1])) {
					return f.answerSaysNo(c.Args[0], st)
				}
				return f.nilTest(c.Args[0], st, false)
			}
			return []state{st}
		}
	} else if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
		name = id.Name
	} else if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		name = sel.Sel.Name
	}
	onErr, onValue := false, false
	args := c.Args
	if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok {
		if _, isMethod := f.a.pass.TypesInfo.Selections[sel]; isMethod {
			args = append([]ast.Expr{sel.X}, args...)
		}
	}
	for _, x := range args {
		switch f.valueOf(x, st) {
		case bAttempt, bConsumer:
			if typesx.IsError(typeOf(f.a, x)) {
				onErr = true
			} else {
				onValue = true
			}
		}
	}
	if !onErr && !onValue {
		return []state{st}
	}
	st.seen = true
	def := 0
	if onErr && !onValue {
		def = +1 // a predicate of an error alone holds for some errors
	}
	if want && onErr && (isConflictName(name) || fn != nil && f.a.conflictPredicate(fn, 0)) {
		st.conflict = true
	}
	if onErr && !onValue && f.a.knownPolarity(fn) == -1 {
		// Its body (or its fact) says it holds for a nil error and no
		// other: a nil test of the error.
		for _, x := range args {
			if f.valueOf(x, st) == bAttempt && typesx.IsError(typeOf(f.a, x)) {
				return f.nilTest(x, st, want)
			}
		}
	}
	pol := f.a.polarity(fn, name, def)
	if pol == 0 && f.argsNameRetry(args) {
		// HasStatusCode(resp, retryOptions.StatusCodes...): a test of the
		// answer against the retry configuration holds for what is retried.
		pol = +1
	}
	if pol == 0 && want && onValue && f.a.statusListTest(fn) {
		// ResponseHasStatusCode(resp, codes...) holds: the answer's
		// status is one its caller lists, which the loop goes round on.
		// It counts with the client errors: a failure status, not one
		// an outage is known to give (a poll that goes round only on it
		// stays a poll).
		if o := st.out &^ (oSuccess | oStatusFail); st.out&(oSuccess|oStatusFail) != 0 {
			return with(st, o|o4xx)
		}
		return []state{st}
	}
	if pol == 0 && namePolarity(held, 0) == +1 {
		// needsRetry = condition(resp, err): the variable says what the
		// predicate holds for (only a retry: a success word of a variable
		// is no more than ok).
		pol = +1
	}
	switch pol {
	case +1:
		if want {
			if onErr && !onValue {
				return with(st, st.out&oErr)
			}
			return with(st, expand(st.out)&oFailure)
		}
	case -1:
		if want && onValue {
			return with(st, expand(st.out)&o2xx)
		}
		if want {
			return with(st, st.out&^oErr)
		}
		if onValue {
			return with(st, expand(st.out)&^o2xx)
		}
	}
	return []state{st}
}

// statusOf recognises the status of the attempt's response: a StatusCode
// field or method of its value (resp.StatusCode, resp.StatusCode(),
// resp.RawResponse.StatusCode), a local assigned from one, and that
// divided by a constant (resp.StatusCode/100). div is the divisor (1 when
// none).
func (f *flow) statusOf(e ast.Expr, st state) (div int64, ok bool) {
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.QUO {
			if d, isConst := f.a.intConst(x.Y); isConst && d > 0 {
				if inner, ok := f.statusOf(x.X, st); ok && inner == 1 {
					return d, true
				}
			}
		}
		return 0, false
	case *ast.CallExpr:
		if len(x.Args) == 0 {
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && isStatusName(sel.Sel.Name) {
				b := f.valueOf(sel.X, st)
				return 1, b == bAttempt || b == bConsumer
			}
		}
	case *ast.SelectorExpr:
		if isStatusName(x.Sel.Name) && isInteger(typeOf(f.a, x)) {
			b := f.valueOf(x.X, st)
			return 1, b == bAttempt || b == bConsumer
		}
	case *ast.Ident:
		o := f.a.pass.TypesInfo.Uses[x]
		if alias := f.l.statusAlias[o]; alias != nil {
			return f.statusOf(alias, st)
		}
		if f.l.statusVars[o] {
			b := f.valueOf(x, st)
			return 1, b == bAttempt || b == bConsumer
		}
	}
	return 0, false
}

func isStatusName(n string) bool { return n == "StatusCode" || n == "Status" || n == "Code" }

func isInteger(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsInteger != 0
}

// statusClasses are the response classes and the statuses that stand for
// them. Success is 200 alone: a loop that returns on 200 and retries the
// rest retries failures.
var statusClasses = []struct {
	o     outcome
	codes []int64
}{
	{o2xx, []int64{200}},
	{o4xx, []int64{400, 401, 403, 404, 409, 412}},
	{o429, []int64{408, 429}},
	{o5xx, []int64{500, 502, 503, 504}},
}

// statusTest returns the states in which status/div op c is want. A class
// goes where any of its statuses goes; an error outcome (no response) goes
// both ways.
func (f *flow) statusTest(div int64, op token.Token, c int64, st state, want bool) []state {
	st.seen = true
	out := expand(st.out)
	o := out & (oErr | oParse)
	for _, cl := range statusClasses {
		if out&cl.o == 0 {
			continue
		}
		for _, code := range cl.codes {
			if compareInts(code/div, op, c) == want {
				o |= cl.o
				break
			}
		}
	}
	return with(st, o)
}

// memberTest reads a status compared with the element of a range over a
// list of statuses (for _, code := range retryOn { if resp.StatusCode ==
// code { ... } }): a test of membership, the list's counterpart of a map
// of booleans by the status. A list of constants (a literal, or a
// variable of the package assigned once from one) holds those statuses;
// a list whose name or type speaks of retries (argsNameRetry) holds the
// failing statuses, as the map does. Out of the list the status may be
// any. Other lists say nothing (ok is false).
func (f *flow) memberTest(div int64, y ast.Expr, op token.Token, st state, want bool) ([]state, bool) {
	if op != token.EQL && op != token.NEQ {
		return nil, false
	}
	list := f.l.rangedList(f.a, y)
	if list == nil {
		return nil, false
	}
	codes, isConst := f.a.constInts(list)
	if !isConst && !f.argsNameRetry([]ast.Expr{list}) {
		return nil, false
	}
	st.seen = true
	if want != (op == token.EQL) {
		return with(st, expand(st.out)), true // out of the list: any status
	}
	if !isConst {
		return with(st, expand(st.out)&^o2xx), true
	}
	var o outcome
	for _, c := range codes {
		for _, s := range f.statusTest(div, token.EQL, c, st, true) {
			o |= s.out
		}
	}
	return with(st, o), true
}

// rangedList returns the list whose elements y ranges over, when y is the
// value of a range statement of the loop's body over a slice or array of
// integers; nil otherwise.
func (l *loop) rangedList(a *Definer, y ast.Expr) ast.Expr {
	id, ok := ast.Unparen(y).(*ast.Ident)
	if !ok {
		return nil
	}
	o := a.pass.TypesInfo.Uses[id]
	if o == nil || !isInteger(o.Type()) {
		return nil
	}
	var list ast.Expr
	ast.Inspect(l.body, func(n ast.Node) bool {
		rs, ok := n.(*ast.RangeStmt)
		if !ok || list != nil {
			return list == nil
		}
		if v, ok := rs.Value.(*ast.Ident); ok && a.pass.TypesInfo.Defs[v] == o {
			switch typeOf(a, rs.X).Underlying().(type) {
			case *types.Slice, *types.Array:
				list = rs.X
			}
		}
		return true
	})
	return list
}

// constInts returns the integer constants of a list literal, directly or
// as the one value of a variable of the package that is never assigned
// again.
func (a *Definer) constInts(list ast.Expr) ([]int64, bool) {
	e := ast.Unparen(list)
	if id, ok := e.(*ast.Ident); ok {
		v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || a.host.Reassigned(v) {
			return nil, false
		}
		e = ast.Unparen(a.host.Definition(v))
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok || len(lit.Elts) == 0 {
		return nil, false
	}
	var out []int64
	for _, el := range lit.Elts {
		c, ok := a.intConst(el)
		if !ok {
			return nil, false
		}
		out = append(out, c)
	}
	return out, true
}

// expand turns an answer whose status was not tested into every class
// of status.
func expand(o outcome) outcome {
	if o&oResp != 0 {
		o = o&^oResp | o2xx | oStatusFail
	}
	return o
}

func compareInts(x int64, op token.Token, y int64) bool {
	switch op {
	case token.EQL:
		return x == y
	case token.NEQ:
		return x != y
	case token.LSS:
		return x < y
	case token.LEQ:
		return x <= y
	case token.GTR:
		return x > y
	case token.GEQ:
		return x >= y
	}
	return false
}

// boolConst returns the value of a constant boolean expression.
func (a *Definer) boolConst(e ast.Expr) (bool, bool) {
	tv, ok := a.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(tv.Value), true
}

// isZeroConst reports whether e is a constant and whether it is zero
// (codes.OK, 0, "").
func (a *Definer) isZeroConst(e ast.Expr) (zero, ok bool) {
	tv, found := a.pass.TypesInfo.Types[e]
	if !found || tv.Value == nil {
		return false, false
	}
	switch tv.Value.Kind() {
	case constant.Int:
		return constant.Sign(tv.Value) == 0, true
	case constant.String:
		return constant.StringVal(tv.Value) == "", true
	}
	return false, true
}

// conflictCodes are the SQLSTATE codes of concurrency conflicts: a
// serialization failure, a deadlock, CockroachDB's restart code.
var conflictCodes = map[string]bool{"40001": true, "40P01": true, "CR000": true}

// isConflictName reports whether a predicate's or error's name says it
// is about concurrency conflicts (IsConflict, ErrSerialization).
func isConflictName(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "conflict") || strings.Contains(n, "serializ")
}

// mentionsAttempt reports whether e refers to a value the attempt
// returned or one made from it (pgErr.Code after errors.As(err, &pgErr)
// does not: pgErr is filled in by the test).
func (f *flow) mentionsAttempt(e ast.Expr, st state) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if x, ok := n.(ast.Expr); ok && !found {
			if b := f.valueOf(x, st); b == bAttempt || b == bConsumer {
				found = true
			}
		}
		return !found
	})
	if found {
		return true
	}
	// A code read from an error value the attempt's error was unwrapped
	// into: errors.As(err, &pgErr) && pgErr.Code == "40001".
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if o := f.a.objOf(sel.X); o != nil && f.l.unwrapped[o] {
		return true
	}
	return false
}

// advancedTest decides x op c for a counter x known to be past its
// initial value c0 (so x >= c0+1) and a constant c, when every such x
// gives the same answer.
func (f *flow) advancedTest(x, y ast.Expr, op token.Token, st state, want bool) ([]state, bool) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil, false
	}
	o := f.a.pass.TypesInfo.Uses[id]
	i := f.slot(o)
	if i < 0 || (st.vals[i] != bAdvanced && st.vals[i] != bPastEnd) {
		return nil, false
	}
	c, ok := f.a.intConst(y)
	var c0 int64
	switch {
	case !ok && o == f.l.counter && f.a.isStartVar(f.l, y):
		// i > start, for i := start: c0 and c are both start.
	case !ok:
		return nil, false
	case o == f.l.counter:
		c0 = f.a.counterStart(f.l)
	default:
		v, ok := f.a.initialConst(f.l, o)
		if !ok {
			return nil, false
		}
		c0 = v
	}
	low := c0 + 1 // x >= low
	var holds bool
	switch op {
	case token.GTR:
		if low <= c {
			return nil, false
		}
		holds = true
	case token.GEQ:
		if low < c {
			return nil, false
		}
		holds = true
	case token.NEQ, token.EQL:
		if c >= low {
			return nil, false
		}
		holds = op == token.NEQ
	case token.LSS, token.LEQ:
		if (op == token.LSS && c > low) || (op == token.LEQ && c >= low) {
			return nil, false
		}
		holds = false
	default:
		return nil, false
	}
	if holds != want {
		return nil, true
	}
	return []state{st}, true
}

// isInterrupt reports whether e is an errno that says a system call was
// interrupted or would block (EINTR, EAGAIN): local, not a failing
// dependency.
func (a *Definer) isInterrupt(e ast.Expr) bool {
	v, ok := a.objOf(e).(*types.Const)
	if !ok || v.Pkg() == nil {
		return false
	}
	switch typesx.TrimVendor(v.Pkg().Path()) {
	case "syscall", "golang.org/x/sys/unix", "internal/syscall/unix":
	default:
		return false
	}
	switch v.Name() {
	case "EINTR", "EAGAIN", "EWOULDBLOCK":
		return true
	}
	return false
}

// isEOF reports whether e is io.EOF or io.ErrUnexpectedEOF (the data
// ended), or io.ErrNoProgress (a read got no data: the answer was empty,
// and a loop that goes round on it waits for data to appear).
func (a *Definer) isEOF(e ast.Expr) bool {
	v, ok := a.objOf(e).(*types.Var)
	if !ok || v.Pkg() == nil || v.Pkg().Path() != "io" {
		return false
	}
	switch v.Name() {
	case "EOF", "ErrUnexpectedEOF", "ErrNoProgress":
		return true
	}
	return false
}

// endOfData returns the state in which the attempt's error x is io.EOF
// (or says there was no data, io.ErrNoProgress): the data ended, or has
// not come yet, which is no failure a retry answers.
func (f *flow) endOfData(x ast.Expr, st state) []state {
	out := f.nilTest(x, st, false)
	for i := range out {
		if out[i].out&oErr != 0 {
			out[i].out = out[i].out&^oErr | oEnd
		}
	}
	return out
}

// answerSaysNo returns the state in which the attempt's error x is an
// answer sentinel of the package (answerSentinel): the dependency
// answered, and its answer said no, which is no failure an outage
// produces.
func (f *flow) answerSaysNo(x ast.Expr, st state) []state {
	out := f.nilTest(x, st, false)
	for i := range out {
		if out[i].out&oErr != 0 {
			out[i].out = out[i].out&^oErr | oParse
		}
	}
	return out
}

// argsNameRetry reports whether an argument of a predicate, or a value it
// is read from, has a name or type that speaks of retries.
func (f *flow) argsNameRetry(args []ast.Expr) bool {
	found := false
	for _, x := range args {
		ast.Inspect(x, func(n ast.Node) bool {
			e, ok := n.(ast.Expr)
			if !ok || found {
				return !found
			}
			if id, ok := e.(*ast.Ident); ok && strings.Contains(strings.ToLower(id.Name), "retr") {
				found = true
			}
			if t := f.a.pass.TypesInfo.TypeOf(e); t != nil {
				if n, ok := types.Unalias(derefType(t)).(*types.Named); ok && strings.Contains(strings.ToLower(n.Obj().Name()), "retr") {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// statusListTest reports whether fn, a predicate of the package, tests the
// status of a response it is given against a list of integers it is given
// too (ResponseHasStatusCode(resp *http.Response, codes ...int) bool): its
// body reads the response's status and uses the list.
func (a *Definer) statusListTest(fn *types.Func) bool {
	if fn == nil {
		return false
	}
	fd := a.host.Decl(fn)
	if fd == nil || fd.Body == nil {
		return false
	}
	var resp, list []types.Object
	for _, fld := range fd.Type.Params.List {
		for _, name := range fld.Names {
			obj := a.pass.TypesInfo.Defs[name]
			if obj == nil {
				continue
			}
			if sl, ok := obj.Type().Underlying().(*types.Slice); ok && isInteger(sl.Elem()) {
				list = append(list, obj)
			} else if statusField(obj.Type()) {
				resp = append(resp, obj)
			}
		}
	}
	if len(resp) == 0 || len(list) == 0 {
		return false
	}
	readsStatus, usesList := false, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && isStatusName(n.Sel.Name) && slices.Contains(resp, a.pass.TypesInfo.Uses[id]) {
				readsStatus = true
			}
		case *ast.Ident:
			if slices.Contains(list, a.pass.TypesInfo.Uses[n]) {
				usesList = true
			}
		}
		return true
	})
	return readsStatus && usesList
}

// statusField reports whether t, or what it points to, is a struct with
// an integer status field (StatusCode, Status, Code).
func statusField(t types.Type) bool {
	st, ok := derefType(t).Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if f := st.Field(i); isStatusName(f.Name()) && isInteger(f.Type()) {
			return true
		}
	}
	return false
}

func derefType(t types.Type) types.Type {
	if p, ok := t.(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// lengthTest reads len(toRetry) == 0 on a list made from the attempt's
// answer whose name says it holds failures (toRetry, failed): non-empty,
// the attempt failed for some of its work; empty, nothing is left. In a
// failover (a range over endpoints, or a picker's), len(addrs) == 0 on
// any list made from the answer, or of it (len(md.Brokers) == 0): empty,
// the endpoint had nothing, and the next is asked.
func (f *flow) lengthTest(x, y ast.Expr, op token.Token, st state, want bool) ([]state, bool) {
	c, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return nil, false
	}
	if id, ok := ast.Unparen(c.Fun).(*ast.Ident); !ok || id.Name != "len" {
		return nil, false
	}
	arg := ast.Unparen(c.Args[0])
	failed := false
	switch x := arg.(type) {
	case *ast.Ident:
		failed = namePolarity(x.Name, 0) == +1
	case *ast.SelectorExpr:
		// len(md.Brokers) == 0: a list of the answer, in a failover.
	default:
		return nil, false
	}
	if !failed && !f.l.failover() {
		return nil, false
	}
	if b := f.valueOf(arg, st); b != bAttempt && b != bConsumer {
		return nil, false
	}
	n, isConst := f.a.intConst(y)
	if !isConst || n != 0 {
		return nil, false
	}
	var empty bool
	switch op {
	case token.EQL, token.LEQ:
		empty = want
	case token.NEQ, token.GTR:
		empty = !want
	default:
		return nil, false
	}
	st.seen = true
	if !failed {
		// Failover: an empty answer moves on to the next endpoint, as
		// a failure does; it is no success, but no failure an outage
		// produces either.
		if !empty {
			return []state{st}, true
		}
		o := st.out & oFailure
		if st.out&oSuccess != 0 {
			o |= oParse
		}
		return with(st, o), true
	}
	if empty {
		return []state{st}, true
	}
	o := st.out & oFailure
	if st.out&oSuccess != 0 {
		o |= oErr
	}
	return with(st, o), true
}

// budgetGiven reads len(budgets) > 0 (!= 0, >= 1, == 0), where budgets is
// the final variadic parameter of the loop's function and the loop asks
// budgets[0]: an optional budget, which a call of the function may leave
// out. Where none was given, the caller chose no budget, and that call is
// where the retries are unbudgeted (a call of a retry helper that passes
// none is reported there): the path counts as guarded, as it does when
// the budget allows the retry. Only the helper's own parameter counts: a
// budget that may be nil elsewhere (x != nil && !x.Allow()) leaves the
// path unguarded.
func (f *flow) budgetGiven(x, y ast.Expr, op token.Token, st state, want bool) ([]state, bool) {
	c, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok || len(c.Args) != 1 {
		return nil, false
	}
	if id, ok := ast.Unparen(c.Fun).(*ast.Ident); !ok || id.Name != "len" {
		return nil, false
	}
	if _, ok := f.a.pass.TypesInfo.Uses[ast.Unparen(c.Fun).(*ast.Ident)].(*types.Builtin); !ok {
		return nil, false
	}
	p := f.optionalBudget(c.Args[0])
	if p == nil {
		return nil, false
	}
	n, isConst := f.a.intConst(y)
	if !isConst {
		return nil, false
	}
	var given bool
	switch {
	case n == 0 && (op == token.GTR || op == token.NEQ), n == 1 && op == token.GEQ:
		given = want
	case n == 0 && (op == token.EQL || op == token.LEQ), n == 1 && op == token.LSS:
		given = !want
	default:
		return nil, false
	}
	if !given {
		st.guarded = true
	}
	return []state{st}, true
}

// optionalBudget returns the final variadic parameter of the loop's
// function that e names, when the loop asks its first element as a
// budget (budgets[0].TryRetry()); nil otherwise.
func (f *flow) optionalBudget(e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := f.a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	var sig *types.Signature
	switch fn := f.l.fn.(type) {
	case *ast.FuncDecl:
		if o, ok := f.a.pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			sig, _ = o.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		sig, _ = f.a.pass.TypesInfo.TypeOf(fn).(*types.Signature)
	}
	if sig == nil || !sig.Variadic() || sig.Params().At(sig.Params().Len()-1) != v {
		return nil
	}
	asked := false
	ast.Inspect(f.l.body, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || asked {
			return !asked
		}
		if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && f.isGuardCall(c) {
			if ix, ok := ast.Unparen(sel.X).(*ast.IndexExpr); ok {
				if n, isConst := f.a.intConst(ix.Index); isConst && n == 0 {
					if xid, ok := ast.Unparen(ix.X).(*ast.Ident); ok && f.a.pass.TypesInfo.Uses[xid] == v {
						asked = true
					}
				}
			}
		}
		return !asked
	})
	if !asked {
		return nil
	}
	return v
}

// conflictPredicate reports whether fn, a function of the package, holds
// only for concurrency conflicts: each of its results is false, a
// comparison with a conflict's SQLSTATE, or a call of such a predicate.
func (a *Definer) conflictPredicate(fn *types.Func, depth int) bool {
	if depth > 3 || fn.Pkg() != a.pass.Pkg {
		return false
	}
	fd := a.host.Decl(fn)
	if fd == nil || fd.Body == nil {
		return false
	}
	found, ok := false, true
	var leaf func(e ast.Expr) bool
	leaf = func(e ast.Expr) bool {
		e = ast.Unparen(e)
		if v, isConst := a.boolConst(e); isConst && !v {
			return true
		}
		switch x := e.(type) {
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LOR:
				return leaf(x.X) && leaf(x.Y)
			case token.LAND:
				return leaf(x.X) || leaf(x.Y)
			case token.EQL:
				for _, side := range []ast.Expr{x.X, x.Y} {
					if s, isStr := a.stringConst(side); isStr && conflictCodes[s] {
						found = true
						return true
					}
				}
			}
		case *ast.CallExpr:
			if c := a.callee(x); c != nil && c != fn && a.conflictPredicate(c, depth+1) {
				found = true
				return true
			}
		}
		return false
	}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if _, isLit := n.(*ast.FuncLit); isLit {
			return false
		}
		if r, isRet := n.(*ast.ReturnStmt); isRet && len(r.Results) == 1 && !leaf(r.Results[0]) {
			ok = false
		}
		return ok
	})
	return ok && found
}

// bodyPolarity infers, from its body, what a boolean function of the
// package says of the error or the response it is given: -1 when it
// holds for success (a nil error, a 2xx status), +1 when it holds for a
// failure status (a 5xx or 429, or every failure), 0 when the body does
// not tell (a predicate that holds for some errors may call them
// retryable or fatal: its name decides, under # Heuristics). The body is
// read when it is a list of if statements that return, and a final
// return, over the parameter compared with nil or its status compared
// with constants; it is evaluated at a nil and a non-nil error, or at
// the statuses 200, 404, 429 and 503.
func (a *Definer) bodyPolarity(fn *types.Func) int {
	fd := a.host.Decl(fn)
	sig := fn.Signature()
	if fd == nil || fd.Body == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !isBool(sig.Results().At(0).Type()) {
		return 0
	}
	p := sig.Params().At(0)
	type world struct {
		nilErr bool
		status int64
	}
	isErr := typesx.IsError(p.Type())
	var worlds []world
	if isErr {
		worlds = []world{{nilErr: true}, {nilErr: false}}
	} else {
		worlds = []world{{status: 200}, {status: 404}, {status: 429}, {status: 503}}
	}
	// eval returns the value of e in w: 1 true, 0 false, -1 unknown.
	var eval func(e ast.Expr, w world) int
	status := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && isStatusName(sel.Sel.Name) && a.objOf(sel.X) == p
	}
	eval = func(e ast.Expr, w world) int {
		e = ast.Unparen(e)
		if v, ok := a.boolConst(e); ok {
			return map[bool]int{true: 1, false: 0}[v]
		}
		switch x := e.(type) {
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				if v := eval(x.X, w); v >= 0 {
					return 1 - v
				}
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LAND, token.LOR:
				l, r := eval(x.X, w), eval(x.Y, w)
				if x.Op == token.LAND {
					switch {
					case l == 0 || r == 0:
						return 0
					case l == 1 && r == 1:
						return 1
					}
				} else {
					switch {
					case l == 1 || r == 1:
						return 1
					case l == 0 && r == 0:
						return 0
					}
				}
				return -1
			case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
				if isErr && (a.objOf(x.X) == p && a.isNil(x.Y) || a.objOf(x.Y) == p && a.isNil(x.X)) {
					eq := w.nilErr
					if x.Op == token.NEQ {
						eq = !eq
					} else if x.Op != token.EQL {
						return -1
					}
					return map[bool]int{true: 1, false: 0}[eq]
				}
				if !isErr {
					l, r, op := x.X, x.Y, x.Op
					if status(r) {
						l, r, op = r, l, flip(op)
					}
					if c, ok := a.intConst(r); ok && status(l) {
						return map[bool]int{true: 1, false: 0}[compareInts(w.status, op, c)]
					}
				}
			}
		}
		return -1
	}
	// run evaluates the body in w.
	run := func(w world) int {
		for _, st := range fd.Body.List {
			switch s := st.(type) {
			case *ast.IfStmt:
				if s.Init != nil || s.Else != nil || len(s.Body.List) != 1 {
					return -1
				}
				ret, ok := s.Body.List[0].(*ast.ReturnStmt)
				if !ok || len(ret.Results) != 1 {
					return -1
				}
				switch eval(s.Cond, w) {
				case 1:
					return eval(ret.Results[0], w)
				case -1:
					return -1
				}
			case *ast.ReturnStmt:
				if len(s.Results) != 1 {
					return -1
				}
				return eval(s.Results[0], w)
			default:
				return -1
			}
		}
		return -1
	}
	var got []int
	for _, w := range worlds {
		v := run(w)
		if v < 0 {
			return 0
		}
		got = append(got, v)
	}
	if isErr {
		if got[0] == 1 && got[1] == 0 {
			return -1 // true for a nil error: it says the attempt succeeded
		}
		return 0
	}
	ok200, fail := got[0] == 1, got[2] == 1 || got[3] == 1
	switch {
	case ok200 && got[3] == 0:
		return -1
	case !ok200 && fail:
		return +1
	}
	return 0
}

// polarity says what a predicate of the attempt's outcome means: from the
// body of a function of the package, or another package's fact
// (PolarityFact, made the same way), else from its name (namePolarity).
func (a *Definer) polarity(fn *types.Func, name string, def int) int {
	if p := a.knownPolarity(fn); p != 0 {
		return p
	}
	return namePolarity(name, def)
}

// knownPolarity is what a function's body or fact says it holds for, 0
// when neither says.
func (a *Definer) knownPolarity(fn *types.Func) int {
	switch {
	case fn == nil:
		return 0
	case fn.Pkg() == a.pass.Pkg:
		return a.Polarity(fn)
	}
	p, _ := a.host.Polarity(fn)
	return p
}

// Polarity returns, for a boolean function of the package, what its body
// says it holds for (see bodyPolarity), memoized.
func (a *Definer) Polarity(fn *types.Func) int {
	fn = fn.Origin()
	if p, ok := a.polarities[fn]; ok {
		return p
	}
	if a.polarities == nil {
		a.polarities = map[*types.Func]int{}
	}
	p := a.bodyPolarity(fn)
	a.polarities[fn] = p
	return p
}

// linear is an integer expression as base + off: base is the source text
// of its variable part ("" for a constant).
type linear struct {
	base string
	off  int64
}

// linearOf reads e as base + off, through + and - of constants.
func (a *Definer) linearOf(e ast.Expr) linear {
	e = ast.Unparen(e)
	if v, ok := a.intConst(e); ok {
		return linear{off: v}
	}
	if b, ok := e.(*ast.BinaryExpr); ok && (b.Op == token.ADD || b.Op == token.SUB) {
		if k, ok := a.intConst(b.Y); ok {
			l := a.linearOf(b.X)
			if b.Op == token.SUB {
				k = -k
			}
			l.off += k
			return l
		}
	}
	return linear{base: types.ExprString(e)}
}

// headerBound returns B for a loop whose header is i < B (or i <= B-1)
// with post i++ of the loop's counter, neither i nor B changed in the
// body and B free of calls; ok is false for other loops.
func (f *flow) headerBound() (linear, bool) {
	if f.l.counter == nil {
		return linear{}, false
	}
	bound, op := f.headerLimit()
	if bound == nil {
		return linear{}, false
	}
	if f.assigns(f.l.counter) || !f.invariant(bound) {
		return linear{}, false
	}
	b := f.a.linearOf(bound)
	if op == token.LEQ {
		b.off++
	}
	return b, true
}

// invariant reports whether x has the same value all through the loop:
// no variable it reads is assigned in the loop, and it calls nothing but
// constant conversions.
func (f *flow) invariant(x ast.Expr) bool {
	for _, o := range identsOf(f.a, x) {
		if f.assigns(o) {
			return false
		}
	}
	invariant := true
	ast.Inspect(x, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if _, isConst := f.a.intConst(call); !isConst {
				invariant = false
			}
		}
		return invariant
	})
	return invariant
}

// assigns reports whether the loop's body assigns o.
func (f *flow) assigns(o types.Object) bool {
	for _, v := range f.l.assigned {
		if types.Object(v) == o {
			return true
		}
	}
	return false
}

// keylessCount returns n for a loop for range n over an integer with no
// key, when n is invariant; nil otherwise.
func (f *flow) keylessCount() ast.Expr {
	rs, ok := f.l.stmt.(*ast.RangeStmt)
	if !ok || rs.Key != nil || f.l.counter != nil {
		return nil
	}
	t, ok := f.a.pass.TypesInfo.TypeOf(rs.X).Underlying().(*types.Basic)
	if !ok || t.Info()&types.IsInteger == 0 || !f.invariant(rs.X) {
		return nil
	}
	return rs.X
}

// NextAttemptFor returns the test that another attempt follows, for a
// loop for range n with no key (RangeCount) once its key is named key.
func (l *Loop) NextAttemptFor(key string) string {
	if l.RangeCount == nil {
		return ""
	}
	return key + "+1 < " + types.ExprString(l.RangeCount)
}

// headerLimit returns what the loop's header compares its counter with,
// and how: Y and < or <= for for i := 0; i < Y; i++, and n and < for for
// i := range n; nil for another header.
func (f *flow) headerLimit() (ast.Expr, token.Token) {
	switch s := f.l.stmt.(type) {
	case *ast.ForStmt:
		post, ok := s.Post.(*ast.IncDecStmt)
		if !ok || post.Tok != token.INC || f.a.objOf(post.X) != f.l.counter {
			return nil, token.ILLEGAL
		}
		c, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
		if !ok || (c.Op != token.LSS && c.Op != token.LEQ) || f.a.objOf(c.X) != f.l.counter {
			return nil, token.ILLEGAL
		}
		return c.Y, c.Op
	case *ast.RangeStmt:
		if s.Key != nil && f.a.objOf(s.Key) == f.l.counter {
			return s.X, token.LSS
		}
	}
	return nil, token.ILLEGAL
}

// counterPlus reads x as the loop's counter (counting up or down) plus a
// constant k.
func (f *flow) counterPlus(x ast.Expr, counter types.Object) (int64, bool) {
	x = ast.Unparen(x)
	if id, ok := x.(*ast.Ident); ok {
		return 0, f.a.objOf(id) == counter
	}
	b, ok := x.(*ast.BinaryExpr)
	if !ok || (b.Op != token.ADD && b.Op != token.SUB) {
		return 0, false
	}
	k, ok := f.a.intConst(b.Y)
	if !ok {
		return 0, false
	}
	if id, ok := ast.Unparen(b.X).(*ast.Ident); !ok || f.a.objOf(id) != counter {
		return 0, false
	}
	if b.Op == token.SUB {
		k = -k
	}
	return k, true
}

// lastTest decides the loop header's test for a counter past its last
// value (bPastEnd: it fails), and reads a test of the body that compares
// the counter (counting up, or down) with the header's bound as saying
// whether another attempt follows: on the branch where none does, the
// counter is bLast.
func (f *flow) lastTest(x, y ast.Expr, op token.Token, st state, want bool) ([]state, bool) {
	counter := f.l.counter
	if counter == nil {
		counter = f.l.countdown
	}
	i := f.slot(counter)
	if i < 0 {
		return nil, false
	}
	if fs, ok := f.l.stmt.(*ast.ForStmt); ok && st.vals[i] == bPastEnd {
		if c, ok := ast.Unparen(fs.Cond).(*ast.BinaryExpr); ok && c.X == x {
			if want {
				return nil, true
			}
			return []state{st}, true
		}
	}
	b, up := f.headerBound()
	var down bool
	if !up {
		if b, down = f.headerCountdown(); !down {
			return nil, false
		}
	}
	k, ok := f.counterPlus(x, counter)
	if !ok {
		return nil, false
	}
	ly := f.a.linearOf(y)
	if ly.base != b.base {
		return nil, false
	}
	t := ly.off - k // the test is i op base+t
	var next bool   // the test holds exactly when another attempt follows
	switch {
	// Counting up, another attempt follows when i < B-1; the last is
	// i == B-1.
	case up && (op == token.LSS && t == b.off-1 || op == token.LEQ && t == b.off-2 || op == token.NEQ && t == b.off-1):
		next = true
	case up && (op == token.GEQ && t == b.off-1 || op == token.GTR && t == b.off-2 || op == token.EQL && t == b.off-1):
		next = false
	// Counting down to a condition r > L, another follows when r > L+1;
	// the last is r == L+1.
	case down && (op == token.GTR && t == b.off+1 || op == token.GEQ && t == b.off+2 || op == token.NEQ && t == b.off+1):
		next = true
	case down && (op == token.LEQ && t == b.off+1 || op == token.LSS && t == b.off+2 || op == token.EQL && t == b.off+1):
		next = false
	default:
		return nil, false
	}
	if want != next {
		st.vals[i] = bLast
	}
	return []state{st}, true
}

// nextAttemptTest returns the source form of the test that another
// attempt follows, for a header headerBound or headerCountdown reads: the
// counter's next value compared with the header's bound as the header
// compares the counter (i+1 < n counting up, r-1 > 0 counting down).
func (f *flow) nextAttemptTest() string {
	if _, ok := f.headerBound(); ok {
		bound, op := f.headerLimit()
		return f.l.counter.Name() + "+1 " + op.String() + " " + types.ExprString(bound)
	}
	if _, ok := f.headerCountdown(); ok {
		c := ast.Unparen(f.l.stmt.(*ast.ForStmt).Cond).(*ast.BinaryExpr)
		return f.l.countdown.Name() + "-1 " + c.Op.String() + " " + types.ExprString(c.Y)
	}
	return ""
}

// headerCountdown reads a header that counts its counter down to a bound
// the loop does not change (for r := n; r > 0; r-- or r >= 1), and returns
// that bound as the last value the condition refuses: the loop's last
// attempt is made with the counter one above it.
func (f *flow) headerCountdown() (linear, bool) {
	s, ok := f.l.stmt.(*ast.ForStmt)
	if !ok || f.l.countdown == nil || f.assigns(f.l.countdown) {
		return linear{}, false
	}
	c, ok := ast.Unparen(s.Cond).(*ast.BinaryExpr)
	if !ok || (c.Op != token.GTR && c.Op != token.GEQ) || f.a.objOf(c.X) != f.l.countdown || !f.invariant(c.Y) {
		return linear{}, false
	}
	b := f.a.linearOf(c.Y)
	if c.Op == token.GEQ {
		b.off--
	}
	return b, true
}
