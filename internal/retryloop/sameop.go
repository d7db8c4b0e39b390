package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/typesx"
)

// This file decides whether a loop's attempt repeats the same operation
// (see the package doc): its inputs do not depend on what earlier
// iterations did, or the loop tries one operation against the next
// endpoint of a list (failover).

// sameOperation reports whether the attempt repeats one operation.
func (a *Definer) sameOperation(l *loop, f *flow) bool {
	if l.failover() && !a.failoverTarget(l, f.call, l.over) {
		return false
	}
	if a.receivesNext(f.call) || a.takesQueued(l, f.call) {
		return false
	}
	ok := true
	for _, in := range a.attemptInputs(f.call) {
		if !a.inputSame(l, f, in) {
			ok = false
			break
		}
	}
	for _, arg := range f.call.Args {
		if ok && a.replanned(l, f, arg) {
			ok = false
		}
	}
	return ok && !a.dedupes(l, f)
}

// replanned reports whether an argument of the attempt (not its receiver)
// is planned on each iteration by a method of a variable x of the
// function, x.plan(...), that reads a field of x which another method
// of x the loop calls outside the attempt assigns (t.recoversFrom(err)
// sets t.link, which t.planRequest reads): the way round changes what the
// next request is planned from, so the next attempt sends a different
// request. A receiver planned so (conn := c.getConn() after c.reconnect())
// is a handle looked up again, the same operation.
func (a *Definer) replanned(l *loop, f *flow, arg ast.Expr) bool {
	// The plans: method calls on a variable whose result the argument
	// is, directly or through one local the loop assigns.
	var plans []*ast.CallExpr
	var find func(e ast.Expr, depth int)
	find = func(e ast.Expr, depth int) {
		astx.InspectNoLit(e, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				plans = append(plans, n)
			case *ast.Ident:
				if v, ok := a.pass.TypesInfo.Uses[n].(*types.Var); ok && depth < 2 && !v.IsField() && v.Pkg() != nil && v.Parent() != v.Pkg().Scope() {
					for _, d := range a.defsInLoop(l, v) {
						if d.rhs != nil && !d.compound {
							find(d.rhs, depth+1)
						}
					}
				}
			}
			return true
		})
	}
	find(arg, 0)
	for _, plan := range plans {
		x, reads := a.recvFields(plan, false)
		if x == nil || len(reads) == 0 {
			continue
		}
		repaired := false
		astx.InspectNoLit(l.body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || repaired || call == plan || call == f.call {
				return !repaired
			}
			if y, sets := a.recvFields(call, true); y == x {
				for fld := range sets {
					repaired = repaired || reads[fld]
				}
			}
			return !repaired
		})
		if repaired {
			return true
		}
	}
	return false
}

// recvFields returns, for a call x.m(...) of a method of the package on a
// local variable or parameter x, that variable and the fields of x the
// method's own body reads (or, with assigned, assigns); nil otherwise.
func (a *Definer) recvFields(call *ast.CallExpr, assigned bool) (types.Object, map[*types.Var]bool) {
	sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	if _, ok := unparen(sel.X).(*ast.Ident); !ok {
		return nil, nil
	}
	x, ok := a.objOf(sel.X).(*types.Var)
	if !ok || x.IsField() {
		return nil, nil
	}
	fn := a.callee(call)
	if fn == nil || fn.Pkg() != a.pass.Pkg {
		return nil, nil
	}
	fd, recv := a.methodRecv(fn)
	if fd == nil {
		return nil, nil
	}
	out := map[*types.Var]bool{}
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if v := a.recvField(l, recv); v != nil && assigned {
					out[v] = true
				}
			}
		case *ast.SelectorExpr:
			if v := a.recvField(n, recv); v != nil && !assigned {
				out[v] = true
			}
		}
		return true
	})
	return x, out
}

// methodRecv returns the declaration of a method of the package, with a
// body and a named receiver, and that receiver's object; nil otherwise.
func (a *Definer) methodRecv(fn *types.Func) (*ast.FuncDecl, types.Object) {
	if fn.Signature().Recv() == nil {
		return nil, nil
	}
	fd := a.host.Decl(fn)
	if fd == nil || fd.Body == nil || fd.Recv == nil || len(fd.Recv.List) == 0 || len(fd.Recv.List[0].Names) == 0 {
		return nil, nil
	}
	recv := a.pass.TypesInfo.Defs[fd.Recv.List[0].Names[0]]
	if recv == nil {
		return nil, nil
	}
	return fd, recv
}

