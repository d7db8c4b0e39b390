package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
	"golang.org/x/tools/go/cfg"
)

// This file decides the definition of a retry loop (see the package doc)
// on the loop's control-flow graph: it follows the outcomes of one
// candidate attempt forward through the loop's blocks, from the attempt
// until the paths leave the loop or reach the attempt again.

// outcome is a set of the outcomes an attempt may have had on a path.
// Statuses stand for their class of responses; an answer becomes a set
// of classes when its status is first tested.
type outcome uint16

const (
	oErr  outcome = 1 << iota // the attempt returned an error (or said it wants a retry)
	oResp                     // success: no error, and no status tested yet
	o2xx                      // success: no error, and a success status
	o4xx                      // a client-error status (400, 404, 409, ...): a failure that is not transient
	o429                      // a throttling status (408, 429)
	o5xx                      // a server-error status (500, 502, 503, 504)
	// oParse: the attempt answered, but using its answer failed (reading
	// or decoding it). A loop that leaves on the attempt's own failures
	// and goes round only on these polls for a state; it does not retry.
	oParse
	// oEnd: the error says the data ended (io.EOF) or has not come
	// yet (io.ErrNoProgress): a reading loop that goes round on it reads
	// on, a polling loop waits for data; neither retries.
	oEnd
	// oLater: the attempt succeeded, and a later call of the iteration
	// failed (an open after a dial): no success, but not the attempt's
	// own failure either.
	oLater

	oAll        = oErr | oResp
	oSuccess    = oResp | o2xx
	oStatusFail = o4xx | o429 | o5xx
	oFailure    = oErr | oStatusFail | oParse | oEnd | oLater
	oTransient  = oErr | o429 | o5xx // failures that an outage produces
)

// binding says what a tracked variable holds on a path.
type binding uint8

const (
	bUnknown  binding = iota
	bAttempt          // the attempt's own result (its error, response, verdict or value)
	bConsumer         // a value made from the attempt's result (the error of reading its body)
	bNil              // nil (an error) or false (a flag)
	bNonNil           // a non-nil error made on this path, or true (a flag)
	bOther            // the result of some other call
	bAdvanced         // a counter past its initial value (after i++)
	// bLast: the loop's counter at its last value, by a test of the body
	// (if i+1 < n, in for i := 0; i < n; i++, failed): the header ends the
	// loop after the post statement. bPastEnd: that counter after the post
	// statement, past its initial value, where the header fails.
	bLast
	bPastEnd
	bStream // the error of reading the attempt's stream (its body): the attempt's own failure
	// bVerdict: a budget's answer not tested yet (ok := b.TryRetry(),
	// err := lim.Wait(ctx)): the path is guarded once a test finds it
	// allowed the retry.
	bVerdict
)

// maxSlots bounds the variables a flow tracks; more are left unknown.
const maxSlots = 12

// state is what a path knows when it reaches a point of the loop.
type state struct {
	out outcome
	// guarded: a budget was asked on this path since the attempt and
	// allowed the retry. A path that did not ask it (the nil test before
	// it failed) or that goes on after a refusal is not guarded.
	guarded  bool
	conflict bool // the attempt's error was found to be a concurrency conflict
	// interrupted: the attempt's error was found to be an interrupted or
	// blocked system call (EINTR, EAGAIN).
	interrupted bool
	// passedHead: the path went through the loop's head since the
	// attempt, so reaching the attempt again is a new iteration of this
	// loop, not of a loop nested in it.
	passedHead bool
	// seen: a test on this path looked at the attempt's outcome. A path
	// that never did goes round whatever the attempt said.
	seen bool
	vals [maxSlots]binding
}

// role is the kind of a tracked variable.
type role uint8

const (
	roleErr     role = iota + 1 // an error
	roleFlag                    // a bool
	roleValue                   // any other value (a response, a result)
	roleErrChan                 // a channel of errors
)

// flow follows one candidate attempt around its loop.
type flow struct {
	a     *Definer
	l     *loop
	call  *ast.CallExpr // the attempt
	node  ast.Node      // the CFG node that contains it
	start *cfg.Block

	slots map[types.Object]int
	roles []role
	objs  []types.Object

	// siblings are other nodes that make the same call (the same
	// function on the same receiver, in the two branches of an if).
	siblings map[ast.Node]bool
	// nested: the attempt is inside a loop nested in this one.
	nested bool

	exitMemo map[int32]bool // exitsDirectly, by block

	// Results, filled by run.
	arrive outcome // outcomes that reach the attempt again
	// arriveSeen are those among them whose path tested the outcome.
	arriveSeen outcome
	leave      outcome       // outcomes that leave the loop
	leads      map[fkey]bool // the explored nodes that lead to the attempt again (leadsBack)
	unguarded  outcome       // failure outcomes that reach the attempt again on a path that asked no budget
	// beyondConflicts are the failures that reach the attempt again
	// without having been found to be concurrency conflicts.
	beyondConflicts outcome
	// beyondInterrupts: the same for interrupted system calls.
	beyondInterrupts outcome
	exits            []exit // branches where a failing path can stop retrying
	guards           []*ast.CallExpr
	guardSeen        map[*ast.CallExpr]bool // the calls in guards
	arrivals         []state
	graph            map[fkey]*fnode // the explored graph, for the meeting point
	root             fkey
	budgetHit        bool // the exploration was cut short
	// readsFailure: sameOperation is reading an assignment that only a
	// failing path makes, where the attempt's answer says what failed.
	readsFailure bool
}

// exit is a branch where a path that carries a failure can leave the loop.
type exit struct {
	node  ast.Node // the condition, or the select statement's clause
	onYes bool     // the loop is left when the condition holds (else when it does not)
	block *cfg.Block
	sts   []state // the states that reach it
}

