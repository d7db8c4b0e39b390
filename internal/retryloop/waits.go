package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/typesx"
)

// A Wait is a place where a retry loop waits between two attempts.
type Wait struct {
	// At is where the loop blocks (the sleep's call, or the receive from
	// the timer's channel), Call the call that sets the duration
	// (time.Sleep, time.After, a timer's Reset or Start or the call that
	// made it, a sleep function), Dur the duration (nil when the wait's is
	// not known: a helper that works it out itself), Ticker the ticker of
	// a receive from one made before.
	durkind.Wait
	// Period is the period of a ticker's wait, where the ticker is made
	// (time.NewTicker(d)); nil for other waits.
	Period ast.Expr
	// Helper says that the wait is a call of a sleep helper (a function
	// that only computes and waits), and Aware that cancellation
	// interrupts every wait the helper makes.
	Helper, Aware bool
	// Kind is what the duration depends on across the loop's iterations
	// (a ticker's period, for a ticker), and Shape its growth apart from
	// its jitter (a random term counts as what it is computed from); both
	// durkind.Unknown when the duration is not known.
	Kind, Shape durkind.Kind
}

// loopWaits returns the waits on the paths from a failed attempt to the
// next one (path; the loop body when there is none), each with what its
// duration depends on. A wait of a constant zero (time.Sleep(0)) is no
// wait, and neither is work a goroutine or a deferred call does.
func (a *Definer) loopWaits(l *loop, path []ast.Node) []Wait {
	env := a.dur
	nodes := path
	if len(nodes) == 0 {
		nodes = []ast.Node{l.body}
	}
	var waits []Wait
	seen := map[ast.Node]bool{}
	byCall := map[*ast.CallExpr]int{}
	for _, n := range nodes {
		switch n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			continue
		}
		for _, w := range a.waitsIn(n, nodes) {
			if v, ok := env.ConstDuration(w.Dur); ok && v <= 0 {
				continue // time.Sleep(0): no wait
			}
			if seen[w.At] {
				continue // a node of the path inside another (a select and its case)
			}
			seen[w.At] = true
			if i, ok := byCall[w.Call]; ok && w.Call != nil {
				// The receive from a timer whose duration another node
				// of the path sets (t.Reset(d) before a select): one
				// wait, where it blocks.
				if _, recv := w.At.(*ast.UnaryExpr); recv {
					waits[i].At = w.At
				}
				continue
			}
			if w.Call != nil {
				byCall[w.Call] = len(waits)
			}
			w.Kind, w.Shape = durkind.Unknown, durkind.Unknown
			waits = append(waits, w)
		}
	}
	if len(waits) == 0 {
		return nil
	}
	outer := a.outerFunc(l)
	sc, shape := env.NewScope(outer, l.stmt), env.NewShapeScope(outer, l.stmt)
	for i := range waits {
		d := waits[i].Dur
		if t := waits[i].Ticker; t != nil {
			d = sc.TickerPeriod(t)
			waits[i].Period = d
		}
		if d != nil {
			waits[i].Kind, waits[i].Shape = sc.Of(d), shape.Of(d)
		}
	}
	return waits
}

