package fixedattempts

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/typesx"
)

// A loop's fix asks the budget once, where every failing path meets on its
// way to the next attempt after the tests that sort out the failures it
// does not retry (MeetPoint.Sorts), and makes a refused retry do what the
// loop does when its attempts run out, so that the caller sees the failure
// it saw before the fix:
//
//   - when the exit that bounds the attempts (if attempt >= max { return
//     fmt.Errorf(...) }), or in a loop its header counts the test that
//     takes the last attempt out (if attempt == max { return err }, the
//     model's LastExits), is on every failing path, the budget joins its
//     condition: if attempt >= max || !b.TryRetry() { ... };
//   - when the loop ends by its condition or its range (for i := 0; i < 3;
//     i++), the guard breaks out of the loop, at the first meeting point
//     after which the failing paths do nothing the code after the loop
//     could see (they wait, log, count, close a response it reads): what
//     follows the loop returns what it returns after the last attempt.
//     Where an exit of the body that tests the counter may take the last
//     attempt out first (if !retryable || n >= max { break }), nothing
//     between that exit and the guard may set or close what the code
//     after the loop reads (a body rewound into err), since the last
//     attempt does not run it;
//   - otherwise (a loop bounded by nothing or by its context) the guard
//     returns the failure: an error variable that holds it on every
//     failing path, or, for a failure status that came with a nil error,
//     an error naming the status; a response still held is closed first.
//
// When the way to the next attempt is a continue ending the body of an if
// whose condition is the exit that bounds the attempts when it does not
// hold (if willRetry { continue }; return err), the budget joins that
// condition: if willRetry && b.TryRetry() { continue }. A refusal leaves
// by the path the last attempt takes, and the budget is asked only when
// another attempt would follow. A loop bounded by nothing but its context
// is joined the same way where the false branch of such an if hands the
// failure on and leaves (if temporary(err) { continue }; errc <- err;
// return): a refused retry becomes a failure the loop does not retry.
//
// When the failing paths meet only in the post statement or the condition,
// the guard goes at the top of the body, asked from the second iteration
// on: if attempt > 0 && !b.TryRetry() { break }; a loop with no counter
// to say so gets a flag that its first iteration sets (retrying := false
// before the loop; if retrying && !b.TryRetry() { break }; retrying =
// true). When the first attempt is made before the loop (err := call();
// for err != nil && i < n; i++ { ...; err = call() }), every iteration is
// a retry: the guard goes at the top of the body and is asked on each,
// and the request is counted before that first attempt.

type planKind uint8

const (
	planStmt  planKind = iota + 1 // a guard statement at a meeting point
	planMerge                     // the budget joins the condition of the exit that bounds the loop
	planTop                       // a guard at the top of the body, from the second iteration on
	planJoin                      // the budget joins the condition of the continue that is the way to the next attempt
)

// loopPlan is where a loop's guard goes and what a refused retry does.
type loopPlan struct {
	kind  planKind
	point retryloop.Point // planStmt
	exit  *ast.IfStmt     // planMerge, planJoin
	first string          // planTop: the condition that holds on retries only ("" when every iteration is one)
	// flag, for planTop, is a variable the fix declares before the loop
	// and sets after the guard, when no counter tells a retry from the
	// first attempt (first is then the flag).
	flag string
	// next, for planStmt, is the condition that holds when the header
	// allows another attempt ("" when it cannot be written): the guard
	// asks the budget only then.
	next string
	// key, for a range over an integer with no key (for range n), is the
	// key the fix names so that next can be written (for i := range n).
	key string
	// breaks: a refusal leaves the loop (break, or break label).
	breaks   bool
	label    string // the label a refusal breaks to ("" for a plain break)
	newLabel bool   // the fix adds the label to the loop
	ret      refusalReturn
}

// refusalReturn is the return statement of a refusal that does not break.
type refusalReturn struct {
	zeros  []string // the results before the error
	err    string   // the error returned; "" for a function without results
	status string   // when err is nil, it is made from this response's status
	close  string   // a response whose body the refusal closes first
}

// loopInfo is what the planner knows of a loop.
type loopInfo struct {
	pass     *analysis.Pass
	file     *ast.File
	s        *retrysite.Site
	body     *ast.BlockStmt
	fnBody   *ast.BlockStmt
	label    string // the loop's own label
	counters map[types.Object]bool
	outside  map[types.Object]bool // variables used outside the loop (or named results)
}