type fkey struct {
	block int32
	from  int
	st    state
}

type fnode struct {
	succ    []fkey
	arrives bool
}

// maxBlockStates bounds the states a flow keeps apart at one block.
const maxBlockStates = 24

// maxFlowNodes bounds the work of one flow.
const maxFlowNodes = 4000

// run explores the paths from the attempt, which starts with the
// outcomes start (oAll: any).
func (f *flow) run(start outcome) {
	f.graph = make(map[fkey]*fnode)
	idx := -1
	for i, n := range f.start.Nodes {
		if n == f.node {
			idx = i
		}
	}
	if idx < 0 {
		return
	}
	st := f.declared(state{out: start})
	st = f.bindAttempt(f.node, st)
	f.root = fkey{block: f.start.Index, from: idx + 1, st: st}
	// The attempt in a condition (if call() == nil, for call() != nil):
	// the branch at the end of its block is evaluated with the call as
	// the attempt's value, which cond knows.
	work := []fkey{f.root}
	f.graph[f.root] = &fnode{}
	exitSeen := map[exitKey]int{}
	perBlock := map[int32]int{}
	f.guardSeen = map[*ast.CallExpr]bool{}
	for len(work) > 0 {
		if len(f.graph) > maxFlowNodes {
			f.budgetHit = true
			return
		}
		k := work[len(work)-1]
		work = work[:len(work)-1]
		fn := f.graph[k]
		b := f.l.g.Blocks[k.block]
		st := k.st
		pastEnd := false                       // for i := range n after its last value: the loop ends
		if b.Stmt == f.l.stmt && k.from == 0 { // not the attempt's own block, nor a fork in one
			st.passedHead = true
			if b.Kind == cfg.KindRangeLoop && f.l.counter != nil {
				if i := f.slot(f.l.counter); i >= 0 {
					pastEnd = st.vals[i] == bLast
					st.vals[i] = bAdvanced // the next value of for i := range n
				}
			}
		}
		arrived := false
		for i := k.from; i < len(b.Nodes); i++ {
			n := b.Nodes[i]
			if n == f.node || f.siblings[n] {
				if st.passedHead {
					arrived = true
					break
				}
				// The attempt again within a nested loop (the next
				// endpoint of an inner failover): a new attempt of the same
				// iteration of this loop.
				if n == f.node {
					nk := f.root
					if f.graph[nk] == nil {
						f.graph[nk] = &fnode{}
						work = append(work, nk)
					}
					fn.succ = append(fn.succ, nk)
					arrived = false
					st = state{}
					break
				}
			}
			var verdicts []int
			if gs := f.l.guardsOf(f.a, n); len(gs) > 0 {
				var decided map[*ast.CallExpr]bool
				if i == len(b.Nodes)-1 {
					if c := f.branchCond(b); c != nil {
						decided = f.verdictOperands(c)
					}
				}
				for _, c := range gs {
					if c == f.call || decided[c] {
						// A circuit breaker running the attempt; a verdict
						// the branch tests, which cond applies to each side.
						continue
					}
					f.askGuard(c, &st)
					if s := f.verdictSlot(n, c); s >= 0 {
						verdicts = append(verdicts, s)
					} else {
						st.guarded = true
					}
				}
			}
			pre := st
			st = f.transfer(n, st)
			for _, s := range verdicts {
				st.vals[s] = bVerdict
			}
			if len(verdicts) == 0 {
				// needsRetry = cond(resp, err), for a flag assigned more
				// than once: each value goes on with what it says.
				forks := f.flagForks(n, pre, st)
				for j, t := range forks {
					if j == 0 {
						st = t
						continue
					}
					nk := fkey{block: k.block, from: i + 1, st: t}
					fn.succ = append(fn.succ, nk)
					if f.graph[nk] == nil {
						f.graph[nk] = &fnode{}
						work = append(work, nk)
					}
				}
			}
		}
		if st.out == 0 && !arrived {
			continue // handed over to the root above
		}
		if arrived {
			fn.arrives = true
			f.arrive |= st.out
			if st.seen {
				f.arriveSeen |= st.out
			}
			if !st.guarded {
				f.unguarded |= st.out & oFailure
			}
			if !st.conflict {
				f.beyondConflicts |= st.out & oTransient
			}
			if !st.interrupted {
				f.beyondInterrupts |= st.out & oTransient
			}
			f.arrivals = append(f.arrivals, st)
			continue
		}
		edges := f.branch(b, st)
		for _, e := range edges {
			to := e.to
			if pastEnd && f.l.in[to.Index] {
				continue // the range has no value left: only its exit is taken
			}
			if !f.l.in[to.Index] || !to.Live {
				f.leave |= e.st.out
				if e.st.out&oTransient != 0 && e.node != nil {
					f.recordExit(exitSeen, e)
				}
				continue
			}
			if e.node != nil && e.st.out&oTransient != 0 && f.exitsDirectly(to) {
				f.recordExit(exitSeen, e)
			}
			st := e.st
			if perBlock[to.Index] >= maxBlockStates {
				// Too many ways to get here: forget what the
				// variables hold, so the states stay few.
				st = f.forget(st)
			}
			nk := fkey{block: to.Index, from: 0, st: st}
			fn.succ = append(fn.succ, nk)
			if f.graph[nk] == nil {
				f.graph[nk] = &fnode{}
				perBlock[to.Index]++
				work = append(work, nk)
			}
		}
		if len(b.Succs) == 0 {
			// A return, or a call that does not return (a panic, a
			// test's Fatal, os.Exit): an abort is no success leaving,
			// as a test asserting each of its iterations shows.
			if aborts(b) {
				f.leave |= st.out &^ oSuccess
			} else {
				f.leave |= st.out
			}
		}
	}
}

