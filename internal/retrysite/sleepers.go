package retrysite

// This file finds the sleep helpers of a package: functions that only
// compute and wait, so that a call of one is a wait between attempts,
// blind or aware. They are exported as SleepFacts for the packages that
// call them, and the retry-loop definition counts their calls as waits.

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

// sleepers classifies the functions of a package as sleep helpers.
type sleepers struct {
	a    *analyzer
	pass *analysis.Pass
	memo map[*types.Func]helperKind
}

func newSleepers(a *analyzer) *sleepers {
	return &sleepers{a: a, pass: a.pass, memo: map[*types.Func]helperKind{}}
}

// export exports a SleepFact for every sleep helper of the package, in
// source order.
func (h *sleepers) export() {
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
func (h *sleepers) of(fn *types.Func) (isAware, ok bool) {
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

func (h *sleepers) kind(fn *types.Func) helperKind {
	fn = fn.Origin()
	if k, ok := h.memo[fn]; ok {
		if k == busy {
			return compute
		}
		return k
	}
	fd := h.a.declOf(fn)
	if fd == nil {
		var fact SleepFact
		switch {
		case fn.Pkg() != h.pass.Pkg && h.a.scope.Import(fn, &fact):
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
func (h *sleepers) classify(fd *ast.FuncDecl) helperKind {
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

func (h *sleepers) isTimer(x ast.Expr) bool { return IsTimerChan(h.pass.TypesInfo, x) }

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

// SleepFact marks a sleep helper: a function that only computes and
// waits. Aware says that cancellation interrupts every wait it makes (it
// selects on a done channel beside its timer); otherwise some wait of it
// is blind (time.Sleep, a bare timer receive).
type SleepFact struct {
	Aware bool
}

func (*SleepFact) AFact() {}

func (f *SleepFact) String() string {
	if f.Aware {
		return "sleepHelper(aware)"
	}
	return "sleepHelper(blind)"
}

// recvOf returns the channel a select case receives from, or nil for a
// send.
func recvOf(comm ast.Stmt) ast.Expr {
	u := recvExpr(comm)
	if u == nil || u.Op != token.ARROW {
		return nil
	}
	return u.X
}

// IsTimerChan reports whether x is a timer's channel: a call of
// time.After or time.Tick, or the C field of a *time.Timer or
// *time.Ticker.
func IsTimerChan(info *types.Info, x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		fn := typesx.Callee(info, x)
		return typesx.IsFunc(fn, "time", "After") || typesx.IsFunc(fn, "time", "Tick")
	case *ast.SelectorExpr:
		if x.Sel.Name != "C" {
			return false
		}
		t := info.TypeOf(x.X)
		return typesx.IsNamed(t, "time", "Timer") || typesx.IsNamedPtr(t, "time", "Timer") ||
			typesx.IsNamed(t, "time", "Ticker") || typesx.IsNamedPtr(t, "time", "Ticker")
	}
	return false
}
