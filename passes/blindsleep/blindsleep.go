package blindsleep

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer reports retry loops that wait without watching the context
// their function inherited, over the flag-bound retry-site analyzer.
var Analyzer = New(retrysite.Analyzer)

// New returns the pass requiring the retry-site analyzer site
// (retrysite.Analyzer, or one made by retrysite.New); it has no settings.
func New(site *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "blindsleep",
		Doc:      docsection.Must(doc, "blindsleep"),
		URL:      "https://pkg.go.dev/github.com/retrylint/retrylint/passes/blindsleep",
		Requires: []*analysis.Analyzer{site, inspect.Analyzer, suppress.Analyzer},
		Run:      run,
	}
}

// Diagnostic categories.
const (
	catSleep  = "blind_sleep"  // time.Sleep
	catRecv   = "blind_timer"  // a receive from a timer outside a select
	catSelect = "blind_select" // a select whose every case is a timer
	catHelper = "blind_helper" // a call of a sleep helper that sleeps blind
)

type checker struct {
	pass *analysis.Pass
	insp *inspector.Inspector
	done map[token.Pos]bool
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass: pass,
		insp: pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		done: map[token.Pos]bool{},
	}
	if !importsTime(pass.Pkg) {
		return nil, nil // nothing can wait: no timer, no helper built on one
	}
	for _, s := range retrysite.Of(pass).List {
		if s.Kind == retrysite.Loop && s.Loop != nil {
			c.checkLoop(s)
		}
	}
	return nil, nil
}

// importsTime reports whether pkg depends on package time at all: without
// it, no function of pkg can wait on a timer or call one that does.
func importsTime(pkg *types.Package) bool {
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		if p.Path() == "time" {
			return true
		}
		for _, q := range p.Imports() {
			if visit(q) {
				return true
			}
		}
		return false
	}
	return visit(pkg)
}

// A wait is a blind wait between two attempts of a retry loop.
type wait struct {
	cat  string
	what string          // how the loop waits, for the message: "time.Sleep", "<-t.C", "pause"
	at   ast.Node        // where the diagnostic goes: the call or the receive
	stmt ast.Stmt        // the statement a fix replaces (a sleep or a bare receive); nil if none
	sel  *ast.SelectStmt // a select whose cases are all timers
	recv ast.Expr        // the timer expression received from (bare receive)
}

// checkLoop reports the blind waits on the way from a failed attempt to
// the next one (the model's, Loop.Waits), when the loop's function
// inherited a context.
func (c *checker) checkLoop(s *retrysite.Site) {
	checks := false
	for _, n := range s.Loop.Path {
		switch n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			continue
		}
		if c.checksContext(n) {
			checks = true
		}
	}
	var waits []wait
	selects := map[*ast.SelectStmt]bool{}
	for _, w := range s.Loop.Waits {
		if sel := c.selectOf(w.At); sel != nil {
			if !selects[sel] {
				selects[sel] = true
				if bw, ok := c.timerSelect(sel); ok {
					waits = append(waits, bw)
				}
			}
			continue
		}
		if bw, ok := c.blind(w); ok {
			waits = append(waits, bw)
		}
	}
	var blind []wait
	var p *inherit.Param
	for _, w := range waits {
		if c.done[w.at.Pos()] {
			continue
		}
		cur, ok := astx.Find(c.insp.Root(), w.at)
		if !ok {
			continue
		}
		wp := inherit.Of(c.pass.TypesInfo, cur)
		if wp == nil || p != nil && wp.Var != p.Var {
			continue
		}
		p = wp
		c.done[w.at.Pos()] = true
		blind = append(blind, w)
	}
	if len(blind) > 0 {
		c.report(s, blind, p, checks)
	}
}

// timerSelect reports a select whose one case receives from a timer: it
// waits like a sleep. A select of several timers (a wait and an overall
// timeout of its own) is a designed wait, left alone.
func (c *checker) timerSelect(sel *ast.SelectStmt) (wait, bool) {
	if len(sel.Body.List) != 1 {
		return wait{}, false
	}
	var first ast.Expr
	for _, cl := range sel.Body.List {
		cc, ok := cl.(*ast.CommClause)
		if !ok || cc.Comm == nil {
			return wait{}, false // a default: no wait at all
		}
		x := recvOf(cc.Comm)
		if x == nil || !c.isTimer(x) {
			return wait{}, false
		}
		if first == nil {
			first = x
		}
	}
	if first == nil {
		return wait{}, false
	}
	return wait{cat: catSelect, what: "a select", at: first, sel: sel}, true
}

// recvOf returns the channel a select case receives from, or nil for a
// send.
func recvOf(comm ast.Stmt) ast.Expr {
	var x ast.Expr
	switch s := comm.(type) {
	case *ast.ExprStmt:
		x = s.X
	case *ast.AssignStmt:
		if len(s.Rhs) == 1 {
			x = s.Rhs[0]
		}
	}
	u, ok := ast.Unparen(x).(*ast.UnaryExpr)
	if !ok || u.Op != token.ARROW {
		return nil
	}
	return u.X
}