// declared returns st with the variables the loop's body declares or
// assigns before the statement that holds the attempt, with no value or
// a constant one (var retry bool, failed := false, retrying = true), at
// that value: each iteration runs those statements again, so the attempt
// finds them so unless a statement between assigns them. An attempt in a
// nested loop finds them as the iteration left them: unknown.
func (f *flow) declared(st state) state {
	if f.nested {
		// The attempt is made again within the iteration (an inner
		// failover), after the body may have changed them.
		return st
	}
	at := -1
	for i, s := range f.l.body.List {
		if astx.Within(f.call, s) {
			at = i
		}
	}
	for i := 0; i < at; i++ {
		var nodes []ast.Node
		switch s := f.l.body.List[i].(type) {
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					nodes = append(nodes, sp)
				}
			}
		case *ast.AssignStmt:
			// ok := false, or retrying = true: the body's statements
			// before the attempt's run on every path to it.
			if s.Tok == token.DEFINE || s.Tok == token.ASSIGN {
				nodes = append(nodes, s)
			}
		}
		for _, n := range nodes {
			lhs, rhs := assignParts(n)
			if len(rhs) != 0 && len(rhs) != len(lhs) {
				continue
			}
			constant := true
			for _, r := range rhs {
				_, isBool := f.a.boolConst(r)
				constant = constant && (isBool || f.a.isNil(r))
			}
			if !constant {
				continue
			}
			after := st
			after = f.transfer(n, after)
			for _, l := range lhs {
				v, ok := f.a.objOf(l).(*types.Var)
				if s := f.slot(v); ok && s >= 0 && !f.assignedBetween(v, n.End(), f.call.Pos()) {
					st.vals[s] = after.vals[s]
				}
			}
		}
	}
	return st
}

// assignedBetween reports whether the loop's body may assign v between
// the positions from and to: an assignment, an increment, its address
// taken.
func (f *flow) assignedBetween(v *types.Var, from, to token.Pos) bool {
	found := false
	ast.Inspect(f.l.body, func(n ast.Node) bool {
		if found || n == nil || n.End() <= from || n.Pos() >= to {
			return false
		}
		var targets []ast.Expr
		switch n := n.(type) {
		case *ast.AssignStmt:
			targets = n.Lhs
		case *ast.IncDecStmt:
			targets = []ast.Expr{n.X}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				targets = []ast.Expr{n.X}
			}
		case *ast.RangeStmt:
			targets = []ast.Expr{n.Key, n.Value}
		}
		for _, t := range targets {
			if t != nil && n.Pos() > from && f.a.objOf(t) == v {
				found = true
			}
		}
		return true
	})
	return found
}

type exitKey struct {
	node  ast.Node
	onYes bool
}

func (f *flow) recordExit(seen map[exitKey]int, e edge) {
	k := exitKey{e.node, e.yes}
	if i, ok := seen[k]; ok {
		f.exits[i].sts = append(f.exits[i].sts, e.st)
		return
	}
	seen[k] = len(f.exits)
	f.exits = append(f.exits, exit{node: e.node, onYes: e.yes, block: e.from, sts: []state{e.st}})
}

// exitsDirectly reports whether every path from a block leaves the loop
// before the next iteration or attempt: the body of "if attempts >= 3 {
// log(...); return err }", also when it first finishes a nested loop.
func (f *flow) exitsDirectly(b *cfg.Block) bool {
	if v, ok := f.exitMemo[b.Index]; ok {
		return v
	}
	v := f.exitsFrom(b)
	if f.exitMemo == nil {
		f.exitMemo = map[int32]bool{}
	}
	f.exitMemo[b.Index] = v
	return v
}

func (f *flow) exitsFrom(b *cfg.Block) bool {
	seen := map[int32]bool{b.Index: true}
	work := []*cfg.Block{b}
	for steps := 0; len(work) > 0; steps++ {
		if steps > 64 {
			return false
		}
		c := work[len(work)-1]
		work = work[:len(work)-1]
		if c.Stmt == f.l.stmt {
			return false // the loop's head: the next iteration
		}
		for _, n := range c.Nodes {
			if n == f.node || f.siblings[n] {
				return false
			}
		}
		for _, s := range c.Succs {
			if f.l.in[s.Index] && !seen[s.Index] {
				seen[s.Index] = true
				work = append(work, s)
			}
		}
	}
	return true
}

// edge is one way out of a block, with the state that takes it.
type edge struct {
	from *cfg.Block
	to   *cfg.Block
	st   state
	node ast.Node // the condition or clause decided at the branch; nil for plain jumps
	yes  bool     // the edge is taken when node holds
}