// waitsIn returns the waits of one node of a loop's path: those durkind
// finds (time.Sleep, time.After, a timer's Reset, a ticker's receive, a
// sleep function of a context and a duration such as gax.Sleep), a call of
// a function value of a context and a duration (gax's sleeper), and a
// call of a function of the package that waits itself (waitFor(ctx, d)),
// whose duration is its duration argument; and a receive from a timer
// (timerRecv). nodes are the path's, where a timer's Start is looked for.
func (a *Definer) waitsIn(n ast.Node, nodes []ast.Node) []Wait {
	var out []Wait
	byCall := map[*ast.CallExpr]int{} // the wait a call sets the duration of, by index
	for _, w := range a.dur.WaitsIn(n) {
		if w.Call != nil {
			byCall[w.Call] = len(out)
		}
		out = append(out, Wait{Wait: w})
	}
	astx.InspectNoLit(n, func(x ast.Node) bool {
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			if c, ok := unparen(u.X).(*ast.CallExpr); ok {
				if i, ok := byCall[c]; ok {
					out[i].At = u // <-time.After(d): it waits at the receive
					return true
				}
			}
			if w, ok := a.timerRecv(u, nodes); ok {
				if i, ok := byCall[w.Call]; ok && w.Call != nil {
					out[i].At = u // t.Reset(d) then <-t.C
					return true
				}
				if w.Call != nil {
					byCall[w.Call] = len(out)
				}
				out = append(out, Wait{Wait: w})
			}
			return true
		}
		call, ok := x.(*ast.CallExpr)
		if !ok {
			return true
		}
		if _, ok := byCall[call]; ok {
			return true
		}
		fn := a.callee(call)
		d, i := a.durationArg(call)
		if aware, ok := a.sleepHelper(fn); ok {
			// A sleep helper: its duration is its duration argument, if
			// it takes one.
			byCall[call] = len(out)
			out = append(out, Wait{Wait: durkind.Wait{Call: call, Dur: d, At: call}, Helper: true, Aware: aware})
			return true
		}
		switch {
		case d != nil && (fn == nil && a.isSleeperValue(call) || a.waitsInside(fn, i)):
			byCall[call] = len(out)
			out = append(out, Wait{Wait: durkind.Wait{Call: call, Dur: d, At: call}})
		case a.waitsInside(fn, -1):
			// waitBackoff(attempt, ctx, opts): it waits for a duration
			// it works out itself, which this wait does not classify.
			byCall[call] = len(out)
			out = append(out, Wait{Wait: durkind.Wait{Call: call, At: call}})
		}
		return true
	})
	return out
}

