package nojitter

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer reports retries whose waits have no random term, over the
// flag-bound retry-site analyzer.
var Analyzer = New(retrysite.Analyzer)

// New returns the pass requiring the retry-site analyzer site
// (retrysite.Analyzer, or one made by retrysite.New); it has no settings.
func New(site *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      "nojitter",
		Doc:       docsection.Must(doc, "nojitter"),
		URL:       "https://pkg.go.dev/github.com/retrylint/retrylint/passes/nojitter",
		Requires:  []*analysis.Analyzer{site, inspect.Analyzer, suppress.Analyzer},
		FactTypes: []analysis.Fact{new(DelayFact)},
		Run:       run,
	}
}

// Diagnostic categories.
const (
	catFixed   = "fixed_wait"       // a loop waits the same time between attempts
	catGrowing = "no_jitter"        // a loop's waits change with the attempt, deterministically
	catLibrary = "no_jitter_config" // a retry library configured without jitter
)

// DelayFact describes a function with one numeric result. Random says
// that a random source contributes to the result (math/rand,
// math/rand/v2, crypto/rand, or a function with a Random fact); a
// function returning a time.Duration gets the fact with Random false when
// its result is a deterministic function of its arguments and receiver.
type DelayFact struct {
	Random bool
}

func (*DelayFact) AFact() {}

func (f *DelayFact) String() string {
	if f.Random {
		return "delay(random)"
	}
	return "delay(deterministic)"
}

type checker struct {
	pass      *analysis.Pass
	insp      *inspector.Inspector
	decls     map[*types.Func]*ast.FuncDecl
	summaries map[*types.Func]kind
	done      map[token.Pos]bool
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:      pass,
		insp:      pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		decls:     map[*types.Func]*ast.FuncDecl{},
		summaries: map[*types.Func]kind{},
		done:      map[token.Pos]bool{},
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
				}
			}
		}
	}
	c.exportFacts()
	for _, s := range retrysite.Of(pass).List {
		switch s.Kind {
		case retrysite.Loop:
			if s.Loop != nil {
				c.checkLoop(s)
			}
		case retrysite.Library:
			if s.Exempt == "" {
				c.checkLibrary(s)
			}
		}
	}
	return nil, nil
}

// exportFacts exports a DelayFact for the functions of the package whose
// one result is a number: random ones whatever the number, deterministic
// ones when it is a time.Duration.
func (c *checker) exportFacts() {
	for _, f := range c.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
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
			switch c.summary(fn) {
			case random:
				c.pass.ExportObjectFact(fn, &DelayFact{Random: true})
			case fixed:
				if isDuration(t) {
					c.pass.ExportObjectFact(fn, &DelayFact{})
				}
			}
		}
	}
}

func isDuration(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Duration" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "time"
}

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return fn
}

// A wait is a place where a retry loop waits between attempts, and the
// duration it waits.
type wait struct {
	call   *ast.CallExpr // the wait: time.Sleep, time.After, a timer's Reset, a sleep function
	dur    ast.Expr      // its duration; nil for a ticker's receive
	at     ast.Node      // where a diagnostic goes
	ticker ast.Expr      // for a receive from a ticker made before, the ticker
}

// checkLoop reports a retry loop whose every wait between attempts is
// deterministic.
func (c *checker) checkLoop(s *retrysite.Site) {
	var waits []wait
	for _, n := range s.Loop.Path {
		switch n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			continue
		}
		for _, w := range c.waitsIn(n) {
			if v, ok := c.constDuration(w.dur); ok && v <= 0 {
				continue // time.Sleep(0): no wait
			}
			waits = append(waits, w)
		}
	}
	if len(waits) == 0 {
		return // no wait at all: a different problem
	}
	sc := c.newScope(c.outerFunc(s), s.Node)
	k := fixed
	for i, w := range waits {
		if w.ticker != nil {
			waits[i].dur = sc.tickerPeriod(w.ticker)
			if waits[i].dur == nil {
				return // a ticker made where the pass cannot see
			}
		}
		k = join(k, sc.of(waits[i].dur))
	}
	if k == unknown || k == random {
		return
	}
	first := waits[0]
	if c.done[first.at.Pos()] {
		return
	}
	c.done[first.at.Pos()] = true
	var msg, cat string
	switch {
	case k == growing:
		cat = catGrowing
		msg = "retry waits grow with the attempt but have no random term: clients that failed together retry together; add jitter"
	default:
		cat = catFixed
		msg = "retry waits " + c.fixedPhrase(waits) + " between attempts: clients that failed together retry together; add jitter"
	}
	d := analysis.Diagnostic{Pos: first.at.Pos(), End: first.at.End(), Category: cat, Message: msg}
	d.Related = []analysis.RelatedInformation{{Pos: s.Pos, End: s.Pos + token.Pos(len("for")), Message: "the retry loop"}}
	if fix := c.loopFix(waits); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	suppress.Report(c.pass, d)
}

