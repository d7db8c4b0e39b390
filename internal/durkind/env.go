package durkind

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Env summarises the functions of one package.
type Env struct {
	info      *types.Info
	pkg       *types.Package
	decls     map[*types.Func]*ast.FuncDecl
	summaries map[*types.Func]Kind
	imported  func(*types.Func) (Kind, bool)
	values    func(*ast.CallExpr) (shape Kind, jitter, ok bool)
}

// SetValues installs what the Env knows of calls of other packages'
// functions beyond their facts: a retry library's backoff value
// (b.NextBackOff(), bo.Pause()), by its shape and jitter. Scopes of a loop
// ask it; summaries do not, so facts do not depend on it.
func (c *Env) SetValues(f func(*ast.CallExpr) (shape Kind, jitter, ok bool)) { c.values = f }

// New returns the Env of a package's files. imported, when not nil, says
// what a function of another package returns (through a fact); without it
// such functions are Unknown.
func New(info *types.Info, pkg *types.Package, files []*ast.File, imported func(*types.Func) (Kind, bool)) *Env {
	e := &Env{info: info, pkg: pkg, decls: map[*types.Func]*ast.FuncDecl{}, summaries: map[*types.Func]Kind{}, imported: imported}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					e.decls[fn] = fd
				}
			}
		}
	}
	return e
}

func (c *Env) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	return fn
}

// LiteralSummary summarises a function literal's result as Summary does
// a function's.
func (c *Env) LiteralSummary(lit *ast.FuncLit) Kind {
	res := lit.Type.Results
	if res == nil || res.NumFields() != 1 {
		return Unknown
	}
	s := c.NewScope(lit, nil)
	k := Fixed
	n := 0
	astx.InspectNoLit(lit.Body, func(x ast.Node) bool {
		if ret, ok := x.(*ast.ReturnStmt); ok {
			n++
			if len(ret.Results) != 1 {
				k = Unknown
			} else {
				k = Join(k, s.Of(ret.Results[0]))
			}
		}
		return true
	})
	if n == 0 {
		return Unknown
	}
	if k == Growing {
		k = Fixed
	}
	return k
}

// IsRandomSource reports whether fn is of a random package (math/rand,
// math/rand/v2, crypto/rand).
func IsRandomSource(fn *types.Func) bool { return fn != nil && randomPkgs[typesx.PkgPath(fn)] }

// A Wait is a place where a retry loop waits between attempts, and the
// duration it waits.
type Wait struct {
	Call   *ast.CallExpr // the wait: time.Sleep, time.After, a timer's Reset, a sleep function
	Dur    ast.Expr      // its duration; nil for a ticker's receive
	At     ast.Node      // where a diagnostic goes
	Ticker ast.Expr      // for a receive from a ticker made before, the ticker
}

// WaitsIn returns the waits of one node of a loop's path, outside
// function literals.
func (c *Env) WaitsIn(n ast.Node) []Wait {
	var out []Wait
	astx.InspectNoLit(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			if w, ok := c.WaitCall(x); ok {
				out = append(out, w)
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				if t := c.TickerOf(x.X); t != nil {
					out = append(out, Wait{At: x, Ticker: t})
				}
			}
		}
		return true
	})
	return out
}

// WaitCall reports whether call waits, and for how long: time.Sleep(d),
// time.After(d), time.NewTimer(d), t.Reset(d), time.Tick(d), or a sleep
// function taking a context and a duration (sleep(ctx, d), gax.Sleep).
func (c *Env) WaitCall(call *ast.CallExpr) (Wait, bool) {
	fn := c.callee(call)
	if fn == nil || len(call.Args) == 0 {
		return Wait{}, false
	}
	path, name, recv := typesx.PkgPath(fn), fn.Name(), typesx.RecvName(fn)
	switch {
	case path == "time" && recv == "" && (name == "Sleep" || name == "After" || name == "NewTimer" || name == "Tick") && len(call.Args) == 1:
		return Wait{Call: call, Dur: call.Args[0], At: call}, true
	case path == "time" && (recv == "Timer" || recv == "Ticker") && name == "Reset" && len(call.Args) == 1:
		return Wait{Call: call, Dur: call.Args[0], At: call}, true
	}
	if len(call.Args) != 2 || !isSleepName(name) {
		return Wait{}, false
	}
	ctx, dur := c.info.TypeOf(call.Args[0]), c.info.TypeOf(call.Args[1])
	if ctx == nil || dur == nil || !isContext(ctx) || !IsDuration(dur) {
		return Wait{}, false
	}
	return Wait{Call: call, Dur: call.Args[1], At: call}, true
}

// isSleepName reports whether a function's name says it waits.
func isSleepName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"sleep", "wait", "pause", "delay", "backoff"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

func isContext(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Context" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "context"
}

// IsDuration reports whether t is time.Duration.
func IsDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Duration" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time"
}

// TickerOf returns the ticker whose channel x is (t in t.C), or nil.
func (c *Env) TickerOf(x ast.Expr) ast.Expr {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "C" {
		return nil
	}
	t := c.info.TypeOf(sel.X)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != "Ticker" || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "time" {
		return nil
	}
	return sel.X
}
