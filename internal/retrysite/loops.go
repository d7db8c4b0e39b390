package retrysite

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryloop"
)

// findLoops records every hand-written retry loop of the package, as the
// definition (internal/retryloop) decides them.
func (a *analyzer) findLoops() {
	var loops []*Site
	for cur := range a.insp.Root().Preorder((*ast.ForStmt)(nil), (*ast.RangeStmt)(nil)) {
		if lp := a.definer.Loop(cur); lp != nil {
			loops = append(loops, a.loopSite(lp))
		}
	}
	a.sites = append(a.sites, mergeNested(loops)...)
}

// loopSite returns the retry site of a retry loop.
func (a *analyzer) loopSite(lp *retryloop.Loop) *Site {
	s := &Site{
		Kind:     Loop,
		Node:     lp.Stmt,
		Pos:      lp.Stmt.Pos(),
		Func:     lp.Func,
		Bound:    lp.Bound,
		Body:     lp.Body,
		Attempts: []Attempt{{Call: lp.Attempt, Dep: a.depOf(lp.Attempt)}},
		Loop:     lp,
		Exempt:   lp.Exempt,
	}
	if lp.TickerBound {
		s.Bound = a.backoffV4Bound(arg(lp.Ticker, 0), lp.Func)
	}
	for _, u := range lp.Guards {
		if g := a.guardOf(u.Call); g != nil {
			s.LoopGuards = append(s.LoopGuards, g)
		}
	}
	s.Backoff = loopBackoff(lp.Waits)
	s.Guard = a.loopGuard(lp)
	return s
}

// mergeNested folds a retry loop into the one around it when both retry
// the same attempt (a failover over the endpoints, retried after a wait):
// one site, whose attempts multiply.
func mergeNested(loops []*Site) []*Site {
	var out []*Site
	for i, s := range loops {
		merged := false
		for j := i - 1; j >= 0; j-- {
			o := loops[j]
			if o.Loop.Attempt == s.Loop.Attempt && astx.Within(s.Node, o.Node) {
				o.Bound = o.Bound.Times(s.Bound)
				merged = true
				break
			}
		}
		if !merged {
			out = append(out, s)
		}
	}
	return out
}

// loopBackoff classifies the wait between the attempts of a loop from
// its waits, each judged by what its duration depends on (durkind): a
// loop-invariant duration is fixed, one that changes with the attempt
// grows, a random term is jitter, and anything the analysis cannot follow
// (a policy's Next, a server's Retry-After) leaves the wait unclassified.
// No wait is no delay.
func loopBackoff(waits []retryloop.Wait) Backoff {
	if len(waits) == 0 {
		return Backoff{}
	}
	b := Backoff{Delay: FixedDelay}
	for _, w := range waits {
		if w.Dur == nil && w.Ticker == nil {
			b.Delay = SomeDelay
			continue
		}
		if w.Kind == durkind.Random {
			b.Jitter = true
		}
		switch w.Shape {
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

// loopHost answers the definition's questions (retryloop.Host) with the
// analysis's knowledge of budgets, local work and the package's code.
type loopHost struct{ a *analyzer }

func (h loopHost) Guard(call *ast.CallExpr) retryloop.GuardClass {
	switch g := h.a.guardOf(call); {
	case g == nil:
		return retryloop.NotGuard
	case g.Kind == GuardBreaker:
		return retryloop.Breaker
	}
	return retryloop.Check
}

func (h loopHost) PerCall(fn ast.Node, call *ast.CallExpr) bool {
	g := h.a.guardOf(call)
	return g != nil && h.a.perCall(fn, g)
}

func (h loopHost) LocalWork(call *ast.CallExpr) bool { return h.a.isPureCall(call) }
func (h loopHost) MayReturn(call *ast.CallExpr) bool { return h.a.noret.MayReturn(call) }
func (h loopHost) Definition(v *types.Var) ast.Expr  { return h.a.definingExpr(v) }
func (h loopHost) Reassigned(v *types.Var) bool      { return h.a.reassigned(v) }
func (h loopHost) Decl(fn *types.Func) *ast.FuncDecl { return h.a.declOf(fn) }

func (h loopHost) SleepHelper(fn *types.Func) (aware, ok bool) { return h.a.sleepers.of(fn) }

func (h loopHost) Polarity(fn *types.Func) (int, bool) {
	var f PolarityFact
	if !h.a.scope.Import(fn, &f) {
		return 0, false
	}
	return f.Holds, true
}
