package retryloop

import (
	"cmp"
	"go/ast"
	"go/types"
	"sort"

	"github.com/retrylint/retrylint/internal/typesx"
	"golang.org/x/tools/go/cfg"
)

// FailureKind is a set of the kinds of failure that reach a loop's next
// attempt.
type FailureKind uint8

const (
	ErrorFailure  FailureKind = 1 << iota // the attempt returned an error
	StatusFailure                         // the attempt's response had a failure status
)

func (k FailureKind) String() string {
	switch k {
	case ErrorFailure:
		return "error"
	case StatusFailure:
		return "status"
	case ErrorFailure | StatusFailure:
		return "error, status"
	}
	return "none"
}

func failureKinds(o outcome) FailureKind {
	var k FailureKind
	if o&oErr != 0 {
		k |= ErrorFailure
	}
	if o&oStatusFail != 0 {
		k |= StatusFailure
	}
	return k
}

// GuardRole says when a guard of a retry loop is asked.
type GuardRole uint8

const (
	OnFailure     GuardRole = iota + 1 // after an attempt failed, before the next one
	BeforeAttempt                      // before every attempt, the first included (a rate limit)
)

func (r GuardRole) String() string {
	switch r {
	case OnFailure:
		return "on failure"
	case BeforeAttempt:
		return "before each attempt"
	}
	return "unknown"
}

// GuardUse is a budget check met on the way from a failed attempt to the
// next one.
type GuardUse struct {
	Call *ast.CallExpr
	Role GuardRole
}

// Point is a place in a statement list of a loop body: just before Stmt,
// or just after it.
type Point struct {
	Stmt  ast.Stmt
	After bool
}