// recvField returns the field of the receiver recv that e selects
// (q.items), or nil.
func (a *Definer) recvField(e ast.Expr, recv types.Object) *types.Var {
	sel, ok := unparen(e).(*ast.SelectorExpr)
	if !ok || a.objOf(sel.X) != recv {
		return nil
	}
	v, _ := a.objOf(sel).(*types.Var)
	if v == nil || !v.IsField() {
		return nil
	}
	return v
}

// receivesNext reports whether the attempt is a function of the package
// that only takes the next value other goroutines produce: it has a
// result besides its error, and its body, outside function literals,
// receives from a channel of values (not of errors, not of struct{}),
// sends on none, and makes no call that can fail but local work and its
// context's (ctx.Err()), outside a select clause that runs once the
// context ended or the time ran out (isDoneRecv: case <-ctx.Done(): tell
// the server to stop). Each call
// takes a new value, as a receive in the
// loop itself would: the loop consumes, it does not retry an operation.
// (A function that receives only an error, take() error { return
// <-q.errs }, reports the outcome of work done elsewhere: an attempt. So
// does one that receives what goroutines it starts itself send: go
// func(p Pool) { ch <- act(p) }(p) for each pool, then r := <-ch, a
// fan-out of its own attempt.)
func (a *Definer) receivesNext(call *ast.CallExpr) bool {
	fn := a.callee(call)
	if fn == nil {
		return false
	}
	fd := a.host.Decl(fn)
	if fd == nil || fd.Body == nil {
		return false
	}
	value := false
	res := fn.Signature().Results()
	for i := range res.Len() {
		if !typesx.IsError(res.At(i).Type()) {
			value = true
		}
	}
	if !value {
		return false
	}
	recv, other := false, false
	var recvd []types.Object
	goSent := map[types.Object]bool{} // channels the function's own goroutines send on
	astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			ast.Inspect(n.Call, func(n ast.Node) bool {
				if s, ok := n.(*ast.SendStmt); ok {
					goSent[a.objOf(s.Chan)] = true
				}
				return true
			})
		case *ast.CommClause:
			// case <-ctx.Done(): the caller gave up or the time ran out;
			// what the function does then (telling the server to stop)
			// is no attempt.
			if n.Comm != nil && a.isDoneRecv(n.Comm) {
				return false
			}
		case *ast.UnaryExpr:
			if n.Op != token.ARROW {
				break
			}
			if ch, ok := typeOf(a, n.X).Underlying().(*types.Chan); ok {
				if st, isStruct := ch.Elem().Underlying().(*types.Struct); !typesx.IsError(ch.Elem()) && !(isStruct && st.NumFields() == 0) {
					recv = true
					recvd = append(recvd, a.objOf(n.X))
				}
			}
		case *ast.SendStmt:
			other = true
		case *ast.CallExpr:
			if !a.resultsError(n) {
				break
			}
			if callee := a.callee(n); callee != nil && typesx.PkgPath(callee) == "context" {
				break
			}
			if !a.host.LocalWork(n) {
				other = true
			}
		}
		return !other
	})
	// Results of goroutines the function starts itself (one per pool,
	// gathered from one channel) are its own attempt's, not the next
	// value of a queue.
	for _, ch := range recvd {
		if ch != nil && goSent[ch] {
			return false
		}
	}
	return recv && !other
}

// takesQueued reports whether an argument of the attempt is the next
// value of a queue: the result of a method of the package that takes it
// off a slice of its receiver (q.items = q.items[1:]), called in the
// argument or assigned, in the loop, to the variable the argument is.
// Each attempt is then of another value, as one fed by a receive is: the
// loop drains the queue, it does not retry. The receiver is not judged
// so: a connection taken off a pool for each attempt makes the same
// request again.
func (a *Definer) takesQueued(l *loop, call *ast.CallExpr) bool {
	for _, x := range call.Args {
		x = unparen(x)
		if c, ok := x.(*ast.CallExpr); ok && a.dequeues(c) {
			return true
		}
		v, ok := a.objOf(x).(*types.Var)
		if !ok {
			continue
		}
		for _, d := range a.defsInLoop(l, v) {
			if c, ok := unparen(d.rhs).(*ast.CallExpr); ok && a.dequeues(c) {
				return true
			}
		}
	}
	return false
}

