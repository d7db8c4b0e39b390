package retrysite

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/internal/durkind"
)

// durEnv returns the package's duration summaries (internal/durkind, the
// nojitter pass's), made on first use, with the retry libraries' backoff
// values known by the retryapi table.
func (a *analyzer) durEnv() *durkind.Env {
	if a.dur == nil {
		a.dur = durkind.New(a.pass.TypesInfo, a.pass.Pkg, a.pass.Files, func(fn *types.Func) (durkind.Kind, bool) {
			var f DelayFact
			if !a.scope.Import(fn, &f) {
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
	r := a.reader().value(sel.X)
	if !r.ok {
		return 0, false, false
	}
	b := r.b
	k := durkind.Fixed
	switch b.Delay {
	case GrowingDelay:
		k = durkind.Growing
	case SomeDelay:
		k = durkind.Unknown
	}
	return k, b.Jitter, true
}