// Loop is what the definition found in a retry loop.
type Loop struct {
	Stmt ast.Stmt       // the *ast.ForStmt or *ast.RangeStmt
	Body *ast.BlockStmt // its body
	Func ast.Node       // the enclosing *ast.FuncDecl or *ast.FuncLit
	// List is the list of a failover loop: the ranged endpoints of one
	// operation, or those the counter indexes (servers[i]); nil for
	// others.
	List ast.Expr
	// Picker is the call that hands out the next endpoint of a failover
	// loop that picks them (for ; b != nil; b = s.leastLoaded()), nil for
	// others.
	Picker *ast.CallExpr
	// Ticker is the backoff.NewTicker call of a loop over a cenkalti
	// ticker's channel (for range ticker.C), nil for others. TickerBound
	// says that nothing but the backoff it is given bounds the loop: Bound
	// is then the zero Bound, for the host to read from the backoff.
	Ticker      *ast.CallExpr
	TickerBound bool

	// Attempt is the call whose failure the loop retries.
	Attempt *ast.CallExpr
	// Polls: some paths go round on an answer that is no failure of the
	// attempt but not yet what the loop waits for (a search of the answer
	// that ran out, a number short of a quorum, data not come yet) besides
	// the failures that do: a check asked where they meet would be asked
	// for the poll too.
	Polls bool
	// Go is the go statement of the body whose goroutine makes the
	// attempt and reports it over channels (goCandidates, loop.go); nil
	// when the body makes the attempt itself.
	Go *ast.GoStmt
	// Primed is the call that makes the attempt once before the loop,
	// which runs only after it failed (err := call(); for err != nil &&
	// i < 3 { ...; err = call() }): every iteration of the body is then a
	// retry. It is nil for a loop that makes its first attempt itself.
	Primed *ast.CallExpr
	// Failures are the kinds of failure that reach the next attempt.
	Failures FailureKind
	// Unguarded are the failures that reach the next attempt on a path
	// that asks no budget (all of Failures when no guard is asked).
	Unguarded FailureKind
	// Meet is the first point of the loop body that every failing path
	// passes on its way to the next attempt and no successful path
	// reaches: where one guard covers every failure. Its Stmt is nil when
	// the failing paths meet only in the loop's post statement or
	// condition.
	Meet Point
	// Err is an error variable that holds a non-nil error at Meet on
	// every failing path (the attempt's error, or one made from the
	// status); nil if there is none.
	Err types.Object
	// Resp is the variable that holds the attempt's response, when the
	// loop tests its status.
	Resp types.Object
	// Guards are the budget checks asked on the way from a failed attempt
	// to the next one, in source order.
	Guards []GuardUse
	// Meets are all the points like Meet, in the order the failing paths
	// pass them; Meet and Err are the first's. A guard placed at a later
	// one sees what the path did since the attempt (the error it made
	// from a status, the body it closed).
	Meets []MeetPoint
	// Next is what the failing paths hold when they start the next
	// iteration's body (after the post statement and the condition).
	Next NextIteration
	// NextAttempt is a condition, in source form, that holds at a point
	// of the body exactly when the header allows another attempt after
	// this one (i+1 < n for for i := 0; i < n; i++, r-1 > 0 for for r :=
	// n; r > 0; r--), in the form lastTest reads; "" when the header is
	// not one headerBound or headerCountdown reads.
	NextAttempt string
	// RetryTest is a condition, in source form, that holds at the top of
	// the body exactly on the iterations after the first: attempt > 0
	// for for attempt := 0; ...; attempt++ (or for attempt := range n),
	// attempt > start for a counter that starts at a local the loop never
	// assigns; "" when no counter says so (the body changes it).
	RetryTest string
	// RangeCount is n for a range over an integer with no key (for range
	// n), whose count the body does not change: naming the key k makes
	// NextAttemptFor(k) the test NextAttempt would be; nil otherwise.
	RangeCount ast.Expr
	// Path are the nodes of the loop's control-flow graph (statements,
	// conditions, the comm statements of a select; never the attempt)
	// that some path passes on its way from the attempt to the next
	// attempt, in source order: what runs between attempts, such as the
	// wait. A node before the attempt in the body is there when the next
	// iteration passes it.
	Path []ast.Node
	// Waits are the waits between attempts: the waits of Path (or of the
	// body, when Path is empty), in the order of Path.
	Waits []Wait

	// Bound is what limits the attempts; BoundExits are the exits that
	// make it. HeaderBound says that the loop's own condition or range
	// ends the attempts (a count, a clock, the end of a list of
	// endpoints), so that what follows the loop is what the loop does
	// after its last attempt.
	Bound       Bound
	BoundExits  []BoundExit
	HeaderBound bool
	// LastExits are the exits of the body that take the last attempt of
	// a loop its header counts out before the header does: a test of the
	// counter against the header's bound that holds only on the last
	// attempt (if attempt == max { return err } in for attempt := 0;
	// attempt <= max; attempt++). They make no bound of their own (the
	// header's is the loop's), and BoundExitAt finds them too.
	LastExits []BoundExit
	// Exempt, when not empty, says why the loop is no outage risk: it
	// retries only concurrency conflicts.
	Exempt string
}

// MeetPoint is a point of the loop body that every failing path passes
// on its way to the next attempt and no successful path reaches, with
// what the failing paths hold there.
type MeetPoint struct {
	Point
	// Err is an error variable that holds a non-nil error here on every
	// failing path; nil if there is none.
	Err types.Object
	// NilOnStatus is, when Err is nil, an error variable that holds a
	// non-nil error here on every failing path except those that hold a
	// failure status of the attempt's response (in Resp), where it is nil:
	// the attempt's own error when a 5xx comes with a nil error.
	NilOnStatus types.Object
	// Status reports whether some failing path arrives here with a
	// failure status of the attempt's response, which it still holds.
	Status bool
	// Sorts reports whether a failing path that passes it may still
	// leave the loop, before the next attempt, by an exit that sorts the
	// failures rather than bounds them (if !retryable(err) { return err
	// }): a budget asked here would be asked of failures that are not
	// retried, and its refusal would leave the way the last attempt does
	// where that exit leaves otherwise.
	Sorts bool

	block int32
}

// NextIteration is what the failing paths hold at the top of the next
// iteration's body.
type NextIteration struct {
	// OnlyFailures reports whether only failing paths reach it: a check
	// placed there is asked on retries only (after the first iteration).
	OnlyFailures bool
	// Err is an error variable that holds a non-nil error there on every
	// failing path; nil if there is none.
	Err types.Object
}