// planLoop decides a loop's fix, or returns nil when none keeps its
// behaviour.
func planLoop(pass *analysis.Pass, file *ast.File, s *retrysite.Site) *loopPlan {
	lf := s.Loop
	if lf == nil || s.Body == nil {
		return nil
	}
	li := &loopInfo{pass: pass, file: file, s: s, body: s.Body, fnBody: astx.FuncBody(s.Func)}
	if li.fnBody == nil {
		return nil
	}
	if ls := labelOf(file, s.Node); ls != nil {
		li.label = ls.Label.Name
	}
	li.counters = li.advanced()
	li.outside = li.usedOutside()
	if lf.Primed != nil {
		return li.primedPlan()
	}
	lf = li.afterAttempt(lf)

	// The exit that bounds the attempts, when every failing path tests it:
	// the if statement is a meeting point, or the point after it is (a
	// condition that successful paths test too, and hold, as in
	// err == nil || !policy.Retry(): its false branch is reached only by
	// failing paths, and the budget joining it is asked only there).
	for _, mp := range lf.Meets {
		if ifs, ok := li.exitBefore(mp.Point); ok {
			return &loopPlan{kind: planMerge, exit: ifs}
		}
		if ifs, ok := li.continueExit(mp.Point); ok {
			return &loopPlan{kind: planJoin, exit: ifs}
		}
	}
	// A loop that nothing but its context ends: a refusal takes the way
	// out of a failure the loop does not retry.
	if !lf.HeaderBound && (lf.Bound.Kind == retryloop.BoundTime || lf.Bound.Kind == retryloop.Unbounded) {
		for _, mp := range lf.Meets {
			if ifs, ok := li.failureJoin(mp); ok {
				return &loopPlan{kind: planJoin, exit: ifs}
			}
		}
	}
	ends := li.endsByBound()
	if ends {
		for _, mp := range li.straightOn(lf.Meets) {
			rest, nested, ok := li.restAfter(mp)
			// Where the last attempt leaves by an exit before the point,
			// it leaves a response it got open: a refusal may skip its
			// close too.
			exit := li.countExitBefore(mp)
			if !ok || !li.harmless(rest, exit.IsValid()) || li.setBetween(exit, mp) {
				continue
			}
			// The header decides whether another attempt follows: the
			// guard asks only then, so that the budget is never asked
			// for a retry after the last attempt, and a refusal still
			// leaves before the wait.
			p := &loopPlan{kind: planStmt, point: mp, breaks: true, next: li.s.Loop.NextAttempt}
			if p.next == "" && li.s.Loop.RangeCount != nil {
				p.key = fixutil.FreshName(li.pass.TypesInfo, li.file, mp.Stmt.Pos(), "i")
				p.next = li.s.Loop.NextAttemptFor(p.key)
			}
			if nested {
				p.label, p.newLabel = li.label, li.label == ""
			}
			return p
		}
	}
	// A refusal that returns the failure, before the backoff.
	cands := li.returnCandidates(lf.Meets)
	for _, mp := range cands {
		if r, ok := li.refusalAt(mp); ok {
			return &loopPlan{kind: planStmt, point: mp.Point, ret: r}
		}
	}
	// The top of the next iteration.
	if !lf.Next.OnlyFailures {
		return nil
	}
	first, flag := lf.RetryTest, ""
	if first == "" {
		// No counter tells a retry from the first attempt: a flag
		// the first iteration sets does.
		// It is declared before the loop, in the block that holds it.
		flag = fixutil.FreshName(li.pass.TypesInfo, li.file, li.s.Node.Pos()-1, "retrying")
		first = flag
	}
	if ends {
		if len(li.body.List) == 0 {
			return nil
		}
		if end := (retryloop.Point{Stmt: li.body.List[len(li.body.List)-1], After: true}); li.setBetween(li.countExitBefore(end), end) {
			return nil
		}
		return &loopPlan{kind: planTop, first: first, flag: flag, breaks: true}
	}
	if lf.Next.Err == nil || !li.declaredOutside(lf.Next.Err) {
		return nil
	}
	if r, ok := li.returnOf(lf.Next.Err.Name()); ok {
		return &loopPlan{kind: planTop, first: first, flag: flag, ret: r}
	}
	return nil
}

// neverGivesUp reports whether a loop has no way out of a failure to give
// a refusal: no count bounds its attempts (what ends it is a stop, its
// context, a closed check), no exit of its body holds on the last attempt,
// and its function has no result that could hand the failure on. Leaving
// would stop a reconnect or a probe for good, where it now keeps trying.
func neverGivesUp(pass *analysis.Pass, s *retrysite.Site) bool {
	lf := s.Loop
	if lf == nil || lf.HeaderBound || len(lf.LastExits) > 0 || lf.Bound.Kind == retrysite.BoundCount {
		return false
	}
	sig := funcSig(pass, s.Func)
	return sig != nil && sig.Results().Len() == 0 && !handsOn(pass, s.Body)
}

// handsOn reports whether a loop body leaves by a return after a simple
// statement of its block that uses an error the body got (errc <- err;
// return): the failure goes on by another way than a result.
func handsOn(pass *analysis.Pass, body *ast.BlockStmt) bool {
	errs := map[types.Object]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := pass.TypesInfo.Defs[id]; obj != nil && typesx.IsError(obj.Type()) {
				errs[obj] = true
			}
		}
		return true
	})
	uses := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && errs[pass.TypesInfo.Uses[id]] {
				found = true
			}
			return !found
		})
		return found
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		var list []ast.Stmt
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			list = n.List
		case *ast.CaseClause:
			list = n.Body
		case *ast.CommClause:
			list = n.Body
		}
		for i, st := range list {
			if _, ok := st.(*ast.ReturnStmt); ok && slices.ContainsFunc(list[:i], func(st ast.Stmt) bool { return simple(st) && uses(st) }) {
				found = true
			}
		}
		return !found
	})
	return found
}

// primedPlan is the plan of a loop whose first attempt is made before it:
// every iteration of its body is a retry, so the guard goes at the top of
// the body and is asked on every iteration, the first one too. A guard
// after the body's attempt would let the first retry through unasked.
func (li *loopInfo) primedPlan() *loopPlan {
	lf := li.s.Loop
	if !lf.Next.OnlyFailures {
		return nil
	}
	if li.endsByBound() {
		return &loopPlan{kind: planTop, breaks: true}
	}
	if lf.Next.Err == nil || !li.declaredOutside(lf.Next.Err) {
		return nil
	}
	if r, ok := li.returnOf(lf.Next.Err.Name()); ok {
		return &loopPlan{kind: planTop, ret: r}
	}
	return nil
}

// straightOn returns the meeting points with, after each, the points
// after the simple statements that follow it in its list (assignments,
// calls): every failing path passes those too, and a guard there sees
// what they did (lastErr = err, as the last statement of the body).
func (li *loopInfo) straightOn(meets []retryloop.MeetPoint) []retryloop.Point {
	var out []retryloop.Point
	seen := map[retryloop.Point]bool{}
	add := func(p retryloop.Point) {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, mp := range meets {
		add(mp.Point)
		list, i := li.listOf(mp.Stmt)
		if list == nil {
			continue
		}
		if mp.After {
			i++
		}
		for ; i < len(list) && simple(list[i]); i++ {
			add(retryloop.Point{Stmt: list[i], After: true})
		}
	}
	return out
}

// countExitBefore returns the end of the last exit of the body before the
// point p, after the attempt, that tests the loop's counter (if
// !retryable || n >= max { break }): the last attempt may leave there.
// It returns token.NoPos when there is none.
func (li *loopInfo) countExitBefore(p retryloop.Point) token.Pos {
	at := p.Stmt.Pos()
	if p.After {
		at = p.Stmt.End()
	}
	from := token.NoPos
	ast.Inspect(li.body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if ok && ifs.End() <= at && ifs.Pos() >= li.s.Loop.Attempt.End() && ifs.End() > from && li.countExit(ifs) {
			from = ifs.End()
		}
		return true
	})
	return from
}

