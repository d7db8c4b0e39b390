package blindsleep

// This file finds the sleep helpers of a package: functions that only
// compute and wait, so that a call of one is a wait, blind or aware. They
// are exported as SleepFacts for the packages that call them.

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/typesx"
)

// helperKind is what a function is to the pass.
type helperKind uint8

const (
	notHelper helperKind = iota // it does more than compute and wait
	busy                        // being classified (a recursive call)
	compute                     // it only computes: it never waits
	blind                       // a sleep helper with a blind wait
	aware                       // a sleep helper whose every wait watches a done channel
)

type helpers struct {
	pass  *analysis.Pass
	decls map[*types.Func]*ast.FuncDecl
	memo  map[*types.Func]helperKind
}

func newHelpers(pass *analysis.Pass) *helpers {
	h := &helpers{pass: pass, decls: map[*types.Func]*ast.FuncDecl{}, memo: map[*types.Func]helperKind{}}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					h.decls[fn] = fd
				}
			}
		}
	}
	return h
}

// export exports a SleepFact for every sleep helper of the package, in
// source order.
func (h *helpers) export() {
	for _, f := range h.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := h.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok {
				continue
			}
			switch h.kind(fn) {
			case blind:
				h.pass.ExportObjectFact(fn, &SleepFact{})
			case aware:
				h.pass.ExportObjectFact(fn, &SleepFact{Aware: true})
			}
		}
	}
}

// of reports whether fn is a sleep helper, and whether its waits watch a
// done channel.
func (h *helpers) of(fn *types.Func) (isAware, ok bool) {
	switch h.kind(fn) {
	case blind:
		return false, true
	case aware:
		return true, true
	}
	return false, false
}

// computeOnly are the standard packages whose functions compute, log or
// lock, and never do a dependency's I/O or start work.
var computeOnly = map[string]bool{
	"math": true, "math/rand": true, "math/rand/v2": true, "math/bits": true,
	"strconv": true, "strings": true, "fmt": true, "errors": true, "log": true, "log/slog": true,
	"sync": true, "sync/atomic": true, "context": true, "time": true, "unicode": true,
}

func (h *helpers) kind(fn *types.Func) helperKind {
	fn = fn.Origin()
	if k, ok := h.memo[fn]; ok {
		if k == busy {
			return compute
		}
		return k
	}
	fd := h.decls[fn]
	if fd == nil {
		var fact SleepFact
		switch {
		case fn.Pkg() != h.pass.Pkg && h.pass.ImportObjectFact(fn, &fact):
			if fact.Aware {
				return aware
			}
			return blind
		case computeOnly[typesx.PkgPath(fn)] && !typesx.IsFunc(fn, "time", "Sleep"):
			return compute
		}
		return notHelper
	}
	h.memo[fn] = busy
	k := h.classify(fd)
	h.memo[fn] = k
	return k
}

// classify reads a function's body: any call of code that does more than
// compute makes it no helper; otherwise its waits decide.
func (h *helpers) classify(fd *ast.FuncDecl) helperKind {
	info := h.pass.TypesInfo
	nBlind, nAware := 0, 0
	ok := true
	skip := map[ast.Node]bool{} // the receives of select cases, judged with their select
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			ok = false
		case *ast.SelectStmt:
			timers, others, def := 0, 0, false
			for _, cl := range n.Body.List {
				cc, isComm := cl.(*ast.CommClause)
				if !isComm {
					continue
				}
				if cc.Comm == nil {
					def = true
					continue
				}
				x := recvOf(cc.Comm)
				if x == nil {
					others++ // a send: the select may proceed without the timer
					continue
				}
				if u := recvExpr(cc.Comm); u != nil {
					skip[u] = true
				}
				if h.isTimer(x) {
					timers++
				} else {
					others++
				}
			}
			switch {
			case timers > 0 && others > 0:
				nAware++
			case timers > 0 && !def:
				nBlind++
			case timers == 0:
				ok = false // it waits for something else than time
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && !skip[n] {
				if !h.isTimer(n.X) {
					ok = false // it waits for a value: work, not a pause
				} else {
					nBlind++
				}
			}
		case *ast.CallExpr:
			if tv, isType := info.Types[n.Fun]; isType && tv.IsType() {
				return true // a conversion
			}
			switch callee := typeutil.Callee(info, n).(type) {
			case *types.Builtin:
				return true
			case *types.Func:
				if typesx.IsFunc(callee, "time", "Sleep") {
					nBlind++
					return true
				}
				if isContextMethod(callee) {
					return true
				}
				switch k := h.kind(callee); {
				case k == notHelper:
					ok = false
				case k == compute && callee.Pkg() == h.pass.Pkg && resultsError(callee):
					ok = false // work of the package that can fail
				case k == blind:
					nBlind++
				case k == aware:
					nAware++
				}
			default:
				ok = false // a function value or an interface method
			}
		}
		return ok
	})
	switch {
	case !ok:
		return notHelper
	case nBlind > 0:
		return blind
	case nAware > 0:
		return aware
	}
	return compute
}

// recvExpr returns the receive expression of a select case.
func recvExpr(comm ast.Stmt) *ast.UnaryExpr {
	var x ast.Expr
	switch s := comm.(type) {
	case *ast.ExprStmt:
		x = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			x = s.Rhs[0]
		}
	}
	u, _ := ast.Unparen(x).(*ast.UnaryExpr)
	return u
}

// isContextMethod reports whether fn is a method of context.Context.
func isContextMethod(fn *types.Func) bool {
	sig := fn.Signature()
	return sig.Recv() != nil && inherit.IsContext(sig.Recv().Type())
}

func (h *helpers) isTimer(x ast.Expr) bool {
	c := &checker{pass: h.pass}
	return c.isTimer(x)
}

// resultsError reports whether fn has an error result.
func resultsError(fn *types.Func) bool {
	res := fn.Signature().Results()
	for i := range res.Len() {
		if types.Identical(res.At(i).Type(), types.Universe.Lookup("error").Type()) {
			return true
		}
	}
	return false
}