// fixedPhrase says how long a loop of fixed waits waits: "a fixed 250ms"
// when every wait is that one constant, else "a fixed time" or the
// expression it waits.
func (c *checker) fixedPhrase(waits []wait) string {
	var val int64 = -1
	text := ""
	for i, w := range waits {
		if w.dur == nil {
			return "a fixed time"
		}
		v, ok := c.constDuration(w.dur)
		if !ok {
			val = -2
		} else if i == 0 || val == v {
			val = v
		} else {
			val = -2
		}
		t := types.ExprString(w.dur)
		if i == 0 {
			text = t
		} else if text != t {
			text = ""
		}
	}
	switch {
	case val >= 0:
		return "a fixed " + time.Duration(val).String()
	case text != "" && len(text) <= 32:
		return "the same " + text
	}
	return "a fixed time"
}

// outerFunc returns the function declaration (or package-level literal)
// around a site, whose body holds every variable the site's code uses.
func (c *checker) outerFunc(s *retrysite.Site) ast.Node {
	cur, ok := astx.Find(c.insp.Root(), s.Node)
	if !ok {
		return s.Func
	}
	var outer ast.Node = s.Func
	for p := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		outer = p.Node()
	}
	return outer
}

// waitsIn returns the waits of one node of a loop's path.
func (c *checker) waitsIn(n ast.Node) []wait {
	var out []wait
	astx.InspectNoLit(n, func(x ast.Node) bool {
		switch x := x.(type) {
		case *ast.CallExpr:
			if w, ok := c.waitCall(x); ok {
				out = append(out, w)
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				if t := c.tickerOf(x.X); t != nil {
					out = append(out, wait{at: x, ticker: t})
				}
			}
		}
		return true
	})
	return out
}

// waitCall reports whether call waits, and for how long: time.Sleep(d),
// time.After(d), time.NewTimer(d), t.Reset(d), time.Tick(d), or a sleep
// function taking a context and a duration (sleep(ctx, d)).
func (c *checker) waitCall(call *ast.CallExpr) (wait, bool) {
	fn := c.callee(call)
	if fn == nil || len(call.Args) == 0 {
		return wait{}, false
	}
	path, name, recv := typesx.PkgPath(fn), fn.Name(), typesx.RecvName(fn)
	switch {
	case path == "time" && recv == "" && (name == "Sleep" || name == "After" || name == "NewTimer" || name == "Tick") && len(call.Args) == 1:
		return wait{call: call, dur: call.Args[0], at: call}, true
	case path == "time" && (recv == "Timer" || recv == "Ticker") && name == "Reset" && len(call.Args) == 1:
		return wait{call: call, dur: call.Args[0], at: call}, true
	}
	if len(call.Args) != 2 || !isSleepName(name) {
		return wait{}, false
	}
	ctx, dur := c.pass.TypesInfo.TypeOf(call.Args[0]), c.pass.TypesInfo.TypeOf(call.Args[1])
	if ctx == nil || dur == nil || !isContext(ctx) || !isDuration(dur) {
		return wait{}, false
	}
	return wait{call: call, dur: call.Args[1], at: call}, true
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

// tickerOf returns the ticker whose channel x is (t in t.C), or nil.
func (c *checker) tickerOf(x ast.Expr) ast.Expr {
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "C" {
		return nil
	}
	t := c.pass.TypesInfo.TypeOf(sel.X)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Name() != "Ticker" || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "time" {
		return nil
	}
	return sel.X
}