// setBetween reports whether a failing path sets, between from, the end
// of the exit countExitBefore finds, and the point p, a variable the code
// after the loop reads (body, err = req.GetBody()) or closes what one
// holds (res.Body.Close()): the last attempt may leave by that exit and
// not run those statements, so a refusal that breaks at p would not leave
// the way the last attempt does. Without such an exit (from invalid) the
// last attempt runs them too.
func (li *loopInfo) setBetween(from token.Pos, p retryloop.Point) bool {
	at := p.Stmt.Pos()
	if p.After {
		at = p.Stmt.End()
	}
	if !from.IsValid() {
		return false
	}
	set := false
	astx.InspectNoLit(li.body, func(n ast.Node) bool {
		if n == nil || set || n.End() <= from || n.Pos() >= at {
			return false // done, or wholly outside the stretch
		}
		var lhs []ast.Expr
		switch x := n.(type) {
		case *ast.AssignStmt:
			lhs = x.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{x.X}
		case *ast.CallExpr:
			// res.Body.Close(): what the code after the loop reads is
			// closed.
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Close" {
				lhs = []ast.Expr{sel.X}
			}
		}
		for _, l := range lhs {
			if id := astx.RootIdent(l); id != nil && li.outside[li.objOf(id)] {
				set = true
			}
		}
		return !set
	})
	return set
}

// countExit reports whether an if statement tests a counter of the loop
// and its body ends in a jump (a break, a goto, a return).
func (li *loopInfo) countExit(ifs *ast.IfStmt) bool {
	if len(ifs.Body.List) == 0 {
		return false
	}
	switch j := ifs.Body.List[len(ifs.Body.List)-1].(type) {
	case *ast.ReturnStmt:
	case *ast.BranchStmt:
		if j.Tok == token.CONTINUE || j.Tok == token.FALLTHROUGH {
			return false
		}
	default:
		return false
	}
	for o := range li.counters {
		if typesx.Refers(li.pass.TypesInfo, ifs.Cond, o) {
			return true
		}
	}
	return false
}

// listOf returns the statement list of the body that holds st, and its
// index there.
func (li *loopInfo) listOf(st ast.Stmt) ([]ast.Stmt, int) {
	var list []ast.Stmt
	idx := -1
	var find func([]ast.Stmt)
	find = func(l []ast.Stmt) {
		for i, x := range l {
			if x == st {
				list, idx = l, i
				return
			}
			if x.Pos() <= st.Pos() && st.End() <= x.End() {
				for _, sub := range childLists(x) {
					find(sub)
				}
				return
			}
		}
	}
	find(li.body.List)
	return list, idx
}

// simple reports whether a statement runs on to the next one.
func simple(st ast.Stmt) bool {
	switch s := st.(type) {
	case *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt, *ast.EmptyStmt, *ast.SendStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := ast.Unparen(s.X).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "panic" {
				return false
			}
		}
		return true
	}
	return false
}

// afterAttempt returns the loop's facts with only the meeting points
// after the attempt: a statement of the body before the attempt is passed
// on the first iteration too, before any failure, where a guard would ask
// the budget for the first attempt. Nor does it keep a point after which
// a failure may still be sorted out (MeetPoint.Sorts, if !retryable(err)
// { return err }): a refusal there would return what the last attempt
// returns where the exit returns something else.
func (li *loopInfo) afterAttempt(lf *retryloop.Loop) *retryloop.Loop {
	out := *lf
	out.Meets = nil
	for _, mp := range lf.Meets {
		at := mp.Stmt.Pos()
		if mp.After {
			at = mp.Stmt.End()
		}
		if at >= lf.Attempt.End() && !mp.Sorts {
			out.Meets = append(out.Meets, mp)
		}
	}
	return &out
}

// returnCandidates orders the meeting points for a refusal that returns:
// from the first wait (the backoff) on, else from the last point back.
func (li *loopInfo) returnCandidates(meets []retryloop.MeetPoint) []retryloop.MeetPoint {
	for i, mp := range meets {
		if li.beforeWait(mp.Point) {
			return meets[i:]
		}
	}
	out := make([]retryloop.MeetPoint, 0, len(meets))
	for i := len(meets) - 1; i >= 0; i-- {
		out = append(out, meets[i])
	}
	return out
}

// beforeWait reports whether a point is just before a wait: before the
// statement, or after the one before it.
func (li *loopInfo) beforeWait(p retryloop.Point) bool {
	if !p.After {
		return li.isWait(p.Stmt)
	}
	list, i := li.listOf(p.Stmt)
	return list != nil && i+1 < len(list) && li.isWait(list[i+1])
}

// refusalAt returns the refusal of a guard at a meeting point: a return of
// an error that holds the failure there on every failing path.
func (li *loopInfo) refusalAt(mp retryloop.MeetPoint) (refusalReturn, bool) {
	at := mp.Stmt.Pos()
	if mp.After {
		at = mp.Stmt.End()
	}
	var r refusalReturn
	var ok bool
	switch {
	case mp.Err != nil && li.inScope(mp.Err, at):
		r, ok = li.returnOf(mp.Err.Name())
	case mp.NilOnStatus != nil && li.inScope(mp.NilOnStatus, at) && li.httpResponse(at):
		r, ok = li.returnOf(mp.NilOnStatus.Name())
		r.status = li.s.Loop.Resp.Name()
	}
	if !ok || r.err == "" {
		return r, false
	}
	if mp.Status && li.httpResponse(at) && !li.closedBefore(mp.Point) {
		r.close = li.s.Loop.Resp.Name()
	}
	return r, true
}

