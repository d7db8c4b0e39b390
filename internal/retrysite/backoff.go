package retrysite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// durEnv returns the package's duration summaries (internal/durkind, the
// nojitter pass's), made on first use, with the retry libraries' backoff
// values known by the retryapi table.
func (a *analyzer) durEnv() *durkind.Env {
	if a.dur == nil {
		a.dur = durkind.New(a.pass.TypesInfo, a.pass.Pkg, a.pass.Files, func(fn *types.Func) (durkind.Kind, bool) {
			var f DelayFact
			if !a.pass.ImportObjectFact(fn, &f) {
				return durkind.Unknown, false
			}
			if f.Random {
				return durkind.Random, true
			}
			return durkind.Fixed, true
		})
		a.dur.SetValues(a.backoffValueCall)
	}
	return a.dur
}

// exportDelayFacts exports a DelayFact for the functions of the package
// whose one result is a number: random ones whatever the number,
// deterministic ones when it is a time.Duration.
func (a *analyzer) exportDelayFacts() {
	env := a.durEnv()
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			res := fn.Signature().Results()
			if res.Len() != 1 {
				continue
			}
			t := res.At(0).Type()
			b, ok := t.Underlying().(*types.Basic)
			if !ok || b.Info()&types.IsNumeric == 0 {
				continue
			}
			switch env.Summary(fn) {
			case durkind.Random:
				a.pass.ExportObjectFact(fn, &DelayFact{Random: true})
			case durkind.Fixed:
				if durkind.IsDuration(t) {
					a.pass.ExportObjectFact(fn, &DelayFact{})
				}
			}
		}
	}
}

// loopBackoff classifies the wait between the attempts of a loop: the
// waits on the paths from a failed attempt to the next (path, the loop
// body when there is none), each judged by what its duration depends on
// (durkind): a loop-invariant duration is fixed, one that changes with
// the attempt grows, a random term is jitter, and anything the analysis
// cannot follow (a policy's Next, a server's Retry-After) leaves the wait
// unclassified. No wait is no delay.
func (a *analyzer) loopBackoff(l *loop, path []ast.Node) Backoff {
	env := a.durEnv()
	nodes := path
	if len(nodes) == 0 {
		nodes = []ast.Node{l.body}
	}
	var waits []durkind.Wait
	for _, n := range nodes {
		switch n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			continue
		}
		for _, w := range a.waitsIn(n, nodes) {
			if v, ok := env.ConstDuration(w.Dur); ok && v <= 0 {
				continue // time.Sleep(0): no wait
			}
			waits = append(waits, w)
		}
	}
	if len(waits) == 0 {
		return Backoff{}
	}
	outer := a.outerFunc(l)
	sc, shape := env.NewScope(outer, l.stmt), env.NewShapeScope(outer, l.stmt)
	b := Backoff{Delay: FixedDelay}
	for _, w := range waits {
		d := w.Dur
		if w.Ticker != nil {
			d = sc.TickerPeriod(w.Ticker)
		}
		if d == nil {
			b.Delay = SomeDelay
			continue
		}
		if sc.Of(d) == durkind.Random {
			b.Jitter = true
		}
		switch shape.Of(d) {
		case durkind.Growing:
			if b.Delay == FixedDelay {
				b.Delay = GrowingDelay
			}
		case durkind.Unknown, durkind.Random:
			b.Delay = SomeDelay
		}
	}
	return b
}

// waitsIn returns the waits of one node of a loop's path: those durkind
// finds (time.Sleep, time.After, a timer's Reset, a ticker's receive, a
// sleep function of a context and a duration such as gax.Sleep), a call of
// a function value of a context and a duration (gax's sleeper), and a
// call of a function of the package that waits itself (waitFor(ctx, d)),
// whose duration is its duration argument; and a receive from a timer
// (timerRecv). nodes are the path's, where a timer's Start is looked for.
func (a *analyzer) waitsIn(n ast.Node, nodes []ast.Node) []durkind.Wait {
	env := a.durEnv()
	out := env.WaitsIn(n)
	seen := map[*ast.CallExpr]bool{}
	for _, w := range out {
		seen[w.Call] = true
	}
	astx.InspectNoLit(n, func(x ast.Node) bool {
		if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.ARROW {
			if w, ok := a.timerRecv(u, nodes); ok && (w.Call == nil || !seen[w.Call]) {
				out = append(out, w)
				if c, ok := unparen(u.X).(*ast.CallExpr); ok {
					seen[c] = true
				}
			}
			return true
		}
		call, ok := x.(*ast.CallExpr)
		if !ok || seen[call] {
			return true
		}
		d, i := a.durationArg(call)
		switch {
		case d != nil && (a.callee(call) == nil && a.isSleeperValue(call) || a.waitsInside(a.callee(call), i)):
			out = append(out, durkind.Wait{Call: call, Dur: d, At: call})
		case a.waitsInside(a.callee(call), -1):
			// waitBackoff(attempt, ctx, opts): it waits for a duration
			// it works out itself, which this wait does not classify.
			out = append(out, durkind.Wait{Call: call, At: call})
		}
		return true
	})
	return out
}