// dequeues reports whether c calls a method of the package whose body,
// outside function literals, reslices a field of its receiver into itself
// (q.items = q.items[1:], q.buf = q.buf[:n-1]): it takes a value off.
func (a *Definer) dequeues(c *ast.CallExpr) bool {
	fn := a.callee(c)
	if fn == nil {
		return false
	}
	fd, recv := a.methodRecv(fn)
	if fd == nil {
		return false
	}
	field := func(e ast.Expr) *types.Var { return a.recvField(e, recv) }
	found := false
	astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || found || len(as.Lhs) != len(as.Rhs) {
			return !found
		}
		for i, l := range as.Lhs {
			sl, ok := unparen(as.Rhs[i]).(*ast.SliceExpr)
			if f := field(l); ok && f != nil && field(sl.X) == f {
				found = true
			}
		}
		return !found
	})
	return found
}

// attemptInputs returns the expressions an attempt depends on: its
// arguments and its receiver.
func (a *Definer) attemptInputs(call *ast.CallExpr) []ast.Expr {
	in := append([]ast.Expr{}, call.Args...)
	if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok {
		if _, isMethod := a.pass.TypesInfo.Selections[sel]; isMethod {
			in = append(in, sel.X)
		}
	}
	return in
}

// inputSame reports whether one input of the attempt is the same on every
// iteration: the counter passed as the attempt's number, an endpoint of a
// list indexed by the counter (failover), or values that no earlier
// iteration changed.
func (a *Definer) inputSame(l *loop, f *flow, in ast.Expr) bool {
	return a.sameValue(l, f, in, 0)
}

// sameValue reports whether e has the same value on every iteration
// when the attempt is made, as inputSame says.
func (a *Definer) sameValue(l *loop, f *flow, e ast.Expr, depth int) bool {
	if a.isCounter(l, a.objOf(e)) {
		return true // the attempt's number: retry(ctx, attempt)
	}
	if t := a.pass.TypesInfo.TypeOf(e); t != nil && durkind.IsDuration(t) {
		// A duration is the attempt's time limit, not its work, however
		// it is worked out (time.Duration(math.Pow(5, n)) * time.Second),
		// as for a variable of one (invariant).
		return true
	}
	same := true
	ast.Inspect(e, func(n ast.Node) bool {
		if !same {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.UnaryExpr:
			if n.Op == token.ARROW {
				same = false // a new value from a channel
			}
		case *ast.CallExpr:
			if n == f.call {
				same = false
				return false
			}
			// withRetryCount(ctx, attempt): the attempt's number handed
			// on, not different work.
			for _, x := range n.Args {
				if !a.sameValue(l, f, x, depth) {
					same = false
				}
			}
			if !a.sameValue(l, f, n.Fun, depth) {
				same = false
			}
			return false
		case *ast.CompositeLit:
			// req{attempt: i, last: err}: what each field holds, the
			// attempt's number handed on as an argument is.
			_, isStruct := typeOf(a, n).Underlying().(*types.Struct)
			for _, el := range n.Elts {
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					if !isStruct && !a.sameValue(l, f, kv.Key, depth) {
						same = false
					}
					el = kv.Value
				}
				if !a.sameValue(l, f, el, depth) {
					same = false
				}
			}
			return false
		case *ast.IndexExpr:
			if l.counter != nil && typesx.Refers(a.pass.TypesInfo, n.Index, l.counter) {
				// servers[i].Call(), dial(addrs[i%len(addrs)]): failover;
				// items[i]: the next item.
				if !a.isEndpoints(n.X, nil) || !a.sameValue(l, f, n.X, depth) {
					same = false
				} else if id, ok := ast.Unparen(n.Index).(*ast.Ident); ok && a.objOf(id) == l.counter {
					// servers[i]: one attempt per endpoint, a failover
					// over the list (addrs[i%len(addrs)] comes round to
					// each endpoint again: a retry of each).
					l.indexed = n.X
				}
				return false
			}
		case *ast.Ident:
			if !a.invariant(l, f, n, depth) {
				same = false
			}
		}
		return true
	})
	return same
}