// httpResponse reports whether the loop's response is an *http.Response
// in scope at pos (it has a Status and a Body).
func (li *loopInfo) httpResponse(pos token.Pos) bool {
	resp := li.s.Loop.Resp
	if resp == nil || !li.inScope(resp, pos) {
		return false
	}
	p, ok := resp.Type().(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Name() == "Response" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "net/http"
}

// closedBefore reports whether a statement on every failing path before
// the point closes the response's body.
func (li *loopInfo) closedBefore(p retryloop.Point) bool {
	resp := li.s.Loop.Resp
	for _, mp := range li.s.Loop.Meets {
		if mp.Point == p {
			break
		}
		es, ok := mp.Stmt.(*ast.ExprStmt)
		if mp.After || !ok {
			continue
		}
		if c, ok := ast.Unparen(es.X).(*ast.CallExpr); ok && li.closesBody(c, resp) {
			return true
		}
	}
	return false
}

// closesBody reports whether c is resp.Body.Close().
func (li *loopInfo) closesBody(c *ast.CallExpr, resp types.Object) bool {
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Close" {
		return false
	}
	body, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
	if !ok || body.Sel.Name != "Body" {
		return false
	}
	id, ok := ast.Unparen(body.X).(*ast.Ident)
	return ok && li.pass.TypesInfo.Uses[id] == resp
}

// returnOf returns the refusal that returns the error named err, with the
// zero values of the other results; ok is false when the function's last
// result is not an error or a zero value cannot be written.
func (li *loopInfo) returnOf(err string) (refusalReturn, bool) {
	sig := funcSig(li.pass, li.s.Func)
	if sig == nil {
		return refusalReturn{}, false
	}
	res := sig.Results()
	if res.Len() == 0 || !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return refusalReturn{}, false
	}
	r := refusalReturn{err: err}
	for i := 0; i < res.Len()-1; i++ {
		z := fixutil.ZeroValue(res.At(i).Type(), li.pass.Pkg)
		if z == "" {
			return refusalReturn{}, false
		}
		r.zeros = append(r.zeros, z)
	}
	return r, true
}

// funcSig returns the signature of a function declaration or literal.
func funcSig(pass *analysis.Pass, fn ast.Node) *types.Signature {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			return obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		sig, _ := pass.TypesInfo.TypeOf(fn).(*types.Signature)
		return sig
	}
	return nil
}

// inScope reports whether obj is what its name denotes at pos.
func (li *loopInfo) inScope(obj types.Object, pos token.Pos) bool {
	scope := li.pass.TypesInfo.Scopes[li.file]
	if scope == nil {
		return false
	}
	_, found := scope.Innermost(pos).LookupParent(obj.Name(), pos)
	return found == obj
}

// declaredOutside reports whether v is declared before the loop, outside
// its body, and visible at the top of the body.
func (li *loopInfo) declaredOutside(v types.Object) bool {
	if v.Pos() >= li.s.Node.Pos() && v.Pos() < li.s.Node.End() {
		return false
	}
	return li.inScope(v, li.body.Lbrace+1)
}

// advanced returns the variables the loop counts with: those its post
// statement or its body increments, and a range's key over an integer.
func (li *loopInfo) advanced() map[types.Object]bool {
	out := map[types.Object]bool{}
	add := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if o := li.objOf(id); o != nil {
				out[o] = true
			}
		}
	}
	visit := func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IncDecStmt:
			add(n.X)
		case *ast.AssignStmt:
			if n.Tok == token.ADD_ASSIGN || n.Tok == token.SUB_ASSIGN {
				for _, l := range n.Lhs {
					add(l)
				}
			}
		}
		return true
	}
	switch l := li.s.Node.(type) {
	case *ast.ForStmt:
		if l.Post != nil {
			astx.InspectNoLit(l.Post, visit)
		}
	case *ast.RangeStmt:
		if l.Key != nil {
			add(l.Key)
		}
	}
	astx.InspectNoLit(li.body, visit)
	return out
}

func (li *loopInfo) objOf(id *ast.Ident) types.Object {
	if o := li.pass.TypesInfo.Uses[id]; o != nil {
		return o
	}
	return li.pass.TypesInfo.Defs[id]
}

// usedOutside returns the variables assigned in the loop that the
// function uses outside it, and its named results (a bare return reads
// them).
func (li *loopInfo) usedOutside() map[types.Object]bool {
	out := map[types.Object]bool{}
	loop := li.s.Node
	ast.Inspect(li.fnBody, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if id.Pos() >= loop.Pos() && id.Pos() < loop.End() {
			return true
		}
		if o, ok := li.pass.TypesInfo.Uses[id].(*types.Var); ok {
			out[o] = true
		}
		return true
	})
	// Uses inside function literals of the loop run later, maybe after it.
	astx.InspectNoLit(li.body, func(n ast.Node) bool {
		if lit, ok := n.(*ast.FuncLit); ok {
			ast.Inspect(lit, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					if o, ok := li.pass.TypesInfo.Uses[id].(*types.Var); ok {
						out[o] = true
					}
				}
				return true
			})
		}
		return true
	})
	if sig := funcSig(li.pass, li.s.Func); sig != nil {
		for v := range sig.Results().Variables() {
			if v.Name() != "" {
				out[v] = true
			}
		}
	}
	return out
}

// endsByBound reports whether the loop's attempts run out by its
// condition or its range: a count, a clock, or the end of a list of
// endpoints, so that what follows the loop is what the loop does after its
// last attempt.
func (li *loopInfo) endsByBound() bool {
	return li.s.Loop.HeaderBound && !li.condReadAfter()
}