// branch returns the edges a state takes at the end of block b.
func (f *flow) branch(b *cfg.Block, st state) []edge {
	switch len(b.Succs) {
	case 0:
		return nil
	case 1:
		return []edge{{from: b, to: b.Succs[0], st: st}}
	}
	yes, no := b.Succs[0], b.Succs[1]
	var node ast.Node
	var ys, ns []state
	switch {
	case f.branchCond(b) != nil:
		cond := f.branchCond(b)
		node = cond
		ys = f.cond(cond, st, true)
		ns = f.cond(cond, st, false)
		if short := f.fallsShort(cond, st) | f.codeRefused(cond, st); short != 0 {
			// if n >= quorum { return nil }, if rc == accepted { break
			// }: short of it, the answer is not what the loop waits
			// for.
			for i := range ys {
				ys[i].seen = true
			}
			for i := range ns {
				ns[i].seen = true
				if ns[i].out&oSuccess != 0 {
					ns[i].out = ns[i].out&^oSuccess | short
				}
			}
		}
	case yes.Kind == cfg.KindSelectCaseBody:
		cc := yes.Stmt.(*ast.CommClause)
		node = cc
		ys = []state{f.recv(cc, st)}
		ns = []state{st}
	case yes.Kind == cfg.KindSwitchCaseBody && f.l.typeSwitch[yes.Stmt] != nil:
		cc := yes.Stmt.(*ast.CaseClause)
		node = cc
		ys, ns = f.typeCase(f.l.typeSwitch[cc], cc, st)
	case b.Kind == cfg.KindRangeLoop && f.searchesAnswer(b.Stmt, st):
		// for _, p := range ps { if p.ID == id { return p } }: the
		// answer ran out without what the loop looks for.
		ys, ns = []state{st}, []state{st}
		if st.out&oSuccess != 0 {
			ns[0].out = st.out&^oSuccess | oEnd
		}
	case b.Kind == cfg.KindRangeLoop || len(b.Nodes) == 0:
		ys, ns = []state{st}, []state{st}
	default:
		cond, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr)
		if !ok {
			ys, ns = []state{st}, []state{st}
			break
		}
		node = cond
		if tag, ok := f.l.caseTag[cond]; ok {
			ys = f.compare(tag, cond, token.EQL, st, true)
			ns = f.compare(tag, cond, token.EQL, st, false)
		} else {
			ys, ns = []state{st}, []state{st}
		}
	}
	var out []edge
	for _, s := range ys {
		out = append(out, edge{from: b, to: yes, st: s, node: node, yes: true})
	}
	for _, s := range ns {
		out = append(out, edge{from: b, to: no, st: s, node: node, yes: false})
	}
	return out
}

// searchesAnswer reports whether s, a range statement, searches the
// attempt's answer: it ranges over the attempt's value, and its body is
// only tests of the element that leave the loop under study when they
// hold (if p.ID == id { found <- p; return }). Running out of elements,
// the answer did not hold what the loop waits for: no success, as an
// empty answer is none (io.ErrNoProgress). A range that does anything
// else with the elements (handles, sends, collects them) is work on the
// answer, not a search.
func (f *flow) searchesAnswer(s ast.Stmt, st state) bool {
	rs, ok := s.(*ast.RangeStmt)
	if !ok || rs == f.l.stmt || len(rs.Body.List) == 0 {
		return false
	}
	if b := f.valueOf(rs.X, st); b != bAttempt && b != bConsumer {
		return false
	}
	var elems []types.Object
	for _, e := range []ast.Expr{rs.Key, rs.Value} {
		if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
			elems = append(elems, f.a.pass.TypesInfo.Defs[id])
		}
	}
	for _, x := range rs.Body.List {
		is, ok := x.(*ast.IfStmt)
		if !ok || is.Init != nil || is.Else != nil || len(is.Body.List) == 0 {
			return false
		}
		tests := false
		for _, o := range elems {
			if o != nil && typesx.Refers(f.a.pass.TypesInfo, is.Cond, o) {
				tests = true
			}
		}
		if !tests || !f.leavesLoop(is.Body, true) {
			return false
		}
	}
	return true
}

// fallsShort returns oEnd where cond, the condition of an if statement
// that leaves the loop (the loop's index, stmtOf, names it), compares by
// its order a number the attempt answered (not a status) with another
// value, alone or as a conjunct (if n >= quorum && now.Before(until) {
// return nil }): the loop leaves on an answer of enough, so one short of
// it is no success, as a search of the answer that runs out is none. It
// returns 0 otherwise.
func (f *flow) fallsShort(cond ast.Expr, st state) outcome {
	answered := func(e ast.Expr) bool {
		if f.valueOf(e, st) != bAttempt || !isInteger(typeOf(f.a, e)) {
			return false
		}
		_, status := f.statusOf(e, st)
		return !status
	}
	compares := false
	for _, c := range conjuncts(cond) {
		x, ok := ast.Unparen(c).(*ast.BinaryExpr)
		if !ok {
			continue
		}
		switch x.Op {
		case token.LSS, token.LEQ, token.GTR, token.GEQ:
			if answered(x.X) || answered(x.Y) {
				compares = true
			}
		}
	}
	if !compares || !f.leavingIf(cond) {
		return 0
	}
	return oEnd
}

// leavingIf reports whether cond is the condition of an if statement with
// no else that leaves the loop.
func (f *flow) leavingIf(cond ast.Expr) bool {
	ifs, ok := f.l.stmtOf[cond].(*ast.IfStmt)
	return ok && ifs.Cond == cond && ifs.Else == nil && f.leavesLoop(ifs.Body, false)
}

// codeRefused returns what an answer is where cond, the condition of an
// if statement that leaves the loop, finds an integer code (not a status)
// equal to a declared constant, alone or as a conjunct (rc, _, err =
// handshake(conn); if rc == accepted { break }), and the code is the
// attempt's or one that a later call returned beside an error: the loop
// leaves on that code only, so any other is no success. Another code of
// the attempt is an answer short of what the loop waits for (oEnd);
// another of a call given the attempt's answer, a failure of using it
// (oParse: the handshake on a dialed connection refused); another of
// other later calls, a failure of that call (oLater). 0 otherwise.
func (f *flow) codeRefused(cond ast.Expr, st state) outcome {
	var short outcome
	for _, c := range conjuncts(cond) {
		x, ok := ast.Unparen(c).(*ast.BinaryExpr)
		if !ok || x.Op != token.EQL {
			continue
		}
		for _, pair := range [2][2]ast.Expr{{x.X, x.Y}, {x.Y, x.X}} {
			code, k := ast.Unparen(pair[0]), pair[1]
			if _, ok := f.a.objOf(k).(*types.Const); !ok || !isInteger(typeOf(f.a, code)) {
				continue
			}
			if _, status := f.statusOf(code, st); status {
				continue
			}
			switch b := f.valueOf(code, st); b {
			case bAttempt:
				short = oEnd
			case bConsumer, bOther:
				if id, ok := code.(*ast.Ident); ok && f.codeOfCall(f.a.objOf(id)) {
					short = oLater
					if b == bConsumer {
						short = oParse
					}
				}
			}
		}
	}
	if short == 0 || !f.leavingIf(cond) {
		return 0
	}
	return short
}