// goStmtOf returns the go statement that makes a flow's attempt, or nil.
func goStmtOf(f *flow) *ast.GoStmt {
	if _, ok := f.l.goCalls[f.call]; !ok {
		return nil
	}
	g, _ := f.node.(*ast.GoStmt)
	return g
}

// loopFacts assembles the typed facts of a retry loop.
func (a *Definer) loopFacts(l *loop, f *flow) *Loop {
	lf := &Loop{
		Stmt:      l.stmt,
		Body:      l.body,
		Func:      l.fn,
		List:      cmp.Or(l.list, l.indexed),
		Picker:    l.picker,
		Ticker:    l.ticker,
		Attempt:   f.call,
		Go:        goStmtOf(f),
		Polls:     f.arrive&oEnd != 0,
		Failures:  failureKinds(f.arrive & oFailure),
		Unguarded: failureKinds(f.unguarded),
	}
	if f.arrive&oStatusFail != 0 {
		lhs, _ := assignParts(f.node)
		for _, e := range lhs {
			if o := a.objOf(e); o != nil && !typesx.IsError(o.Type()) && !isBool(o.Type()) {
				lf.Resp = o
				break
			}
		}
	}
	lf.Meets = f.meetPoints(lf.Resp)
	if len(lf.Meets) > 0 {
		lf.Meet, lf.Err = lf.Meets[0].Point, lf.Meets[0].Err
	}
	lf.Next = f.nextIteration()
	lf.NextAttempt = f.nextAttemptTest()
	lf.RetryTest = a.retryTest(l)
	lf.RangeCount = f.keylessCount()
	lf.Path = f.path()
	first := a.firstIterationGuards(l, f)
	for _, c := range f.guards {
		if a.host.Guard(c) == NotGuard {
			continue
		}
		role := OnFailure
		if first[c] {
			role = BeforeAttempt
		}
		lf.Guards = append(lf.Guards, GuardUse{Call: c, Role: role})
	}
	sort.SliceStable(lf.Guards, func(i, j int) bool { return lf.Guards[i].Call.Pos() < lf.Guards[j].Call.Pos() })
	return lf
}

// firstIterationGuards returns the guard calls met on the way from the top
// of the loop to the attempt on its first iteration.
func (a *Definer) firstIterationGuards(l *loop, f *flow) map[*ast.CallExpr]bool {
	out := map[*ast.CallExpr]bool{}
	var starts []*cfg.Block
	for _, b := range l.g.Blocks {
		if b.Stmt == l.stmt && (b.Kind == cfg.KindForLoop || b.Kind == cfg.KindRangeLoop) {
			starts = append(starts, b)
		}
	}
	if len(starts) == 0 {
		if e := loopEntry(l); e != nil {
			starts = append(starts, e)
		}
	}
	seen := make([]bool, len(l.g.Blocks))
	work := starts
	for _, b := range starts {
		seen[b.Index] = true
	}
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		stop := false
		for _, n := range b.Nodes {
			if n == f.node {
				stop = true
				break
			}
			for _, c := range a.guardCalls(n) {
				out[c] = true
			}
		}
		if stop {
			continue
		}
		for _, s := range b.Succs {
			if l.in[s.Index] && !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return out
}

// meetPoints returns the statements that every failing path passes from
// the attempt to the next one, where only failing paths arrive, in the
// order the paths pass them, each with what the paths hold there (resp
// is the variable of the attempt's response, or nil).
func (f *flow) meetPoints(resp types.Object) []MeetPoint {
	leads := f.leadsBack()
	if !leads[f.root] {
		return nil
	}
	// Blocks in the order a breadth-first walk from the attempt meets
	// them, with the states that reach them.
	type visit struct {
		order int
		sts   []state
	}
	blocks := map[int32]*visit{}
	order := 0
	queue := []fkey{f.root}
	seen := map[fkey]bool{f.root: true}
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		if k != f.root {
			v := blocks[k.block]
			if v == nil {
				v = &visit{order: order}
				order++
				blocks[k.block] = v
			}
			v.sts = append(v.sts, k.st)
		}
		for _, s := range f.graph[k].succ {
			if leads[s] && !seen[s] {
				seen[s] = true
				queue = append(queue, s)
			}
		}
	}
	ids := make([]int32, 0, len(blocks))
	for id := range blocks {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return blocks[ids[i]].order < blocks[ids[j]].order })
	succeeds := map[int32]bool{}
	for k := range f.graph {
		if k.st.out&oSuccess != 0 {
			succeeds[k.block] = true
		}
	}
	var out []MeetPoint
	seenPoint := map[Point]bool{}
	for _, id := range ids {
		v := blocks[id]
		b := f.l.g.Blocks[id]
		if b.Kind == cfg.KindForPost || b.Kind == cfg.KindForLoop || b.Index == f.start.Index {
			continue
		}
		var p Point
		switch {
		case len(b.Nodes) > 0:
			p.Stmt = f.l.stmtOf[b.Nodes[0]]
		case b.Kind == cfg.KindIfDone || b.Kind == cfg.KindSwitchDone || b.Kind == cfg.KindSelectDone:
			// The join after a statement that ends the body's list.
			if f.l.stmtOf[b.Stmt] == b.Stmt {
				p = Point{Stmt: b.Stmt, After: true}
			}
		default:
			// A branch whose body holds only jumps (continue): before its
			// first statement.
			if first := firstOfBody(b); first != nil && f.l.stmtOf[first] == first {
				p.Stmt = first
			}
		}
		if p.Stmt == nil {
			continue
		}
		// No successful path may pass it, also one that leaves the loop
		// afterwards (if err == nil { return v, nil } after the point).
		onlyFailures := !succeeds[id]
		if !onlyFailures || !f.cuts(id, leads) || seenPoint[p] {
			continue
		}
		seenPoint[p] = true
		mp := MeetPoint{Point: p, Err: f.failureVar(v.sts), block: id}
		if mp.Err == nil {
			mp.NilOnStatus = f.nilOnStatus(v.sts, resp)
		}
		for _, st := range v.sts {
			if st.out&oStatusFail != 0 {
				mp.Status = true
			}
		}
		out = append(out, mp)
	}
	return out
}