// condReadAfter reports whether the function reads, after the loop, a
// value its condition tests and its body does not assign (return "",
// ctx.Err() after for ctx.Err() == nil; if i == n after for i = 0; i < n;
// i++): there it tells a loop its condition ended from one a break left,
// so a refusal that breaks would not leave the way the last attempt does.
// What the body assigns (err in for err != nil && r < 3) holds at a
// refusal what it holds after the last attempt: the failure. A read in a
// call statement (a log line) decides nothing. A value is a
// local variable or a field reached through one (c.pool), read where the
// same selection or a longer one is (c.pool[0]). A context's method
// (ctx.Err()) tests the context, which ends with no assignment; another
// method's receiver (c.MaxRetries()) is not taken for a value it tests.
func (li *loopInfo) condReadAfter() bool {
	fs, ok := li.s.Node.(*ast.ForStmt)
	if !ok || fs.Cond == nil {
		return false
	}
	info := li.pass.TypesInfo
	// chain renders a local variable, or a selection of fields from one.
	var chain func(e ast.Expr) string
	chain = func(e ast.Expr) string {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			if v, ok := info.Uses[x].(*types.Var); ok && !v.IsField() && v.Parent() != v.Pkg().Scope() {
				return x.Name
			}
			if v, ok := info.Defs[x].(*types.Var); ok && !v.IsField() {
				return x.Name
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.FieldVal {
				if c := chain(x.X); c != "" {
					return c + "." + x.Sel.Name
				}
			}
		}
		return ""
	}
	tested := map[string]bool{}
	ast.Inspect(fs.Cond, func(n ast.Node) bool {
		e, ok := n.(ast.Expr)
		if !ok {
			return true
		}
		if sel, ok := e.(*ast.SelectorExpr); ok {
			if s, ok := info.Selections[sel]; ok && s.Kind() == types.MethodVal && !typesx.IsNamed(s.Recv(), "context", "Context") {
				return false // c.MaxRetries(): a method of the configuration
			}
		}
		if c := chain(e); c != "" {
			tested[c] = true
			return false
		}
		return true
	})
	ast.Inspect(fs.Body, func(n ast.Node) bool {
		var lhs []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			lhs = n.Lhs
		case *ast.IncDecStmt:
			lhs = []ast.Expr{n.X}
		}
		for _, e := range lhs {
			if c := chain(e); c != "" {
				for t := range tested {
					if t == c || strings.HasPrefix(t, c+".") {
						delete(tested, t)
					}
				}
			}
		}
		return true
	})
	if len(tested) == 0 {
		return false
	}
	read := false
	ast.Inspect(li.fnBody, func(n ast.Node) bool {
		if _, ok := n.(*ast.ExprStmt); ok {
			return false // a call made for its effect (a log line) decides nothing
		}
		if e, ok := n.(ast.Expr); ok && e.Pos() > fs.End() && tested[chain(e)] {
			read = true
		}
		return !read
	})
	return read
}

func callee(pass *analysis.Pass, c *ast.CallExpr) *types.Func {
	fun := ast.Unparen(c.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(x.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(x.X)
	}
	switch f := fun.(type) {
	case *ast.Ident:
		fn, _ := pass.TypesInfo.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := pass.TypesInfo.Uses[f.Sel].(*types.Func)
		return fn
	}
	return nil
}

// exitBefore returns the if statement that bounds the attempts at a
// meeting point or just before it: the point is the if statement, the
// point after it, or the point before the statement that follows it.
func (li *loopInfo) exitBefore(p retryloop.Point) (*ast.IfStmt, bool) {
	if ifs, ok := p.Stmt.(*ast.IfStmt); ok && li.boundExit(ifs) {
		return ifs, true
	}
	if p.After {
		return nil, false
	}
	list, i := li.listOf(p.Stmt)
	if list == nil || i == 0 {
		return nil, false
	}
	ifs, ok := list[i-1].(*ast.IfStmt)
	return ifs, ok && li.boundExit(ifs)
}

// continueExit returns the if statement whose body runs on from the
// point p through simple statements to a continue of the loop that ends
// it, when the if has no else and its condition is the exit that bounds
// the attempts on its false branch: the loop leaves after the if when no
// attempt is left.
func (li *loopInfo) continueExit(p retryloop.Point) (*ast.IfStmt, bool) {
	ifs := li.continueIf(p)
	if ifs == nil {
		return nil, false
	}
	e, ok := li.s.Loop.BoundExitAt(ifs.Cond)
	return ifs, ok && !e.OnYes
}

// failureJoin returns the if statement whose body runs on from the
// meeting point to a continue of the loop (as continueExit's), when its
// false branch hands the failure on and leaves: simple statements and a
// return, which name the error that holds the failure at the point (and
// return it, where the function returns an error), as in
//
//	if isTemporary(err) { continue }
//	errc <- err
//	return
//
// The budget joining the condition makes a refused retry a failure the
// loop does not retry, which the code reports its own way; it is asked
// only when the condition would retry.
func (li *loopInfo) failureJoin(mp retryloop.MeetPoint) (*ast.IfStmt, bool) {
	ifs := li.continueIf(mp.Point)
	if ifs == nil || mp.Err == nil {
		return nil, false
	}
	if _, ok := li.s.Loop.BoundExitAt(ifs.Cond); ok {
		return nil, false
	}
	rest, _, ok := li.restAfter(retryloop.Point{Stmt: ifs, After: true})
	if !ok || len(rest) == 0 {
		return nil, false
	}
	ret, ok := rest[len(rest)-1].(*ast.ReturnStmt)
	if !ok {
		return nil, false
	}
	for _, st := range rest[:len(rest)-1] {
		if !simple(st) {
			return nil, false
		}
	}
	names := func(n ast.Node) bool { return typesx.Refers(li.pass.TypesInfo, n, mp.Err) }
	if len(ret.Results) > 0 {
		// The function's error is the last result: it must carry the
		// failure, so that a refused retry still fails.
		sig := funcSig(li.pass, li.s.Func)
		res := sig.Results()
		if len(ret.Results) != res.Len() || !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
			return nil, false
		}
		return ifs, names(ret.Results[len(ret.Results)-1])
	}
	if sig := funcSig(li.pass, li.s.Func); sig == nil || sig.Results().Len() > 0 {
		return nil, false // a bare return of named results
	}
	for _, st := range rest {
		if names(st) {
			return ifs, true
		}
	}
	return nil, false
}