// codeOfCall reports whether the loop's body assigns v from a call that
// also returns an error (rc, _, err = handshake(conn)), among its
// definitions of v there (defsInLoop).
func (f *flow) codeOfCall(v types.Object) bool {
	w, ok := v.(*types.Var)
	if !ok {
		return false
	}
	for _, d := range f.a.defsInLoop(f.l, w) {
		as, ok := d.node.(*ast.AssignStmt)
		if !ok || d.compound || len(as.Rhs) != 1 || len(as.Lhs) < 2 {
			continue
		}
		if c, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && f.a.resultsError(c) {
			return true
		}
	}
	return false
}

// branchCond returns the boolean condition that decides the branch at
// the end of block b (an if's, a for's, a case of a switch without a
// tag), or nil when the branch is decided otherwise.
func (f *flow) branchCond(b *cfg.Block) ast.Expr {
	if len(b.Succs) != 2 || len(b.Nodes) == 0 || b.Kind == cfg.KindRangeLoop {
		return nil
	}
	yes := b.Succs[0]
	if yes.Kind == cfg.KindSelectCaseBody || yes.Kind == cfg.KindSwitchCaseBody && f.l.typeSwitch[yes.Stmt] != nil {
		return nil
	}
	cond, ok := b.Nodes[len(b.Nodes)-1].(ast.Expr)
	if !ok {
		return nil
	}
	if _, ok := f.l.caseTag[cond]; ok {
		return nil
	}
	return cond
}

// askGuard records that a path carrying st asks the budget check c.
func (f *flow) askGuard(c *ast.CallExpr, st *state) {
	if st.out&oFailure != 0 && !f.guardSeen[c] {
		f.guardSeen[c] = true
		f.guards = append(f.guards, c)
	}
}

// isGuardCall reports whether c is a budget check of the loop other than
// a circuit breaker running the attempt.
func (f *flow) isGuardCall(c *ast.CallExpr) bool {
	if c == f.call {
		return false
	}
	if f.l.isGuard == nil {
		f.l.isGuard = map[*ast.CallExpr]bool{}
	}
	v, ok := f.l.isGuard[c]
	if !ok {
		v = f.a.host.Guard(c) != NotGuard
		f.l.isGuard[c] = v
	}
	return v
}

// verdictOperands returns the budget checks whose answer a condition
// tests as one of its operands (!b.TryRetry(), x != nil && lim.Wait(ctx)
// != nil): cond applies each on the side where it allowed the retry, and
// only on the paths that evaluate it.
func (f *flow) verdictOperands(e ast.Expr) map[*ast.CallExpr]bool {
	var out map[*ast.CallExpr]bool
	var visit func(e ast.Expr, depth int)
	visit = func(e ast.Expr, depth int) {
		if depth > 8 {
			return
		}
		switch x := ast.Unparen(e).(type) {
		case *ast.UnaryExpr:
			if x.Op == token.NOT {
				visit(x.X, depth+1)
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LAND, token.LOR:
				visit(x.X, depth+1)
				visit(x.Y, depth+1)
			case token.EQL, token.NEQ:
				if f.a.isNil(x.Y) {
					visit(x.X, depth+1)
				} else if f.a.isNil(x.X) {
					visit(x.Y, depth+1)
				} else if _, ok := f.a.boolConst(x.Y); ok && isBool(typeOf(f.a, x.X)) {
					visit(x.X, depth+1)
				}
			}
		case *ast.CallExpr:
			if f.isGuardCall(x) {
				if out == nil {
					out = map[*ast.CallExpr]bool{}
				}
				out[x] = true
			}
		}
	}
	visit(e, 0)
	return out
}

// verdictSlot returns the slot of the tracked variable that node n
// assigns the answer of the budget check c to (ok := b.TryRetry()), or -1
// when the answer goes elsewhere.
func (f *flow) verdictSlot(n ast.Node, c *ast.CallExpr) int {
	lhs, rhs := assignParts(n)
	for i, r := range rhs {
		if ast.Unparen(r) != c {
			continue
		}
		switch {
		case len(lhs) == len(rhs):
		case len(rhs) == 1 && len(lhs) > 1:
			i = len(lhs) - 1 // the verdict is the last result
		default:
			return -1
		}
		if s := f.slot(f.a.objOf(lhs[i])); s >= 0 && (f.roles[s] == roleFlag || f.roles[s] == roleErr) {
			return s
		}
	}
	return -1
}