// isCounter reports whether o counts the loop's iterations: the for
// statement's counter, or a variable the loop only ever increments.
func (a *Definer) isCounter(l *loop, o types.Object) bool {
	if o == nil {
		return false
	}
	if o == l.counter {
		return true
	}
	v, ok := o.(*types.Var)
	if !ok || !a.countedIn(l, v, token.INC) {
		return false
	}
	for _, d := range a.defsInLoop(l, v) {
		switch n := d.node.(type) {
		case *ast.IncDecStmt:
			if n.Tok != token.INC {
				return false
			}
		case *ast.AssignStmt:
			// attempt += 1 counts; offset += 100 moves; attempt = 1, the
			// value it starts from, counts again from the start.
			k, ok := a.intConst(n.Rhs[0])
			switch {
			case ok && n.Tok == token.ADD_ASSIGN && k == 1:
			case ok && n.Tok == token.ASSIGN && a.startsAt(l, v, k):
			default:
				return false
			}
		default:
			return false
		}
	}
	return true
}

// startsAt reports whether v is declared before the loop, in its
// function, with the constant k as its value (attempts := 1).
func (a *Definer) startsAt(l *loop, v *types.Var, k int64) bool {
	if v.Pos() >= l.stmt.Pos() {
		return false
	}
	found := false
	astx.InspectNoLit(l.fn, func(n ast.Node) bool {
		if found || n == l.stmt {
			return false
		}
		lhs, rhs := assignParts(n)
		if as, ok := n.(*ast.AssignStmt); ok && as.Tok != token.DEFINE || len(lhs) != len(rhs) {
			return true
		}
		for i, e := range lhs {
			if id, ok := e.(*ast.Ident); ok && a.pass.TypesInfo.Defs[id] == v {
				c, isConst := a.intConst(rhs[i])
				found = isConst && c == k
			}
		}
		return !found
	})
	return found
}

// invariant reports whether the variable id names holds the same value on
// every iteration when the attempt is made: it is not assigned in the
// loop, or every path rebuilds it before the attempt from invariant
// values (a request made anew from the same URL and body).
func (a *Definer) invariant(l *loop, f *flow, id *ast.Ident, depth int) bool {
	v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return true
	}
	if v == l.counter || v == l.over || v == l.cursor {
		return v == l.over // a failover's endpoint changes by design; a cursor's value is other work
	}
	if depth > 4 || durkind.IsDuration(v.Type()) {
		// A duration is the attempt's time limit, not its work: the
		// time left (ttl -= wait), a longer timeout, the same
		// operation.
		return true
	}
	if f.isResultVar(v) {
		// The attempt's own answer feeds the next attempt: different
		// work. Its error is what the failure says, read for the same
		// operation, as an error errors.As unwrapped is: the node a
		// redirect names (node = nodeAt(movedTo(err))), the part that
		// failed.
		return typesx.IsError(v.Type()) || f.readsFailure
	}
	// Whether the loop rebuilds the value before each attempt or keeps it
	// from the iteration before, it is the same operation when every
	// assignment in the loop gives it a value that does not depend on what
	// an iteration did: not a result of the attempt, not the old value
	// (x += n, size /= 2), not a new value from a channel.
	outer := v.Pos() < l.body.Pos() || v.Pos() >= l.body.End()
	for _, d := range a.defsInLoop(l, v) {
		if outer && d.compound {
			return false // offset += n: the old value, changed
		}
		if outer && d.rhs != nil && a.copyOf(d.rhs, v) {
			continue // req = req.Clone(req.Context()): the same value, copied
		}
		if outer && d.rhs != nil && typesx.Refers(a.pass.TypesInfo, d.rhs, v) && !a.handedToCall(d.rhs, v) {
			return false // size = size / 2: the old value, changed
		}
		if outer && d.rhs != nil && a.failedPart(d.rhs) {
			continue // m = toRetry: the failed part of the same work
		}
		if !a.invariantDef(l, f, d, depth) {
			return false
		}
	}
	return true
}

// handedToCall reports whether rhs is a call that is given v itself
// (spc, err = s.get(spc): the old stream, to reopen it if it failed) and
// uses v nowhere else: a refreshed handle, not a changed value.
func (a *Definer) handedToCall(rhs ast.Expr, v *types.Var) bool {
	c, ok := unparen(rhs).(*ast.CallExpr)
	if !ok {
		return false
	}
	bare := false
	for _, x := range c.Args {
		if a.objOf(x) == v {
			bare = true
		} else if typesx.Refers(a.pass.TypesInfo, x, v) {
			return false
		}
	}
	return bare && !typesx.Refers(a.pass.TypesInfo, c.Fun, v)
}