// continueIf returns the if statement, with no else, whose body runs on
// from the point p through simple statements to a continue of the loop
// that ends it; nil if there is none.
func (li *loopInfo) continueIf(p retryloop.Point) *ast.IfStmt {
	list, i := li.listOf(p.Stmt)
	if list == nil {
		return nil
	}
	if p.After {
		i++
	}
	if i >= len(list) {
		return nil
	}
	for _, st := range list[i : len(list)-1] {
		if !simple(st) {
			return nil // a path may leave before the continue
		}
	}
	br, ok := list[len(list)-1].(*ast.BranchStmt)
	if !ok || br.Tok != token.CONTINUE || br.Label != nil && br.Label.Name != li.label {
		return nil
	}
	var ifs *ast.IfStmt
	ast.Inspect(li.body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.ForStmt, *ast.RangeStmt:
			return false // a continue there is of another loop
		case *ast.IfStmt:
			if body := n.Body.List; n.Else == nil && len(body) > 0 && body[len(body)-1] == br {
				ifs = n
			}
		}
		return ifs == nil
	})
	return ifs
}

// boundExit reports whether an if statement is the exit that bounds the
// attempts: its condition counts or times them, and its body leaves the
// loop on every path.
func (li *loopInfo) boundExit(ifs *ast.IfStmt) bool {
	if k := li.s.Loop.Bound.Kind; k != retryloop.BoundCount && k != retryloop.BoundTime && !li.countsIn(ifs.Cond) && !li.asksAbout(ifs.Cond) {
		// A stop (c.closed(), the client's status) that no count enters,
		// unlike a policy's verdict on the attempt's number (!p.Retry(n))
		// or on what it did (!c.retry.Attempt(q)): leaving there is being
		// stopped, not giving up.
		return false
	}
	e, ok := li.s.Loop.BoundExitAt(ifs.Cond)
	return ok && e.OnYes && len(ifs.Body.List) > 0 && !li.ctxEnd(ifs.Body)
}

// asksAbout reports whether e calls a function about something: with an
// argument that is no context, channel or duration (a policy's verdict,
// c.retry.Attempt(q)), where a stop asks a value about itself
// (c.closed(), ctx.Err()) or only waits (sleep(ctx, d)).
func (li *loopInfo) asksAbout(e ast.Expr) bool {
	found := false
	astx.InspectNoLit(e, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		for _, a := range c.Args {
			t := li.pass.TypesInfo.TypeOf(a)
			if t == nil || typesx.IsNamed(t, "context", "Context") || durkind.IsDuration(t) {
				continue
			}
			if _, isChan := t.Underlying().(*types.Chan); isChan {
				continue
			}
			found = true
		}
		return !found
	})
	return found
}

// countsIn reports whether e uses a counter the loop advances, or a
// variable the body assigns from one (retry, why := s.shouldRetry(err,
// n), then !retry).
func (li *loopInfo) countsIn(e ast.Expr) bool {
	uses := func(n ast.Node) bool {
		for o := range li.counters {
			if typesx.Refers(li.pass.TypesInfo, n, o) {
				return true
			}
		}
		return false
	}
	if uses(e) {
		return true
	}
	found := false
	astx.InspectNoLit(li.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found {
			return !found
		}
		if !slices.ContainsFunc(as.Rhs, func(r ast.Expr) bool { return uses(r) }) {
			return true
		}
		for _, l := range as.Lhs {
			id, ok := ast.Unparen(l).(*ast.Ident)
			if !ok {
				continue
			}
			if o := li.pass.TypesInfo.ObjectOf(id); o != nil && typesx.Refers(li.pass.TypesInfo, e, o) {
				found = true
			}
		}
		return !found
	})
	return found
}