// flagForks applies node n, an assignment of a condition to a tracked
// flag that the loop assigns more than once (so its tests cannot read it
// through the loop's preds), to the state pre, whose plain transfer is
// st: it returns a state for each value the condition can have, with
// what that value says of the outcome, or nil when the condition says
// nothing of it (the flag is then unknown, as in st).
func (f *flow) flagForks(n ast.Node, pre, st state) []state {
	lhs, rhs := assignParts(n)
	if len(lhs) != 1 || len(rhs) != 1 {
		return nil
	}
	if as, ok := n.(*ast.AssignStmt); ok && as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
		return nil
	}
	o := f.a.objOf(lhs[0])
	s := f.slot(o)
	if s < 0 || f.roles[s] != roleFlag || f.l.preds[o] != nil {
		return nil
	}
	if _, isConst := f.a.boolConst(rhs[0]); isConst {
		return nil
	}
	var forks []state
	said := false
	for _, want := range []bool{true, false} {
		sts := f.heldCond(rhs[0], o, pre, want, 0)
		if len(sts) == 0 {
			said = true // the condition has the other value
		}
		for _, t := range sts {
			if t.out != pre.out || t.seen != pre.seen {
				said = true
			}
			t.vals = st.vals
			t.vals[s] = map[bool]binding{true: bNonNil, false: bNil}[want]
			forks = appendState(forks, t)
		}
	}
	if !said {
		return nil
	}
	return forks
}

// verdict applies a test of a budget's answer: the side where it allowed
// the retry is guarded. allowed says which side st is.
func verdict(st state, allowed bool) state {
	if allowed {
		st.guarded = true
	}
	return st
}

// forget is applied to a state that reaches a block by too many ways: it
// forgets what the variables hold, so the states stay few. The outcomes
// stay, and so do the loop's counters, which take few values and which
// the tests of this iteration against the first or the last (attempt > 0
// && !b.TryRetry()) need.
func (f *flow) forget(st state) state {
	var kept [maxSlots]binding
	for _, o := range []types.Object{f.l.counter, f.l.countdown} {
		if i := f.slot(o); i >= 0 {
			kept[i] = st.vals[i]
		}
	}
	st.vals = kept
	return st
}

// slot returns the slot of a tracked variable, or -1.
func (f *flow) slot(o types.Object) int {
	if i, ok := f.slots[o]; ok {
		return i
	}
	return -1
}

// track gives v a slot if there is one left.
func (f *flow) track(v *types.Var) int {
	if i, ok := f.slots[v]; ok {
		return i
	}
	if len(f.objs) >= maxSlots {
		return -1
	}
	r := roleValue
	t := v.Type().Underlying()
	switch {
	case typesx.IsError(v.Type()):
		r = roleErr
	case isBool(t):
		r = roleFlag
	default:
		if ch, ok := t.(*types.Chan); ok && typesx.IsError(ch.Elem()) {
			r = roleErrChan
		}
	}
	i := len(f.objs)
	f.slots[v] = i
	f.objs = append(f.objs, v)
	f.roles = append(f.roles, r)
	return i
}

func isBool(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
}

// bindAttempt applies the attempt's node: the variables it assigns hold
// the attempt's results.
func (f *flow) bindAttempt(n ast.Node, st state) state {
	if ga, ok := f.l.goCalls[f.call]; ok {
		// The goroutine's channels hold the attempt's failure and answer.
		for _, o := range []types.Object{ga.errCh, ga.valCh} {
			if i := f.slot(o); i >= 0 {
				st.vals[i] = bAttempt
			}
		}
		return st
	}
	lhs, rhs := assignParts(n)
	if len(rhs) == 1 && len(lhs) > 1 {
		if c, ok := ast.Unparen(rhs[0]).(*ast.CallExpr); ok && c == f.call {
			for _, l := range lhs {
				if i := f.slot(f.a.objOf(l)); i >= 0 {
					st.vals[i] = bAttempt
				}
			}
			return st
		}
	}
	for i, l := range lhs {
		if i < len(rhs) && astx.Within(f.call, rhs[i]) {
			if s := f.slot(f.a.objOf(l)); s >= 0 {
				st.vals[s] = bAttempt
			}
		} else if i < len(rhs) {
			st = f.assign(l, rhs[i], st)
		}
	}
	return st
}

// assignParts returns the left and right sides of an assignment or a
// variable declaration.
func assignParts(n ast.Node) (lhs, rhs []ast.Expr) {
	switch n := n.(type) {
	case *ast.AssignStmt:
		return n.Lhs, n.Rhs
	case *ast.ValueSpec:
		for _, id := range n.Names {
			lhs = append(lhs, id)
		}
		return lhs, n.Values
	}
	return nil, nil
}

// transfer applies one node to a state.
func (f *flow) transfer(n ast.Node, st state) state {
	switch n := n.(type) {
	case *ast.AssignStmt:
		if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
			for _, l := range n.Lhs {
				if i := f.slot(f.a.objOf(l)); i >= 0 {
					st.vals[i] = bUnknown
					if k, ok := f.a.intConst(n.Rhs[0]); ok && n.Tok == token.ADD_ASSIGN && k > 0 {
						st.vals[i] = bAdvanced
					}
				}
			}
			return st
		}
		if len(n.Rhs) == 1 && len(n.Lhs) > 1 {
			return f.assignTuple(n.Lhs, n.Rhs[0], st)
		}
		for i, l := range n.Lhs {
			if i < len(n.Rhs) {
				st = f.assign(l, n.Rhs[i], st)
			}
		}
	case *ast.ValueSpec:
		if len(n.Values) == 1 && len(n.Names) > 1 {
			lhs := make([]ast.Expr, len(n.Names))
			for i, id := range n.Names {
				lhs[i] = id
			}
			return f.assignTuple(lhs, n.Values[0], st)
		}
		for i, id := range n.Names {
			if i < len(n.Values) {
				st = f.assign(id, n.Values[i], st)
			} else if s := f.slot(f.a.pass.TypesInfo.Defs[id]); s >= 0 {
				st.vals[s] = bNil // var err error
			}
		}
	case *ast.IncDecStmt:
		if i := f.slot(f.a.objOf(n.X)); i >= 0 {
			last := st.vals[i] == bLast
			st.vals[i] = bUnknown
			if n.Tok == token.INC {
				st.vals[i] = bAdvanced
			}
			if fs, ok := f.l.stmt.(*ast.ForStmt); last && ok && fs.Post == n {
				st.vals[i] = bPastEnd // counting up or down
			}
		}
	}
	return st
}