// copyOf reports whether rhs copies v: a method of v named Clone, Copy,
// DeepCopy or WithContext whose result has v's type (req.Clone(ctx),
// req.WithContext(ctx)), whose arguments read v only through its methods
// of no argument (req.Context()). The copy is the value it was made from,
// so the attempt it feeds is the same operation.
func (a *Definer) copyOf(rhs ast.Expr, v *types.Var) bool {
	c, ok := unparen(rhs).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := unparen(c.Fun).(*ast.SelectorExpr)
	if !ok || a.objOf(sel.X) != v {
		return false
	}
	switch sel.Sel.Name {
	case "Clone", "Copy", "DeepCopy", "WithContext":
	default:
		return false
	}
	if t := a.pass.TypesInfo.TypeOf(c); t == nil || !types.Identical(t, v.Type()) {
		return false
	}
	for _, x := range c.Args {
		reads := false
		ast.Inspect(x, func(n ast.Node) bool {
			if m, ok := n.(*ast.CallExpr); ok && len(m.Args) == 0 {
				if s, ok := unparen(m.Fun).(*ast.SelectorExpr); ok && a.objOf(s.X) == v {
					return false // req.Context(): read through a method
				}
			}
			if id, ok := n.(*ast.Ident); ok && a.pass.TypesInfo.Uses[id] == v {
				reads = true
			}
			return !reads
		})
		if reads {
			return false
		}
	}
	return true
}

// failedPart reports whether e names the failed part of an attempt's
// work (toRetry, failed, retryable): the next attempt retries those.
func (a *Definer) failedPart(e ast.Expr) bool {
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		return false
	}
	n := strings.ToLower(id.Name)
	return strings.Contains(n, "retr") || strings.Contains(n, "fail")
}

// def is one assignment to a variable in the loop: its right-hand side,
// or nil for a change that depends on the old value (x++, x += n, x /= 2).
type def struct {
	node     ast.Node
	rhs      ast.Expr
	compound bool // x += rhs: the old value, changed by rhs
}

func (a *Definer) invariantDef(l *loop, f *flow, d def, depth int) bool {
	if d.rhs == nil {
		return false
	}
	// node = nodeAt(out.addr) where only a failure goes: what the
	// failure says, read for the same operation. Each assignment read on
	// the way is judged by where it is made.
	prev := f.readsFailure
	f.readsFailure = f.failureOnly(d.node)
	defer func() { f.readsFailure = prev }()
	return a.sameValue(l, f, d.rhs, depth+1)
}

// failureOnly reports whether every path of the flow that reaches the
// node n carries a failure of the attempt, and some path does.
func (f *flow) failureOnly(n ast.Node) bool {
	var b int32 = -1
	for _, blk := range f.l.g.Blocks {
		for _, m := range blk.Nodes {
			if m == n {
				b = blk.Index
			}
		}
	}
	if b < 0 {
		return false
	}
	var out outcome
	for k := range f.graph {
		if k.block == b {
			out |= k.st.out
		}
	}
	return out != 0 && out&oSuccess == 0
}

// isResultVar reports whether v is assigned a result of the attempt.
func (f *flow) isResultVar(v *types.Var) bool {
	lhs, rhs := assignParts(f.node)
	for i, e := range lhs {
		if f.a.objOf(e) != v {
			continue
		}
		if len(rhs) == 1 || (i < len(rhs) && astx.Within(f.call, rhs[i])) {
			return true
		}
	}
	return false
}

