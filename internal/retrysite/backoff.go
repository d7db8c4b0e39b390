package retrysite

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryapi"
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

// declOf returns the declaration of a function of the package, or nil.
func (a *analyzer) declOf(fn *types.Func) *ast.FuncDecl { return a.decls[fn.Origin()] }

// indexDecls indexes the package's function declarations, once, before
// the analysis: the passes ask through the analysis concurrently, and the
// index is read-only after.
func (a *analyzer) indexDecls() {
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
