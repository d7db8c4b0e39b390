package nojitter

import (
	_ "embed"
	"go/ast"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
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
		Name:     "nojitter",
		Doc:      docsection.Must(doc, "nojitter"),
		URL:      "https://pkg.go.dev/github.com/retrylint/retrylint/passes/nojitter",
		Requires: []*analysis.Analyzer{site, inspect.Analyzer, suppress.Analyzer},
		Run:      run,
	}
}

// Diagnostic categories.
const (
	catFixed   = "fixed_wait"       // a loop waits the same time between attempts
	catGrowing = "no_jitter"        // a loop's waits change with the attempt, deterministically
	catLibrary = "no_jitter_config" // a retry library configured without jitter
)

type checker struct {
	pass *analysis.Pass
	insp *inspector.Inspector
	env  *durkind.Env
	done map[token.Pos]bool
}

// What a value depends on, as durkind says it.
type kind = durkind.Kind

const (
	fixed   = durkind.Fixed
	growing = durkind.Growing
	unknown = durkind.Unknown
	random  = durkind.Random
)

var join = durkind.Join

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass: pass,
		insp: pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		done: map[token.Pos]bool{},
	}
	c.env = durkind.New(pass.TypesInfo, pass.Pkg, pass.Files, retrysite.Of(pass).DelayOf)
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

func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return fn
}

// wait is a place where a retry loop waits between attempts.
type wait = retryloop.Wait

// checkLoop reports a retry loop whose every wait between attempts is
// deterministic: the model's waits (Loop.Waits), by what their durations
// depend on.
func (c *checker) checkLoop(s *retrysite.Site) {
	waits := s.Loop.Waits
	if len(waits) == 0 {
		return // no wait at all: a different problem
	}
	k := fixed
	for _, w := range waits {
		k = join(k, w.Kind)
	}
	if k == unknown || k == random {
		return
	}
	// The diagnostic goes where the first wait's duration is set (the
	// time.Sleep, the timer's Reset), or where it waits.
	var at ast.Node = waits[0].At
	if waits[0].Call != nil {
		at = waits[0].Call
	}
	if c.done[at.Pos()] {
		return
	}
	c.done[at.Pos()] = true
	var msg, cat string
	switch {
	case k == growing:
		cat = catGrowing
		msg = "retry waits grow with the attempt but have no random term: clients that failed together retry together; add jitter"
	default:
		cat = catFixed
		msg = "retry waits " + c.fixedPhrase(waits) + " between attempts: clients that failed together retry together; add jitter"
	}
	d := analysis.Diagnostic{Pos: at.Pos(), End: at.End(), Category: cat, Message: msg}
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
		d := w.Dur
		if w.Ticker != nil {
			d = w.Period
		}
		if d == nil {
			return "a fixed time"
		}
		v, ok := c.env.ConstDuration(d)
		if !ok {
			val = -2
		} else if i == 0 || val == v {
			val = v
		} else {
			val = -2
		}
		t := types.ExprString(d)
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