// defsInLoop returns the assignments to v in the loop's body and post
// statement.
func (a *Definer) defsInLoop(l *loop, v *types.Var) []def {
	var out []def
	visit := func(root ast.Node) {
		astx.InspectNoLit(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if a.objOf(lhs) != v {
						continue
					}
					switch {
					case n.Tok != token.ASSIGN && n.Tok != token.DEFINE:
						out = append(out, def{node: n, rhs: n.Rhs[0], compound: true})
					case len(n.Rhs) == len(n.Lhs):
						out = append(out, def{node: n, rhs: n.Rhs[i]})
					default:
						out = append(out, def{node: n, rhs: n.Rhs[0]})
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if a.pass.TypesInfo.Defs[id] == v && i < len(n.Values) && len(n.Values) == len(n.Names) {
						out = append(out, def{node: n, rhs: n.Values[i]})
					}
				}
			case *ast.IncDecStmt:
				if a.objOf(n.X) == v {
					out = append(out, def{node: n})
				}
			case *ast.RangeStmt:
				if n != l.stmt && (n.Key != nil && a.objOf(n.Key) == v || n.Value != nil && a.objOf(n.Value) == v) {
					// for k := range m: k comes from m.
					out = append(out, def{node: n, rhs: n.X})
				}
			}
			return true
		})
	}
	visit(l.body)
	if fs, ok := l.stmt.(*ast.ForStmt); ok && fs.Post != nil {
		visit(fs.Post)
	}
	return out
}

// assigns reports whether the CFG node n assigns v.
func (a *Definer) assigns(n ast.Node, v *types.Var) bool {
	lhs, _ := assignParts(n)
	for _, e := range lhs {
		if a.objOf(e) == v {
			return true
		}
	}
	return false
}

// endpointWords name the things a failover goes through.
var endpointWords = []string{
	"host", "addr", "server", "broker", "endpoint", "url", "uri", "node", "peer",
	"replica", "seed", "upstream", "backend", "mirror", "region", "cluster", "shard",
	"member", "instance", "conn", "client", "target", "dialer", "remote", "primary",
	"secondary", "master", "leader",
}

// failover reports whether the loop goes through endpoints: a range
// over a list of them, or a picker's.
func (l *loop) failover() bool { return l.list != nil || l.picker != nil }

// isEndpoint reports whether a variable holds an endpoint, by its type
// (an address type of the standard library) or by its name or its type's
// name: addr, b *Broker.
func (a *Definer) isEndpoint(v types.Object) bool {
	if isAddrType(v.Type()) {
		return true
	}
	names := []string{v.Name()}
	if n, ok := types.Unalias(derefType(v.Type())).(*types.Named); ok {
		names = append(names, n.Obj().Name())
	}
	return endpointName(names)
}

// isEndpoints reports whether a list (or its element) holds endpoints of
// one dependency, by its name or its element type's name: servers,
// cfg.Brokers, addrs, []*Node.
func (a *Definer) isEndpoints(list ast.Expr, elem types.Object) bool {
	var names []string
	switch x := unparen(list).(type) {
	case *ast.Ident:
		names = append(names, x.Name)
	case *ast.SelectorExpr:
		names = append(names, x.Sel.Name)
	case *ast.CallExpr:
		names = append(names, a.render(x.Fun))
	}
	if elem != nil {
		names = append(names, elem.Name())
	}
	if t := a.pass.TypesInfo.TypeOf(list); t != nil {
		var et types.Type
		switch u := t.Underlying().(type) {
		case *types.Slice:
			et = u.Elem()
		case *types.Array:
			et = u.Elem()
		}
		if et != nil && isAddrType(et) {
			return true // []net.IP, []*url.URL
		}
		if p, ok := et.(*types.Pointer); ok {
			et = p.Elem()
		}
		if n, ok := types.Unalias(et).(*types.Named); ok {
			names = append(names, n.Obj().Name())
		}
	}
	return endpointName(names)
}

// addrTypes are the standard library's types of a network address, by
// package: a value of one is an endpoint whatever it is named.
var addrTypes = map[string][]string{
	"net":       {"IP", "IPAddr", "TCPAddr", "UDPAddr", "UnixAddr", "Addr"},
	"net/netip": {"Addr", "AddrPort"},
	"net/url":   {"URL"},
}

// isAddrType reports whether t (or what it points to) is one of addrTypes.
func isAddrType(t types.Type) bool {
	n, ok := types.Unalias(derefType(t)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return false
	}
	return slices.Contains(addrTypes[n.Obj().Pkg().Path()], n.Obj().Name())
}