// timerRecv reports whether a receive waits on a timer other than
// time's own, and for how long: <-clock.After(d) (a method of one
// duration returning a channel); <-t.C of a *time.Timer a local made by
// a call of one duration (util.TimerWithCancel(d)); or <-x.C() or <-x.C
// after x.Start(d) or x.Reset(d) on the path (cenkalti's Timer), with no
// duration when none is found.
func (a *analyzer) timerRecv(u *ast.UnaryExpr, nodes []ast.Node) (durkind.Wait, bool) {
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
	if id, ok := unparen(x).(*ast.Ident); ok {
		if v, ok := info.Uses[id].(*types.Var); ok && v.Pkg() == a.pass.Pkg {
			if c, ok := unparen(a.definingExpr(v)).(*ast.CallExpr); ok {
				if d, _ := a.durationArg(c); d != nil && len(c.Args) == 1 {
					return durkind.Wait{Call: c, Dur: d, At: u}, true
				}
			}
		}
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
	return durkind.Wait{At: u}, true
}

func isChan(t types.Type) bool {
	_, ok := t.Underlying().(*types.Chan)
	return ok
}

// durationArg returns the one argument of call of type time.Duration
// and its index, or nil.
func (a *analyzer) durationArg(call *ast.CallExpr) (ast.Expr, int) {
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
func (a *analyzer) isSleeperValue(call *ast.CallExpr) bool {
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

// waitsInside reports whether fn, a function of the package, waits in
// its body (outside function literals and goroutines) for the duration its
// parameter i holds: waitFor(ctx, d) with a timer of d. With i < 0 it
// reports whether fn waits for a duration no parameter of a duration type
// holds: one it works out itself (waitBackoff(attempt, ctx, opts)).
func (a *analyzer) waitsInside(fn *types.Func, i int) (found bool) {
	if fn == nil || fn.Pkg() != a.pass.Pkg {
		return false
	}
	if i < 0 {
		if w, ok := a.waits[fn]; ok {
			return w
		}
		if a.waits == nil {
			a.waits = map[*types.Func]bool{}
		}
		defer func() { a.waits[fn] = found }()
	}
	fd := a.declOf(fn)
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
	env := a.durEnv()
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

// declOf returns the declaration of a function of the package, or nil.
func (a *analyzer) declOf(fn *types.Func) *ast.FuncDecl {
	if a.decls == nil {
		a.decls = map[*types.Func]*ast.FuncDecl{}
		for _, f := range a.pass.Files {
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
					if f, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						a.decls[f] = fd
					}
				}
			}
		}
	}
	return a.decls[fn.Origin()]
}

// outerFunc returns the outermost function around a loop, whose body
// holds every variable the loop's code uses.
func (a *analyzer) outerFunc(l *loop) ast.Node {
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

// backoffValueCall says how the waits a retry library's backoff value
// hands out change and whether they are jittered: b.NextBackOff() of a
// cenkalti NewExponentialBackOff(), bo.Pause() of a gax.Backoff, by the
// retryapi table's facts of what made the value.
func (a *analyzer) backoffValueCall(call *ast.CallExpr) (durkind.Kind, bool, bool) {
	sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || len(call.Args) != 0 {
		return 0, false, false
	}
	fn := a.callee(call)
	if fn == nil || libraryOf(fn) == nil || fn.Signature().Recv() == nil {
		return 0, false, false
	}
	b, ok := a.backoffOf(sel.X, 0)
	if !ok {
		return 0, false, false
	}
	k := durkind.Fixed
	switch b.Delay {
	case GrowingDelay:
		k = durkind.Growing
	case SomeDelay:
		k = durkind.Unknown
	}
	return k, b.Jitter, true
}

// backoffOf says how the waits of a retry library's backoff value
// change, from what made it: a constructor or wrapper of the library
// (the table's Delays and Jitter: NewConstantBackOff is fixed,
// NewExponentialBackOff grows with jitter, WithMaxRetries passes its
// first argument's on), a literal of one of its types, a local variable
// holding one, or a value of a type the table knows whatever made it
// (gax.Backoff). ok is false when the table cannot tell.
func (a *analyzer) backoffOf(x ast.Expr, depth int) (Backoff, bool) {
	if depth > 4 || x == nil {
		return Backoff{}, false
	}
	x = unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = unparen(u.X)
	}
	if f, ok := a.objOf(x).(*types.Func); ok {
		if lib := libraryOf(f); lib != nil {
			return tableBackoff(lib, f.Name()) // a delay function: retry.FixedDelay
		}
	}
	switch e := x.(type) {
	case *ast.Ident:
		if v, ok := a.pass.TypesInfo.Uses[e].(*types.Var); ok && v.Pkg() == a.pass.Pkg && !v.IsField() {
			if def := a.definingExpr(v); def != nil {
				if b, ok := a.backoffOf(def, depth+1); ok {
					return b, true
				}
			}
		}
	case *ast.CallExpr:
		fn := a.callee(e)
		lib := libraryOf(fn)
		if lib == nil {
			break
		}
		switch lib.Jitter[fn.Name()] {
		case retryapi.Combines:
			return a.combinedBackoff(e.Args, depth)
		case retryapi.WrapsFirst:
			return a.backoffOf(arg(e, 0), depth+1)
		case retryapi.Wraps:
			if len(e.Args) > 0 {
				return a.backoffOf(e.Args[len(e.Args)-1], depth+1)
			}
		}
		if _, known := lib.Delays[fn.Name()]; !known && lib.Jitter[fn.Name()] == retryapi.Jittered && len(e.Args) > 0 {
			// A jittering wrapper (go-retry's WithJitter(j, next)).
			if b, ok := a.backoffOf(e.Args[len(e.Args)-1], depth+1); ok {
				b.Jitter = true
				return b, true
			}
		}
		if b, ok := tableBackoff(lib, fn.Name()); ok {
			if b.Jitter && a.factorZero(lib, e) {
				b.Jitter = false
			}
			return b, true
		}
	case *ast.CompositeLit:
		if n, ok := types.Unalias(a.pass.TypesInfo.TypeOf(e)).(*types.Named); ok && n.Obj().Pkg() != nil {
			if lib := retryapi.LibraryOf(n.Obj().Pkg().Path()); lib != nil {
				if b, ok := tableBackoff(lib, n.Obj().Name()); ok {
					if !b.Jitter && a.litFieldSet(e, "RandomizationFactor") {
						b.Jitter = true // a literal ExponentialBackOff with a factor
					}
					return b, true
				}
			}
		}
	}
	// The value's type, when the table says all its values alike.
	t := a.pass.TypesInfo.TypeOf(x)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		if lib := retryapi.LibraryOf(n.Obj().Pkg().Path()); lib != nil && lib.Name == retryapi.Gax {
			return tableBackoff(lib, n.Obj().Name())
		}
	}
	return Backoff{}, false
}