// assignTuple applies x, y := call().
func (f *flow) assignTuple(lhs []ast.Expr, rhs ast.Expr, st state) state {
	b := bOther
	switch r := ast.Unparen(rhs).(type) {
	case *ast.CallExpr:
		if f.consumes(r, st) {
			b = bConsumer
			if f.a.readsStream(r) {
				// n, err := resp.Body.Read(p): the error is the stream's,
				// the other results are values made from the attempt.
				for _, l := range lhs {
					if i := f.slot(f.a.objOf(l)); i >= 0 {
						if f.roles[i] == roleErr {
							st.vals[i] = bStream
						} else {
							st.vals[i] = bConsumer
						}
					}
				}
				return st
			}
		}
	case *ast.TypeAssertExpr:
		// e, ok := err.(T): e is the error seen as T.
		b = f.valueOf(r.X, st)
	case *ast.UnaryExpr:
		if r.Op == token.ARROW {
			b = f.recvBinding(r.X, st)
		}
	case *ast.IndexExpr:
		b = bUnknown
	}
	for _, l := range lhs {
		if i := f.slot(f.a.objOf(l)); i >= 0 {
			if f.roles[i] == roleFlag && b != bConsumer {
				st.vals[i] = bUnknown
			} else {
				st.vals[i] = b
			}
		}
	}
	return st
}

// assign applies l = r.
func (f *flow) assign(l, r ast.Expr, st state) state {
	i := f.slot(f.a.objOf(l))
	if i < 0 {
		return st
	}
	r = ast.Unparen(r)
	switch f.roles[i] {
	case roleFlag:
		switch {
		case f.a.isBoolConst(r, true):
			st.vals[i] = bNonNil
		case f.a.isBoolConst(r, false):
			st.vals[i] = bNil
		default:
			st.vals[i] = bUnknown
		}
		return st
	case roleErr:
		if f.a.isNil(r) {
			st.vals[i] = bNil
			return st
		}
		if c, ok := r.(*ast.CallExpr); ok {
			st.vals[i] = f.errorCall(c, st)
			return st
		}
	}
	st.vals[i] = f.valueOf(r, st)
	if st.vals[i] == bUnknown {
		if c, ok := r.(*ast.CallExpr); ok {
			if f.consumes(c, st) {
				st.vals[i] = bConsumer
			} else {
				st.vals[i] = bOther
			}
		}
	}
	return st
}

// errorCall returns what an error variable holds after err = call().
func (f *flow) errorCall(c *ast.CallExpr, st state) binding {
	fn := f.a.callee(c)
	if fn != nil && fn.Pkg() != nil {
		switch {
		case fn.Pkg().Path() == "fmt" && fn.Name() == "Errorf",
			fn.Pkg().Path() == "errors" && fn.Name() == "New":
			return bNonNil
		}
	}
	// A wrapper of the attempt's error (errors.Wrap(err, "...")) keeps
	// whether it is nil.
	if sig, ok := f.a.pass.TypesInfo.TypeOf(c.Fun).Underlying().(*types.Signature); ok && sig.Results().Len() == 1 {
		for _, x := range c.Args {
			if b := f.valueOf(x, st); b == bAttempt || b == bNonNil {
				if xt := f.a.pass.TypesInfo.TypeOf(x); xt != nil && typesx.IsError(xt) {
					return b
				}
			}
		}
	}
	if f.consumes(c, st) {
		if f.a.readsStream(c) {
			return bStream
		}
		return bConsumer
	}
	return bOther
}

// consumes reports whether a call uses a value the attempt returned (a
// response, its body, a value made from one), so that its error is part
// of the attempt.
func (f *flow) consumes(c *ast.CallExpr, st state) bool {
	found := false
	ast.Inspect(c, func(n ast.Node) bool {
		if found {
			return false
		}
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		if i := f.slot(f.a.pass.TypesInfo.Uses[id]); i >= 0 && (f.roles[i] == roleValue || f.roles[i] == roleErr && !resultsAnError(f.a, c)) {
			// A value the attempt returned, or its error read into a value
			// (st, ok := status.FromError(err)).
			if v := st.vals[i]; v == bAttempt || v == bConsumer {
				found = true
			}
		}
		return true
	})
	return found
}

// resultsAnError reports whether a call's results include an error.
func resultsAnError(a *Definer, c *ast.CallExpr) bool {
	switch t := typeOf(a, c).(type) {
	case *types.Tuple:
		for v := range t.Variables() {
			if typesx.IsError(v.Type()) {
				return true
			}
		}
		return false
	default:
		return typesx.IsError(t)
	}
}

// valueOf returns what an expression holds: a tracked variable, a field
// or method of one (res.Err, iter.Err()), or the attempt call itself.
func (f *flow) valueOf(e ast.Expr, st state) binding {
	e = ast.Unparen(e)
	if c, ok := e.(*ast.CallExpr); ok && c == f.call {
		return bAttempt
	}
	switch x := e.(type) {
	case *ast.Ident:
		if f.a.isNil(x) {
			return bNil
		}
		if i := f.slot(f.a.pass.TypesInfo.Uses[x]); i >= 0 {
			return st.vals[i]
		}
	case *ast.SelectorExpr:
		// res.Err, iter.err, resp.Response: a part of the attempt's value.
		if b := f.valueOf(x.X, st); b == bAttempt || b == bConsumer {
			return b
		}
		// nc.err: an error field the loop keeps an error in.
		if i := f.fieldSlot(x); i >= 0 {
			return st.vals[i]
		}
	case *ast.CallExpr:
		// iter.Err(), res.Error(): a method of the attempt's value that
		// takes nothing.
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && len(x.Args) == 0 {
			if _, isMethod := f.a.pass.TypesInfo.Selections[sel]; isMethod {
				if b := f.valueOf(sel.X, st); b == bAttempt || b == bConsumer {
					return b
				}
			}
		}
	case *ast.UnaryExpr:
		if x.Op == token.ARROW {
			return f.recvBinding(x.X, st)
		}
	}
	return bUnknown
}