// timerRecv reports whether a receive waits on a timer, and for how
// long: <-clock.After(d) (a method of one duration returning a channel);
// <-x.C() or <-x.C after x.Start(d) or x.Reset(d) on the path (a
// *time.Timer reset each time, cenkalti's Timer); <-t.C of a timer a local
// made by a call of one duration (util.TimerWithCancel(d)); with no
// duration when none is found. A time.Ticker's receive is durkind's.
func (a *Definer) timerRecv(u *ast.UnaryExpr, nodes []ast.Node) (durkind.Wait, bool) {
	info := a.pass.TypesInfo
	ch := unparen(u.X)
	if c, ok := ch.(*ast.CallExpr); ok {
		if fn := a.callee(c); fn != nil && typesx.PkgPath(fn) != "time" && len(c.Args) == 1 {
			if t := info.TypeOf(c); t != nil && isChan(t) && durkind.IsDuration(info.TypeOf(c.Args[0])) {
				return durkind.Wait{Call: c, Dur: c.Args[0], At: u}, true
			}
		}
	}
	var x ast.Expr
	switch c := ch.(type) {
	case *ast.SelectorExpr:
		if c.Sel.Name == "C" {
			x = c.X
		}
	case *ast.CallExpr:
		if sel, ok := unparen(c.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "C" && len(c.Args) == 0 {
			x = sel.X
		}
	}
	if x == nil {
		return durkind.Wait{}, false
	}
	if t := info.TypeOf(x); t != nil && (typesx.IsNamed(t, "time", "Ticker") || typesx.IsNamedPtr(t, "time", "Ticker")) {
		return durkind.Wait{}, false // durkind's
	}
	key := types.ExprString(x)
	for _, n := range nodes {
		var found *ast.CallExpr
		astx.InspectNoLit(n, func(y ast.Node) bool {
			c, ok := y.(*ast.CallExpr)
			if !ok || found != nil {
				return found == nil
			}
			if sel, ok := unparen(c.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Start" || sel.Sel.Name == "Reset") && len(c.Args) == 1 && types.ExprString(sel.X) == key {
				found = c
			}
			return found == nil
		})
		if found != nil {
			return durkind.Wait{Call: found, Dur: found.Args[0], At: u}, true
		}
	}
	// A timer made by a call of one duration, with no Start or Reset on
	// the path: the duration it was made with.
	if id, ok := unparen(x).(*ast.Ident); ok {
		if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() == a.pass.Pkg {
			if c, ok := unparen(a.host.Definition(v)).(*ast.CallExpr); ok {
				if d, _ := a.durationArg(c); d != nil && len(c.Args) == 1 {
					return durkind.Wait{Call: c, Dur: d, At: u}, true
				}
			}
		}
	}
	return durkind.Wait{At: u}, true
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// durationArg returns the one argument of call of type time.Duration
// and its index, or nil.
func (a *Definer) durationArg(call *ast.CallExpr) (ast.Expr, int) {
	var d ast.Expr
	at := -1
	for i, arg := range call.Args {
		if t := a.pass.TypesInfo.TypeOf(arg); t != nil && durkind.IsDuration(t) {
			if d != nil || call.Ellipsis.IsValid() {
				return nil, -1
			}
			d, at = arg, i
		}
	}
	return d, at
}

// isSleeperValue reports whether call calls a function value taking a
// context and a duration and returning an error: a sleep that ends early
// when the context does.
func (a *Definer) isSleeperValue(call *ast.CallExpr) bool {
	t := a.pass.TypesInfo.TypeOf(call.Fun)
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 2 || sig.Results().Len() != 1 {
		return false
	}
	return inherit.IsContext(sig.Params().At(0).Type()) && durkind.IsDuration(sig.Params().At(1).Type()) && typesx.IsError(sig.Results().At(0).Type())
}

// waitKey is a question waitsInside answers: does fn wait for its
// parameter i (for none, with i < 0)?
type waitKey struct {
	fn *types.Func
	i  int
}

// waitsInside reports whether fn, a function of the package, waits in
// its body (outside function literals and goroutines) for the duration its
// parameter i holds: waitFor(ctx, d) with a timer of d. With i < 0 it
// reports whether fn waits for a duration no parameter of a duration type
// holds: one it works out itself (waitBackoff(attempt, ctx, opts)).
func (a *Definer) waitsInside(fn *types.Func, i int) (found bool) {
	if fn == nil || fn.Pkg() != a.pass.Pkg {
		return false
	}
	key := waitKey{fn, i}
	if w, ok := a.waits[key]; ok {
		return w
	}
	if a.waits == nil {
		a.waits = map[waitKey]bool{}
	}
	defer func() { a.waits[key] = found }()
	fd := a.host.Decl(fn)
	params := fn.Signature().Params()
	if fd == nil || i >= params.Len() {
		return false
	}
	refers := func(e ast.Expr) bool {
		if i >= 0 {
			return typesx.Refers(a.pass.TypesInfo, e, params.At(i))
		}
		for j := range params.Len() {
			if durkind.IsDuration(params.At(j).Type()) && typesx.Refers(a.pass.TypesInfo, e, params.At(j)) {
				return false // a duration the caller passes: the case above
			}
		}
		return true
	}
	env := a.dur
	astx.InspectNoLit(fd.Body, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if w, ok := env.WaitCall(x); ok && refers(w.Dur) {
				found = true
			}
		}
		return !found
	})
	return found
}

// outerFunc returns the outermost function around a loop, whose body
// holds every variable the loop's code uses.
func (a *Definer) outerFunc(l *loop) ast.Node {
	for _, f := range a.pass.Files {
		if f.FileStart > l.stmt.Pos() || l.stmt.Pos() >= f.FileEnd {
			continue
		}
		for _, d := range f.Decls {
			if d.Pos() <= l.stmt.Pos() && l.stmt.End() <= d.End() {
				if fd, ok := d.(*ast.FuncDecl); ok {
					return fd
				}
			}
		}
	}
	return l.fn
}

// sleepHelper asks the host whether fn, when there is one, is a sleep
// helper.
func (a *Definer) sleepHelper(fn *types.Func) (aware, ok bool) {
	if fn == nil {
		return false, false
	}
	return a.host.SleepHelper(fn)
}

// DurationArg returns the one argument of call of type time.Duration and
// its index, or nil.
func (a *Definer) DurationArg(call *ast.CallExpr) (ast.Expr, int) { return a.durationArg(call) }

// Waits returns the waits in n, outside function literals, as the
// definition finds them between two attempts (waitsIn): what a poll
// helper's loop waits for, in internal/retrysite.
func (a *Definer) Waits(n ast.Node) []Wait { return a.waitsIn(n, nil) }