// ctxEnd reports whether a block returns the error of a context (return
// nil, r.Context().Err(), context.Cause(ctx)): it is the exit of the
// context's end, not of the last attempt, and a refusal joined to it would
// return that error, nil while the context lives.
func (li *loopInfo) ctxEnd(b *ast.BlockStmt) bool {
	found := false
	astx.InspectNoLit(b, func(n ast.Node) bool {
		ret, ok := n.(*ast.ReturnStmt)
		if !ok || found {
			return !found
		}
		for _, r := range ret.Results {
			astx.InspectNoLit(r, func(n ast.Node) bool {
				c, ok := n.(*ast.CallExpr)
				if !ok {
					return !found
				}
				if fn, _ := typeutil.Callee(li.pass.TypesInfo, c).(*types.Func); retryloop.ContextErr(fn) {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}

func breakable(n ast.Node) bool {
	switch n.(type) {
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.ForStmt, *ast.RangeStmt:
		return true
	}
	return false
}

// restAfter returns the statements a failing path may run after the point
// before the next iteration: the point's statement and those after it in
// its list and in each enclosing list of the body, up to a jump that
// leaves those lists (a return, a panic, a continue or break of the retry
// loop). nested says the point is inside a switch, select or loop of the
// body; ok is false when the point is not in the body's lists.
func (li *loopInfo) restAfter(p retryloop.Point) (rest []ast.Stmt, nested, ok bool) {
	// levels are the lists from the body's down to the point's, each
	// with the index of the statement on the way to the point.
	type level struct {
		list []ast.Stmt
		i    int
	}
	var levels []level
	var find func(list []ast.Stmt) bool
	find = func(list []ast.Stmt) bool {
		for i, st := range list {
			if st == p.Stmt {
				levels = append(levels, level{list, i})
				return true
			}
			if !(st.Pos() <= p.Stmt.Pos() && p.Stmt.End() <= st.End()) {
				continue
			}
			for _, sub := range childLists(st) {
				levels = append(levels, level{list, i})
				if find(sub) {
					return true
				}
				levels = levels[:len(levels)-1]
			}
			return false
		}
		return false
	}
	if !find(li.body.List) {
		return nil, false, false
	}
	inner := levels[len(levels)-1]
	if p.After {
		rest = append(rest, inner.list[inner.i+1:]...)
	} else {
		rest = append(rest, inner.list[inner.i:]...)
	}
	// encl are the statements that enclose the point, innermost first.
	encl := make([]ast.Stmt, 0, len(levels)-1)
	for k := len(levels) - 2; k >= 0; k-- {
		encl = append(encl, levels[k].list[levels[k].i])
	}
	for _, st := range encl {
		if breakable(st) {
			nested = true
		}
	}
	if leavesLoop(rest, encl) {
		return rest, nested, true
	}
	for k := len(levels) - 2; k >= 0; k-- {
		rest = append(rest, levels[k].list[levels[k].i+1:]...)
	}
	return rest, nested, true
}

// leavesLoop reports whether a list of statements, inside the enclosing
// statements encl of the retry loop's body (innermost first), ends in a
// jump that skips the rest of every enclosing list: a return, a panic, an
// unlabelled continue that no loop of encl catches, or an unlabelled break
// that no loop, switch or select of encl catches.
func leavesLoop(list []ast.Stmt, encl []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	catches := func(loopsOnly bool) bool {
		for _, st := range encl {
			switch st.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				return true
			case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if !loopsOnly {
					return true
				}
			}
		}
		return false
	}
	switch last := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		if c, ok := ast.Unparen(last.X).(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok && id.Name == "panic" {
				return true
			}
		}
	case *ast.BranchStmt:
		if last.Label != nil {
			return false
		}
		switch last.Tok {
		case token.CONTINUE:
			return !catches(true)
		case token.BREAK:
			return !catches(false)
		}
	}
	return false
}

// childLists returns the statement lists directly inside a statement.
func childLists(st ast.Stmt) [][]ast.Stmt {
	switch s := st.(type) {
	case *ast.BlockStmt:
		return [][]ast.Stmt{s.List}
	case *ast.IfStmt:
		out := [][]ast.Stmt{s.Body.List}
		switch e := s.Else.(type) {
		case *ast.BlockStmt:
			out = append(out, e.List)
		case *ast.IfStmt:
			out = append(out, []ast.Stmt{e})
		}
		return out
	case *ast.LabeledStmt:
		return [][]ast.Stmt{{s.Stmt}}
	case *ast.SwitchStmt:
		var out [][]ast.Stmt
		for _, c := range s.Body.List {
			out = append(out, c.(*ast.CaseClause).Body)
		}
		return out
	case *ast.TypeSwitchStmt:
		var out [][]ast.Stmt
		for _, c := range s.Body.List {
			out = append(out, c.(*ast.CaseClause).Body)
		}
		return out
	case *ast.SelectStmt:
		var out [][]ast.Stmt
		for _, c := range s.Body.List {
			out = append(out, c.(*ast.CommClause).Body)
		}
		return out
	}
	return nil
}

// harmless reports whether skipping the statements changes nothing the
// code after the loop sees: they wait, log, jump, or set variables used
// only inside the loop.
func (li *loopInfo) harmless(list []ast.Stmt, handOn bool) bool {
	for _, st := range list {
		if !li.harmlessStmt(st, handOn) {
			return false
		}
	}
	return true
}

func (li *loopInfo) harmlessStmt(st ast.Stmt, handOn bool) bool {
	switch s := st.(type) {
	case nil, *ast.EmptyStmt, *ast.BranchStmt, *ast.ReturnStmt:
		return true
	case *ast.ExprStmt:
		return li.isWait(s) || li.isLog(s.X) || handOn && li.closesHandedOn(s.X)
	case *ast.AssignStmt:
		for _, l := range s.Lhs {
			if !li.localVar(l) {
				return false
			}
		}
		return true
	case *ast.IncDecStmt:
		return li.localVar(s.X)
	case *ast.DeclStmt:
		return true // declares variables of the body
	case *ast.BlockStmt:
		return li.harmless(s.List, handOn)
	case *ast.LabeledStmt:
		return li.harmlessStmt(s.Stmt, handOn)
	case *ast.IfStmt:
		if s.Init != nil && !li.harmlessStmt(s.Init, handOn) {
			return false
		}
		if !li.harmless(s.Body.List, handOn) {
			return false
		}
		return s.Else == nil || li.harmlessStmt(s.Else, handOn)
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			if _, send := cc.Comm.(*ast.SendStmt); send || !li.harmless(cc.Body, handOn) {
				return false
			}
		}
		return true
	case *ast.SwitchStmt:
		if s.Init != nil && !li.harmlessStmt(s.Init, handOn) {
			return false
		}
		for _, c := range s.Body.List {
			if !li.harmless(c.(*ast.CaseClause).Body, handOn) {
				return false
			}
		}
		return true
	}
	return false
}

// closesHandedOn reports whether e closes what a variable the code after
// the loop reads holds (resp.Body.Close()): where the last attempt leaves
// before such a close, a refusal that skips it hands the response on
// open, as the last attempt does.
func (li *loopInfo) closesHandedOn(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(c.Args) != 0 {
		return false
	}
	sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Close" {
		return false
	}
	id := astx.RootIdent(sel.X)
	return id != nil && li.outside[li.objOf(id)]
}

// localVar reports whether an assigned expression is a variable that no
// code outside the loop reads.
func (li *loopInfo) localVar(e ast.Expr) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	if id.Name == "_" {
		return true
	}
	o := li.objOf(id)
	if o == nil {
		return false
	}
	return !li.outside[o]
}

// isWait reports whether a statement waits between attempts: a sleep, a
// timer, a select, or a call of a backoff helper, also as an if's
// condition (if err := sleep(ctx, d); err != nil { ... }).
func (li *loopInfo) isWait(st ast.Stmt) bool {
	switch s := st.(type) {
	case *ast.SelectStmt, *ast.ExprStmt:
		return li.s.Loop.WaitIn(s)
	case *ast.IfStmt:
		if s.Init != nil && li.s.Loop.WaitIn(s.Init) {
			return true
		}
		return li.s.Loop.WaitIn(s.Cond)
	}
	return false
}

// isLog reports whether an expression logs: a call into log, log/slog, a
// Printf-like function or a method named like a logger's.
func (li *loopInfo) isLog(e ast.Expr) bool {
	c, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	fn := callee(li.pass, c)
	if fn == nil {
		return false
	}
	if fn.Pkg() != nil && (fn.Pkg().Path() == "log" || fn.Pkg().Path() == "log/slog") {
		return !strings.HasPrefix(fn.Name(), "Fatal") && !strings.HasPrefix(fn.Name(), "Panic")
	}
	name := fn.Name()
	for _, p := range []string{"Print", "Log", "Debug", "Info", "Warn", "Trace"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return name == "Errorf" && fn.Type().(*types.Signature).Results().Len() == 0
}

// render returns the edits of a plan, with ref the budget.
func (p *loopPlan) render(pass *analysis.Pass, file *ast.File, s *retrysite.Site, ref budgetRef) ([]analysis.TextEdit, bool) {
	var edits []analysis.TextEdit
	refuse := "!" + ref.expr + ".TryRetry()"
	if ref.given != "" {
		refuse = ref.given + " && " + refuse
	}
	switch p.kind {
	case planMerge:
		at := p.exit.Cond.End()
		if ref.given != "" {
			refuse = "(" + refuse + ")"
		}
		return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(" || " + refuse)}}, true
	case planJoin:
		allow := ref.expr + ".TryRetry()"
		if ref.given != "" {
			allow = "(" + ref.absent + " || " + allow + ")"
		}
		cond := p.exit.Cond
		if b, ok := cond.(*ast.BinaryExpr); ok && b.Op == token.LOR {
			return []analysis.TextEdit{
				{Pos: cond.Pos(), End: cond.Pos(), NewText: []byte("(")},
				{Pos: cond.End(), End: cond.End(), NewText: []byte(") && " + allow)},
			}, true
		}
		return []analysis.TextEdit{{Pos: cond.End(), End: cond.End(), NewText: []byte(" && " + allow)}}, true
	case planStmt:
		at := p.point.Stmt.Pos()
		if p.point.After {
			at = p.point.Stmt.End()
		}
		indent := fixutil.Indent(pass, file, p.point.Stmt.Pos())
		cond := refuse
		if p.next != "" {
			cond = p.next + " && " + cond
		}
		text, imp, ok := p.guardText(pass, file, at, cond, indent)
		if !ok {
			return nil, false
		}
		edits = append(edits, imp...)
		edits = append(edits, fixutil.InsertStmt(pass, file, p.point.Stmt, p.point.After, text))
		if rs, ok := s.Node.(*ast.RangeStmt); ok && p.key != "" {
			edits = append(edits, analysis.TextEdit{Pos: rs.Range, End: rs.Range, NewText: []byte(p.key + " := ")})
		}
	case planTop:
		if len(s.Body.List) == 0 {
			return nil, false
		}
		at := s.Body.List[0].Pos()
		indent := fixutil.Indent(pass, file, at)
		cond := refuse
		if p.first != "" {
			cond = p.first + " && " + refuse
		}
		text, imp, ok := p.guardText(pass, file, at, cond, indent)
		if !ok {
			return nil, false
		}
		if p.flag != "" {
			text += "\n" + indent + p.flag + " = true"
		}
		edits = append(edits, imp...)
		edits = append(edits, fixutil.InsertStmt(pass, file, s.Body.List[0], false, text))
	}
	return edits, true
}