// recvBinding returns what a value received from ch holds: the attempt's
// error when ch is the attempt's channel of errors.
func (f *flow) recvBinding(ch ast.Expr, st state) binding {
	if c, ok := ast.Unparen(ch).(*ast.CallExpr); ok && c == f.call {
		return bAttempt
	}
	if i := f.slot(f.a.objOf(ch)); i >= 0 && f.roles[i] == roleErrChan && st.vals[i] == bAttempt {
		return bAttempt
	}
	if ga, ok := f.l.goCalls[f.call]; ok && ga.valCh != nil && f.a.objOf(ch) == ga.valCh {
		if i := f.slot(ga.valCh); i >= 0 && st.vals[i] == bAttempt {
			return bAttempt // the answer of the goroutine's attempt
		}
	}
	return bUnknown
}

// recv applies the receive of a select clause about to run. A receive
// from a channel of an attempt made in a goroutine says how it went: its
// error channel carries only failures, its other channel the answer.
func (f *flow) recv(cc *ast.CommClause, st state) state {
	var x ast.Expr
	var as *ast.AssignStmt
	switch c := cc.Comm.(type) {
	case *ast.AssignStmt:
		if len(c.Rhs) != 1 {
			return st
		}
		as, x = c, c.Rhs[0]
	case *ast.ExprStmt:
		x = c.X
	default:
		return st
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return st
	}
	if ga, ok := f.l.goCalls[f.call]; ok {
		if i := f.slot(f.a.objOf(u.X)); i >= 0 && st.vals[i] == bAttempt {
			o := st.out &^ oErr
			if f.a.objOf(u.X) == ga.errCh {
				o = st.out & oErr
			}
			if o != 0 {
				st.out, st.seen = o, true
			}
		}
	}
	if as == nil {
		return st
	}
	b := f.recvBinding(u.X, st)
	for _, l := range as.Lhs[:1] {
		if i := f.slot(f.a.objOf(l)); i >= 0 {
			st.vals[i] = b
		}
	}
	return st
}

// typeCase refines a state on a type switch clause: a case nil holds when
// the subject is nil, a case of types when it is not.
func (f *flow) typeCase(ts *ast.TypeSwitchStmt, cc *ast.CaseClause, st state) (yes, no []state) {
	var subject ast.Expr
	switch a := ts.Assign.(type) {
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			if ta, ok := ast.Unparen(a.Rhs[0]).(*ast.TypeAssertExpr); ok {
				subject = ta.X
			}
		}
	case *ast.ExprStmt:
		if ta, ok := ast.Unparen(a.X).(*ast.TypeAssertExpr); ok {
			subject = ta.X
		}
	}
	nils, others := 0, 0
	for _, t := range cc.List {
		if f.a.isNil(t) {
			nils++
		} else {
			others++
		}
	}
	yes, no = []state{st}, []state{st}
	if subject == nil {
		return yes, no
	}
	switch {
	case nils > 0 && others == 0:
		return f.nilTest(subject, st, true), f.nilTest(subject, st, false)
	case others > 0 && nils == 0:
		return f.nilTest(subject, st, false), no
	}
	return yes, no
}

// isBoolConst reports whether e is the constant true or false (as want).
func (a *Definer) isBoolConst(e ast.Expr, want bool) bool {
	tv, ok := a.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || !isBool(tv.Type) {
		return false
	}
	return tv.Value.String() == map[bool]string{true: "true", false: "false"}[want]
}

// readsStream reports whether a call reads a stream (io.Reader's Read,
// io.ReadAll, io.Copy, bufio's reads): its error, on the attempt's
// response, is a transport failure of the attempt.
func (a *Definer) readsStream(c *ast.CallExpr) bool {
	fn := a.callee(c)
	if fn == nil {
		return false
	}
	switch fn.Name() {
	case "Read", "ReadAll", "ReadFull", "ReadAtLeast", "Copy", "CopyN", "CopyBuffer", "ReadFrom", "ReadString", "ReadBytes", "ReadLine":
		return true
	}
	return false
}

// advanced reports whether the variable o was incremented since the
// attempt on every path that reaches the exit.
func (f *flow) advanced(e exit, o types.Object) bool {
	i := f.slot(o)
	if i < 0 || len(e.sts) == 0 {
		return false
	}
	for _, st := range e.sts {
		if st.vals[i] != bAdvanced && st.vals[i] != bPastEnd {
			return false
		}
	}
	return true
}

// guardsOf returns the budget checks of a CFG node, found once per loop.
func (l *loop) guardsOf(a *Definer, n ast.Node) []*ast.CallExpr {
	if l.guards == nil {
		l.guards = map[ast.Node][]*ast.CallExpr{}
	}
	gs, ok := l.guards[n]
	if !ok {
		gs = a.guardCalls(n)
		l.guards[n] = gs
	}
	return gs
}

// aborts reports whether a block with no successors ends in a call that
// does not return rather than in a return statement.
func aborts(b *cfg.Block) bool {
	if len(b.Nodes) == 0 {
		return false
	}
	_, ret := b.Nodes[len(b.Nodes)-1].(*ast.ReturnStmt)
	return !ret
}