// markSorting sets Sorts on the meeting points after which a failing path
// may reach an exit that sorts the failures: one of the flow's exits that
// is none of the bound's exits (nor of the last attempt's), one of whose
// triggers reads nothing but outcomes, the attempt's among them, and asks
// no budget. The failure of a later call (rewinding the body for the next
// attempt) sorts nothing: a refusal before it ends as the last attempt.
func (a *Definer) markSorting(l *loop, f *flow, lp *Loop) {
	bound := map[ast.Node]bool{}
	for _, be := range lp.BoundExits {
		bound[be.Node] = true
	}
	for _, be := range lp.LastExits {
		bound[be.Node] = true
	}
	sorting := map[int32]bool{}
	for _, e := range f.exits {
		if bound[e.node] {
			continue
		}
		for _, t := range a.triggers(l, f, e) {
			if t == nil || a.firstGuard(t) != nil || !f.onlyOutcome(t) {
				continue
			}
			for _, st := range e.sts {
				if f.mentionsAttempt(t, st) {
					sorting[e.block.Index] = true
				}
			}
		}
	}
	if len(sorting) == 0 {
		return
	}
	for i := range lp.Meets {
		lp.Meets[i].Sorts = f.reachesBlock(lp.Meets[i].block, sorting)
	}
}

// reachesBlock reports whether an explored path from block from reaches,
// before it arrives at the attempt again, one of the blocks to (from
// itself included).
func (f *flow) reachesBlock(from int32, to map[int32]bool) bool {
	var work []fkey
	seen := map[fkey]bool{}
	for k := range f.graph {
		if k.block == from {
			work = append(work, k)
			seen[k] = true
		}
	}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		n := f.graph[k]
		if n == nil || n.arrives {
			continue // the next attempt: what follows is its own
		}
		if to[k.block] {
			return true
		}
		for _, s := range n.succ {
			if !seen[s] {
				seen[s] = true
				work = append(work, s)
			}
		}
	}
	return false
}

// cuts reports whether every explored path from the attempt to the next
// one passes block id.
func (f *flow) cuts(id int32, leads map[fkey]bool) bool {
	seen := map[fkey]bool{f.root: true}
	work := []fkey{f.root}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		n := f.graph[k]
		if n.arrives {
			return false
		}
		for _, s := range n.succ {
			if s.block == id || seen[s] || !leads[s] {
				continue
			}
			seen[s] = true
			work = append(work, s)
		}
	}
	return true
}