// combinedBackoff is the wait of a combination of delays (retry-go's
// CombineDelay): it grows if one grows, jitters if one jitters.
func (a *analyzer) combinedBackoff(parts []ast.Expr, depth int) (Backoff, bool) {
	out := Backoff{Delay: FixedDelay}
	for _, p := range parts {
		b, ok := a.backoffOf(p, depth+1)
		if !ok {
			return Backoff{}, false
		}
		if b.Delay > out.Delay {
			out.Delay = b.Delay
		}
		out.Jitter = out.Jitter || b.Jitter
	}
	return out, len(parts) > 0
}

// tableBackoff returns the backoff the table gives a name of the
// library, when it says both its delay and its jitter.
func tableBackoff(lib *retryapi.Library, name string) (Backoff, bool) {
	d, ok := lib.Delays[name]
	if !ok {
		return Backoff{}, false
	}
	switch lib.Jitter[name] {
	case retryapi.Jittered:
		return Backoff{Delay: Delay(d), Jitter: true}, true
	case retryapi.NoJitter:
		return Backoff{Delay: Delay(d)}, true
	}
	return Backoff{}, false
}

// factorZero reports whether a constructor call is given a randomization
// factor option with a constant 0 (backoff.WithRandomizationFactor(0)).
func (a *analyzer) factorZero(lib *retryapi.Library, call *ast.CallExpr) bool {
	for _, x := range call.Args {
		c, ok := unparen(x).(*ast.CallExpr)
		if !ok {
			continue
		}
		if f := a.callee(c); f != nil && libraryOf(f) == lib {
			if o, _ := lib.Option(f.Name()); o.Effect == retryapi.SetsFactor && len(c.Args) == 1 && a.isZero(c.Args[0]) {
				return true
			}
		}
	}
	return false
}