// blind returns a wait of the loop that cancellation cannot interrupt:
// time.Sleep, a bare receive from a timer, a call of a sleep helper that
// sleeps blind.
func (c *checker) blind(w retryloop.Wait) (wait, bool) {
	switch at := w.At.(type) {
	case *ast.CallExpr:
		fn := c.callee(at)
		if typesx.IsFunc(fn, "time", "Sleep") {
			return wait{cat: catSleep, what: "time.Sleep", at: at, stmt: c.stmtOf(at)}, true
		}
		if w.Helper && !w.Aware && fn != nil {
			return wait{cat: catHelper, what: fn.Name(), at: at}, true
		}
	case *ast.UnaryExpr:
		if c.isTimer(at.X) {
			return wait{cat: catRecv, what: "<-" + recvName(at.X), at: at, recv: at.X, stmt: c.stmtOf(at)}, true
		}
	}
	return wait{}, false
}

// stmtOf returns the statement that is the expression x alone
// (time.Sleep(d) or <-t.C on its own line), or nil.
func (c *checker) stmtOf(x ast.Expr) ast.Stmt {
	cur, ok := astx.Find(c.insp.Root(), x)
	if !ok {
		return nil
	}
	for cur.ParentEdgeKind() == edge.ParenExpr_X {
		cur = cur.Parent()
	}
	if es, ok := cur.Parent().Node().(*ast.ExprStmt); ok {
		return es
	}
	return nil
}

// selectOf returns the select statement whose case receives x, or nil.
func (c *checker) selectOf(x ast.Node) *ast.SelectStmt {
	u, ok := x.(*ast.UnaryExpr)
	if !ok {
		return nil
	}
	cur, ok := astx.Find(c.insp.Root(), u)
	if !ok {
		return nil
	}
	for p := cur.Parent(); p.Node() != nil; p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.ParenExpr, *ast.ExprStmt, *ast.AssignStmt:
			continue
		case *ast.CommClause:
			if n.Comm == nil || !astx.Within(u, n.Comm) {
				return nil
			}
			sel, _ := p.Parent().Parent().Node().(*ast.SelectStmt)
			return sel
		}
		return nil
	}
	return nil
}

// recvName names a timer channel in a message: time.After, t.C.
func recvName(x ast.Expr) string {
	x = ast.Unparen(x)
	if call, ok := x.(*ast.CallExpr); ok {
		return types.ExprString(call.Fun)
	}
	return types.ExprString(x)
}

// isTimer reports whether x is a timer's channel: a call of time.After or
// time.Tick, or the C field of a *time.Timer or *time.Ticker.
func (c *checker) isTimer(x ast.Expr) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		fn := c.callee(x)
		return typesx.IsFunc(fn, "time", "After") || typesx.IsFunc(fn, "time", "Tick")
	case *ast.SelectorExpr:
		if x.Sel.Name != "C" {
			return false
		}
		t := c.pass.TypesInfo.TypeOf(x.X)
		if p, ok := types.Unalias(t).(*types.Pointer); ok {
			t = p.Elem()
		}
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time" && (n.Obj().Name() == "Timer" || n.Obj().Name() == "Ticker")
	}
	return false
}

// checksContext reports whether n asks a context whether it is done
// (ctx.Err(), ctx.Done()): the loop then stops making attempts once the
// caller gave up, though the wait still runs to its end.
func (c *checker) checksContext(n ast.Node) bool {
	found := false
	astx.InspectNoLit(n, func(x ast.Node) bool {
		call, ok := x.(*ast.CallExpr)
		if !ok || found {
			return !found
		}
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Err" || sel.Sel.Name == "Done") {
			if t := c.pass.TypesInfo.TypeOf(sel.X); t != nil && inherit.IsContext(t) {
				found = true
			}
		}
		return !found
	})
	return found
}

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return fn
}

// report reports the first blind wait of a loop, with the others as
// related information; its fix makes every one of them watch the context.
func (c *checker) report(s *retrysite.Site, waits []wait, p *inherit.Param, checks bool) {
	w := waits[0]
	ctx := p.Describe()
	after := "keeps making attempts"
	if checks {
		after = "still waits out the backoff"
	}
	var msg string
	switch w.cat {
	case catSelect:
		done := "ctx.Done()"
		if e := p.Expr(); e != "" {
			done = e + ".Done()"
		}
		msg = fmt.Sprintf("retry loop waits in a select with no case for %s: a request its caller gave up on %s", done, after)
	case catHelper:
		msg = fmt.Sprintf("retry loop waits in %s, which sleeps without watching %s: a request its caller gave up on %s", w.what, ctx, after)
	default:
		msg = fmt.Sprintf("retry loop waits with %s, which cancelling %s does not interrupt: a request its caller gave up on %s", w.what, ctx, after)
	}
	d := analysis.Diagnostic{Pos: w.at.Pos(), End: w.at.End(), Category: w.cat, Message: msg}
	var at ast.Node = p.Field.Type
	if p.Ident != nil {
		at = p.Ident
	}
	rel := p.Describe() + " is inherited here"
	if !p.Named() {
		rel = "the context is inherited here"
	}
	d.Related = []analysis.RelatedInformation{{Pos: at.Pos(), End: at.End(), Message: rel}}
	for _, o := range waits[1:] {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: o.at.Pos(), End: o.at.End(), Message: "and waits with " + o.what + " here"})
	}
	var edits []analysis.TextEdit
	for _, o := range waits {
		fix := c.fix(s, o, p)
		if fix == nil {
			edits = nil
			break
		}
		edits = append(edits, fix.TextEdits...)
	}
	if len(edits) > 0 {
		ctxExpr := c.ctxAt(s, p, w.at.Pos())
		d.SuggestedFixes = []analysis.SuggestedFix{{Message: "Wait in a select that returns when " + ctxExpr + " is done", TextEdits: edits}}
	}
	suppress.Report(c.pass, d)
}