// failureVar returns a tracked error variable that holds a failure in
// every state: the attempt's error where only error outcomes remain, or a
// non-nil error the path made.
func (f *flow) failureVar(sts []state) types.Object {
	for i, o := range f.objs {
		if f.roles[i] != roleErr {
			continue
		}
		ok := true
		for _, st := range sts {
			switch st.vals[i] {
			case bNonNil:
			case bAttempt:
				if st.out&^oErr != 0 {
					ok = false
				}
			default:
				ok = false
			}
		}
		if ok {
			return o
		}
	}
	return nil
}

// nilOnStatus returns the tracked error variable that holds a failure in
// every state but those whose failure is a status of the attempt's
// response, still held in resp, where it is the attempt's nil error.
func (f *flow) nilOnStatus(sts []state, resp types.Object) types.Object {
	r := f.slot(resp)
	if r < 0 {
		return nil
	}
	for i, o := range f.objs {
		if f.roles[i] != roleErr {
			continue
		}
		ok := true
		for _, st := range sts {
			switch {
			case st.vals[i] == bNonNil:
			case st.vals[i] == bAttempt && st.out&^oErr == 0:
			case (st.vals[i] == bAttempt || st.vals[i] == bNil) && st.out&^oStatusFail == 0 && st.vals[r] == bAttempt:
			default:
				ok = false
			}
		}
		if ok {
			return o
		}
	}
	return nil
}

// nextIteration says what the failing paths hold when they start the
// body of the next iteration.
func (f *flow) nextIteration() NextIteration {
	entry := loopEntry(f.l)
	if entry == nil {
		return NextIteration{}
	}
	var sts []state
	for k := range f.graph {
		if k.block == entry.Index && k.from == 0 {
			sts = append(sts, k.st)
		}
	}
	if len(sts) == 0 {
		return NextIteration{}
	}
	next := NextIteration{OnlyFailures: true}
	for _, st := range sts {
		if st.out&oSuccess != 0 || st.out&oFailure == 0 {
			next.OnlyFailures = false
		}
	}
	next.Err = f.failureVar(sts)
	return next
}

// loopEntry returns the block where an iteration's body starts.
func loopEntry(l *loop) *cfg.Block {
	for _, b := range l.g.Blocks {
		if b.Stmt == l.stmt && (b.Kind == cfg.KindForBody || b.Kind == cfg.KindRangeBody) {
			return b
		}
	}
	return nil
}

// firstOfBody returns the first statement of the body a block starts:
// an if's then or else branch, a case clause.
func firstOfBody(b *cfg.Block) ast.Stmt {
	var list []ast.Stmt
	switch s := b.Stmt.(type) {
	case *ast.IfStmt:
		switch b.Kind {
		case cfg.KindIfThen:
			list = s.Body.List
		case cfg.KindIfElse:
			if blk, ok := s.Else.(*ast.BlockStmt); ok {
				list = blk.List
			} else if s.Else != nil {
				return s.Else
			}
		}
	case *ast.CaseClause:
		if b.Kind == cfg.KindSwitchCaseBody {
			list = s.Body
		}
	case *ast.CommClause:
		if b.Kind == cfg.KindSelectCaseBody {
			list = s.Body
		}
	}
	if len(list) == 0 {
		return nil
	}
	return list[0]
}

// WaitIn reports whether one of the loop's waits is inside n.
func (lp *Loop) WaitIn(n ast.Node) bool {
	for _, w := range lp.Waits {
		if n.Pos() <= w.At.Pos() && w.At.End() <= n.End() {
			return true
		}
	}
	return false
}

// BoundExitAt returns the exit that makes the loop's bound at the
// condition cond, or takes its last attempt out there (LastExits), and
// whether there is one.
func (lp *Loop) BoundExitAt(cond ast.Expr) (BoundExit, bool) {
	for _, list := range [][]BoundExit{lp.BoundExits, lp.LastExits} {
		for _, e := range list {
			if e.Node == cond {
				return e, true
			}
		}
	}
	return BoundExit{}, false
}