// isZero reports whether e is a constant 0.
func (a *analyzer) isZero(e ast.Expr) bool {
	tv, ok := a.pass.TypesInfo.Types[e]
	return ok && tv.Value != nil && tv.Value.String() == "0"
}

// litFieldSet reports whether a composite literal sets the field to
// something other than a constant 0.
func (a *analyzer) litFieldSet(lit *ast.CompositeLit, field string) bool {
	v := astx.Field(lit, field)
	return v != nil && !a.isZero(v)
}

// libraryBackoff reads the wait a library call is configured with, where
// the table's facts can tell: its policy argument (backoff.Retry(op, b),
// a k8s wait.Backoff), or the option that replaces its backoff
// (retry.DelayType(retry.FixedDelay), backoff.WithBackOff(b)), among the
// call's options or its receiver's constructor's. ok is false when the
// call says nothing the table reads: the entry's default stands.
func (a *analyzer) libraryBackoff(call *ast.CallExpr, e *retryapi.Entry) (Backoff, bool) {
	lib := retryapi.Named(e.Library)
	if lib == nil {
		return Backoff{}, false
	}
	if e.Policy >= 0 {
		p := arg(call, e.Policy)
		if lib.Name == retryapi.K8sRetry || lib.Name == retryapi.K8sWait {
			return a.k8sBackoff(p)
		}
		return a.backoffOf(p, 0)
	}
	opts, from := call, e.Options
	if e.OptionsOf == retryapi.Receiver {
		opts, from = nil, 0
		if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok {
			opts = a.constructorCall(sel.X)
		}
	}
	if opts == nil || from < 0 {
		return Backoff{}, false
	}
	var b Backoff
	found := false
	for i := from; i < len(opts.Args); i++ {
		c, ok := unparen(opts.Args[i]).(*ast.CallExpr)
		if !ok {
			continue
		}
		f := a.callee(c)
		if f == nil || libraryOf(f) != lib {
			continue
		}
		if o, _ := lib.Option(f.Name()); o.Effect == retryapi.SetsBackoff {
			b, found = a.backoffOf(arg(c, 0), 0)
		}
	}
	return b, found
}

// k8sBackoff reads a k8s wait.Backoff: a Factor above 1 grows the wait,
// a Jitter above 0 jitters it; a literal, a variable of the package
// defined by one, or client-go's DefaultRetry and DefaultBackoff.
func (a *analyzer) k8sBackoff(e ast.Expr) (Backoff, bool) {
	e = unparen(e)
	if v, ok := a.objOf(e).(*types.Var); ok {
		if b, ok := retryapi.K8sBackoffWaits[objectName(v)]; ok {
			return Backoff{Delay: Delay(b.Delay), Jitter: b.Jitter}, true
		}
		if v.Pkg() == a.pass.Pkg {
			if def := a.definingExpr(v); def != nil {
				e = unparen(def)
			}
		}
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return Backoff{}, false
	}
	b := Backoff{Delay: FixedDelay}
	for name, value := range astx.Fields(lit) {
		switch name {
		case "Factor", "Jitter":
			v, ok := a.floatConst(value)
			if !ok {
				return Backoff{}, false
			}
			if name == "Factor" && v > 1 {
				b.Delay = GrowingDelay
			}
			if name == "Jitter" && v > 0 {
				b.Jitter = true
			}
		}
	}
	return b, true
}

// floatConst returns the value of a constant number.
func (a *analyzer) floatConst(e ast.Expr) (float64, bool) {
	tv, ok := a.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil {
		return 0, false
	}
	v, _ := constant.Float64Val(constant.ToFloat(tv.Value))
	return v, true
}