// guardText returns the if statement that asks the budget (cond) and
// runs the refusal, and the imports it needs.
func (p *loopPlan) guardText(pass *analysis.Pass, file *ast.File, at token.Pos, cond, indent string) (string, []analysis.TextEdit, bool) {
	var lines []string
	var edits []analysis.TextEdit
	switch {
	case p.breaks:
		if p.label != "" {
			lines = append(lines, "break "+p.label)
		} else {
			lines = append(lines, "break")
		}
	default:
		r := p.ret
		if r.status != "" {
			fmtName, imp := fixutil.AddImport(pass, file, "fmt", at)
			edits = append(edits, imp...)
			lines = append(lines,
				"if "+r.err+" == nil {",
				"\t"+r.err+" = "+fmtName+`.Errorf("unexpected status: %s", `+r.status+".Status)",
				"}")
		}
		if r.close != "" {
			lines = append(lines, "if "+r.close+" != nil {", "\t"+r.close+".Body.Close()", "}")
		}
		if r.err == "" {
			lines = append(lines, "return")
		} else {
			lines = append(lines, "return "+strings.Join(append(append([]string(nil), r.zeros...), r.err), ", "))
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "if %s {\n", cond)
	for _, l := range lines {
		b.WriteString(indent + "\t" + l + "\n")
	}
	b.WriteString(indent + "}")
	return b.String(), edits, true
}

// freshLabel returns a label name no statement of the function uses.
func freshLabel(fnBody *ast.BlockStmt) string {
	used := map[string]bool{}
	ast.Inspect(fnBody, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok {
			used[ls.Label.Name] = true
		}
		return true
	})
	name := "retry"
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("retry%d", i)
	}
	return name
}