// keyedTarget reports whether call, in a range over a list that holds no
// endpoints, is made on an endpoint that the element picks: its receiver
// is a variable of the body that holds an endpoint (isEndpoint) and is
// derived from the element (dialer := dialers[proto], or a type assertion
// of that), and no argument is. Trying the transports of one connection
// in turn is failover; trying the next item of a list on one endpoint is
// other work, and so is asking each element itself (a chain of providers).
func (a *Definer) keyedTarget(l *loop, call *ast.CallExpr) bool {
	sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if _, isMethod := a.pass.TypesInfo.Selections[sel]; !isMethod {
		return false
	}
	v, ok := a.objOf(sel.X).(*types.Var)
	if !ok || v == l.over || v.Pos() < l.body.Pos() || v.Pos() >= l.body.End() || !a.isEndpoint(v) {
		return false
	}
	if !a.derivesFrom(l, sel.X, l.over, 0) {
		return false
	}
	for _, arg := range call.Args {
		if a.derivesFrom(l, arg, l.over, 0) {
			return false
		}
	}
	return true
}

// endpointName reports whether one of the names ends in an endpoint word.
func endpointName(names []string) bool {
	for _, n := range names {
		head := strings.ToLower(lastWord(n))
		for _, w := range endpointWords {
			if strings.HasPrefix(head, w) {
				return true
			}
		}
	}
	return false
}

// lastWord returns the last word of a Go name, its head noun: Addr of
// opt.Addr, Broker of seedBroker, servers of servers.
func lastWord(n string) string {
	if i := strings.LastIndexAny(n, "._"); i >= 0 {
		n = n[i+1:]
	}
	for i := len(n) - 1; i > 0; i-- {
		if n[i] >= 'A' && n[i] <= 'Z' && n[i-1] >= 'a' && n[i-1] <= 'z' {
			return n[i:]
		}
	}
	return n
}

// failoverTarget reports whether a loop over endpoints is failover: the
// endpoint elem is the attempt's target (its receiver, or an argument).
// (Loop has checked that the list or the picked variable holds
// endpoints.)
func (a *Definer) failoverTarget(l *loop, call *ast.CallExpr, elem types.Object) bool {
	for _, in := range a.attemptInputs(call) {
		if a.derivesFrom(l, in, elem, 0) {
			return true
		}
	}
	return false
}

// derivesFrom reports whether e uses o, directly or through the values the
// loop body gives the variables it uses (req from http.NewRequest(url)).
func (a *Definer) derivesFrom(l *loop, e ast.Expr, o types.Object, depth int) bool {
	if typesx.Refers(a.pass.TypesInfo, e, o) {
		return true
	}
	if depth > 3 {
		return false
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || found {
			return !found
		}
		v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.Pos() < l.body.Pos() || v.Pos() >= l.body.End() {
			return true
		}
		for _, d := range a.defsInLoop(l, v) {
			if d.rhs != nil && a.derivesFrom(l, d.rhs, o, depth+1) {
				found = true
			}
		}
		return !found
	})
	return found
}

// dedupes reports whether the loop refuses to repeat an input: it leaves
// when the attempt's input equals the one the previous iteration failed
// with (if idx == lastFailed { return lastErr }; ...; lastFailed = idx),
// so no operation is attempted twice.
func (a *Definer) dedupes(l *loop, f *flow) bool {
	inputs := map[types.Object]bool{}
	for _, in := range a.attemptInputs(f.call) {
		if o := a.objOf(in); o != nil {
			inputs[o] = true
		}
	}
	if len(inputs) == 0 {
		return false
	}
	// w = x in the loop, w declared before it, x an input.
	saved := map[types.Object]types.Object{}
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			w, x := a.objOf(lhs), a.objOf(as.Rhs[i])
			if w != nil && x != nil && inputs[x] && !(l.body.Pos() <= w.Pos() && w.Pos() < l.body.End()) {
				saved[w] = x
			}
		}
		return true
	})
	if len(saved) == 0 {
		return false
	}
	found := false
	astx.InspectNoLit(l.body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || found {
			return !found
		}
		for _, d := range disjuncts(ifs.Cond) {
			b, ok := unparen(d).(*ast.BinaryExpr)
			if !ok || b.Op != token.EQL {
				continue
			}
			x, y := a.objOf(b.X), a.objOf(b.Y)
			if x != nil && y != nil && (saved[x] == y || saved[y] == x) && leavesList(ifs.Body.List) {
				found = true
			}
		}
		return !found
	})
	return found
}

// leavesList reports whether a statement list ends in a return or break.
func leavesList(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.BranchStmt:
		return s.Tok == token.BREAK || s.Tok == token.GOTO
	}
	return false
}
