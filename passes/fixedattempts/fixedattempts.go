package fixedattempts

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/srcpos"
	"github.com/retrylint/retrylint/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports retry sites with no retry budget. Its settings are bound
// to its flags; use New for an analyzer with settings of its own.
var Analyzer = newFlagged()

// Config holds the pass's settings.
type Config struct {
	// BudgetModule offers fixes that import the budget package even where
	// the package does not depend on it yet.
	BudgetModule bool
}

// New returns the pass with settings cfg, requiring the retry-site
// analyzer site (retrysite.Analyzer, or one made by retrysite.New).
func New(site *analysis.Analyzer, cfg *Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "fixedattempts",
		Doc:      docsection.Must(doc, "fixedattempts"),
		URL:      "https://pkg.go.dev/github.com/retrylint/retrylint/passes/fixedattempts",
		Requires: []*analysis.Analyzer{site, suppress.Analyzer},
		Run:      func(pass *analysis.Pass) (any, error) { return run(pass, cfg) },
	}
}

func newFlagged() *analysis.Analyzer {
	cfg := new(Config)
	a := New(retrysite.Analyzer, cfg)
	a.Flags.BoolVar(&cfg.BudgetModule, "budget-module", false,
		"offer fixes that import github.com/retrylint/retrylint/budget even where the package does not depend on it yet")
	return a
}

// Diagnostic categories.
const (
	catCount     = "fixed_attempts"
	catTime      = "time_bounded"
	catUnbounded = "unbounded"
	catUnknown   = "unbudgeted"
)

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	sites := retrysite.Of(pass).List
	fx := newFixer(pass, cfg, sites, reported)
	for _, s := range sites {
		if s.Kind == retrysite.HelperCall {
			if s.Helper.Poll {
				// A poll helper has no retry loop of its own: its calls
				// that poll a failure are the retries.
				if s.Guard == nil && s.Exempt == "" {
					report(pass, fx, s)
				}
				continue
			}
			// A helper's loop is reported where it is; a call only when
			// the helper takes a budget and the call gives it none.
			if s.Exempt == "" && noBudget(pass, s) {
				reportNoBudget(pass, fx, s)
			}
			continue
		}
		if reported(s) {
			report(pass, fx, s)
		}
	}
	return nil, nil
}

// reported reports whether the pass reports a site: a retry site with no
// budget, that may retry an outage, other than a helper's call (the
// helper's own loop is reported).
func reported(s *retrysite.Site) bool {
	if s.Guard != nil || s.Exempt != "" || s.Kind == retrysite.HelperCall {
		return false
	}
	return s.Bound.Kind != retrysite.BoundCount || s.Bound.N != 1
}

func report(pass *analysis.Pass, fx *fixer, s *retrysite.Site) {
	subject, lacks := "retry loop", "retry budget"
	switch {
	case hook(s) == retryapi.HookThrottling:
		subject, lacks = "the service config's retryPolicy", "retryThrottling"
	case hook(s) == retryapi.HookQuota && s.Config != nil:
		subject, lacks = s.API+" with ratelimit.None", "retry quota"
	case s.Kind == retrysite.Library:
		subject = s.API
	}
	helper := ""
	if s.Kind == retrysite.HelperCall && s.Helper.Poll {
		// exponentialBackoff(b, cond), whose cond answers (false, nil)
		// after a failure.
		subject = "poll helper " + s.API + ", whose condition goes round on a failure,"
	} else if s.Helper != nil {
		helper = funcName(s.Func)
		if s.Holder != nil {
			helper = s.Holder.Name()
		}
		subject += " of retry helper " + helper
	}
	var msg, cat string
	b := s.Bound
	note := ""
	switch {
	case b.Note != "":
		note = " (" + b.Note + ")"
	case b.Param != "" && s.Helper != nil:
		note = " (its parameter " + b.Param + ")"
	}
	failover := s.Loop != nil && s.Loop.List != nil
	switch {
	case s.Loop != nil && s.Loop.Picker != nil && b.Kind != retrysite.BoundCount:
		// A failover through the endpoints a call hands out: each gets
		// one attempt, as in a range over a list.
		cat = catCount
		msg = fmt.Sprintf("%s tries each endpoint %s hands out in turn, with no %s: when all fail, one request makes one call per endpoint", subject, types.ExprString(s.Loop.Picker), lacks)
	case b.Kind == retrysite.BoundCount:
		cat = catCount
		switch {
		case failover:
			// Each endpoint gets one attempt: what multiplies is what
			// they share, when all of them fail.
			n := b.Expr
			if b.N > 0 {
				n = fmt.Sprint(b.N)
			}
			msg = fmt.Sprintf("%s tries each of the %s endpoints of %s in turn, with no %s: when all fail, one request makes %s calls", subject, n, types.ExprString(s.Loop.List), lacks, n)
		case b.N > 0:
			msg = fmt.Sprintf("%s makes up to %d attempts%s with no %s: a failing dependency gets %d× its load", subject, b.N, note, lacks, b.N)
		default:
			msg = fmt.Sprintf("%s makes up to %s attempts%s with no %s: a failing dependency gets that many times its load", subject, b.Expr, note, lacks)
		}
	case b.Kind == retrysite.BoundTime:
		cat = catTime
		msg = fmt.Sprintf("%s is bounded only by time%s, with no %s: a failing dependency gets every attempt that fits", subject, note, lacks)
	case b.Kind == retrysite.Unbounded:
		cat = catUnbounded
		msg = fmt.Sprintf("%s retries without bound%s and with no %s: a failing dependency gets unbounded load", subject, note, lacks)
	default:
		cat = catUnknown
		switch {
		case b.Note != "" && s.Kind == retrysite.Loop:
			msg = fmt.Sprintf("%s makes as many attempts as %s allows, with no %s: a failing dependency gets every one of them", subject, b.Note, lacks)
		case s.Kind == retrysite.Loop:
			msg = fmt.Sprintf("%s stops on a condition that does not count its attempts, with no %s: a failing dependency gets every one until it holds", subject, lacks)
		default:
			msg = fmt.Sprintf("%s retries with no %s: a failing dependency gets every retry on top of its load", subject, lacks)
		}
	}
	// The calls the finding counts and names are the code's own: calls in
	// the package's tests are left out of a finding on its other files, so
	// that it reads the same with the tests analyzed (go vet) and without.
	calls := s.Calls
	if !srcpos.InTest(pass.Fset, s.Pos) {
		calls = slices.DeleteFunc(slices.Clone(calls), func(c *retrysite.Site) bool { return srcpos.InTest(pass.Fset, c.Pos) })
	}
	switch n := len(calls); {
	case n == 1:
		msg += ", at its 1 call"
	case n > 1:
		msg += fmt.Sprintf(", at each of its %d calls", n)
	}
	d := analysis.Diagnostic{Pos: s.Pos, End: siteEnd(s), Category: cat, Message: msg}
	if c := s.Client; c != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos, End: siteEnd(c), Message: "the client is configured here"})
	}
	for _, at := range s.Attempts {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at.Call.Pos(), End: at.Call.End(), Message: "attempt made here"})
		break
	}
	var labels retrysite.Labels
	for _, c := range calls {
		for _, at := range c.Attempts {
			if at.Dep.Name != "" {
				labels.Add(at.Dep)
			}
		}
	}
	for _, c := range calls {
		m := "called here"
		if deps := depNames(c, &labels); deps != "" {
			m += ": retries " + deps
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos, End: siteEnd(c), Message: m})
	}
	if fix := suggest(pass, fx, s); fix != nil {
		fix.TextEdits = fixutil.Unique(fix.TextEdits)
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	} else if why := fx.why[configured(s)]; why != "" {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: s.Pos, End: siteEnd(s), Message: why})
	}
	suppress.Report(pass, d)
}

// configured returns the site a fix of s edits: its client's
// configuration for a send, else s.
func configured(s *retrysite.Site) *retrysite.Site {
	if s.Client != nil {
		return s.Client
	}
	return s
}

// siteEnd returns the end of the smallest node that names the site: the
// for keyword of a loop, the callee of a call.
func siteEnd(s *retrysite.Site) token.Pos {
	switch n := s.Node.(type) {
	case *ast.ForStmt, *ast.RangeStmt:
		return s.Pos + token.Pos(len("for"))
	case *ast.CallExpr:
		if s.Pos == n.Pos() {
			return n.Fun.End()
		}
	}
	return s.Pos
}

// hook returns the fix hook of a library site's API, or "".
func hook(s *retrysite.Site) string {
	if s.Entry == nil {
		return ""
	}
	return s.Entry.Hook
}

func suggest(pass *analysis.Pass, fx *fixer, s *retrysite.Site) *analysis.SuggestedFix {
	// A send is fixed where its client is configured: every send through
	// the client carries the same fix.
	s = configured(s)
	file := fixutil.FileOf(pass, s.Pos)
	if file == nil {
		return nil
	}
	switch {
	case hook(s) == retryapi.HookThrottling:
		return throttlingFix(pass, file, s)
	case hook(s) == retryapi.HookQuota && s.Config != nil:
		return quotaFix(pass, file, s)
	case s.Kind == retrysite.Loop:
		return fx.loopFix(file, s)
	case s.Kind == retrysite.HelperCall && s.Helper.Poll:
		return fx.decline(s, whyPoll)
	case s.Kind == retrysite.Library:
		if fix := fx.httpLibraryFix(file, s); fix != nil {
			return fix
		}
		return fx.libraryFix(file, s)
	}
	return nil
}

// throttlingFix adds a retryThrottling entry to a service config literal.
func throttlingFix(pass *analysis.Pass, file *ast.File, s *retrysite.Site) *analysis.SuggestedFix {
	lit, ok := s.Config.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING || lit.Pos() < file.FileStart || lit.End() > file.FileEnd {
		return nil
	}
	i := strings.IndexByte(lit.Value, '{')
	if i < 0 {
		return nil
	}
	entry := `"retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}`
	if rest := strings.TrimLeft(lit.Value[i+1:], " \t\r"); lit.Value[0] == '`' && strings.HasPrefix(rest, "\n") {
		// A config laid out on lines: the entry gets a line of its own,
		// indented as the line after the brace.
		next := rest[1:]
		indent := next[:len(next)-len(strings.TrimLeft(next, " \t"))]
		entry = "\n" + indent + entry + ","
	} else {
		entry += ", "
	}
	if lit.Value[0] == '"' {
		entry = strings.ReplaceAll(entry, `"`, `\"`)
	}
	at := lit.Pos() + token.Pos(i+1)
	return &analysis.SuggestedFix{
		Message:   "Add retryThrottling to the service config",
		TextEdits: []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(entry)}},
	}
}

// quotaFix replaces ratelimit.None with the SDK's token bucket.
func quotaFix(pass *analysis.Pass, file *ast.File, s *retrysite.Site) *analysis.SuggestedFix {
	sel, ok := ast.Unparen(s.Config).(*ast.SelectorExpr)
	if !ok || sel.Pos() < file.FileStart || sel.End() > file.FileEnd {
		return nil
	}
	return &analysis.SuggestedFix{
		Message: "Use the SDK's retry quota instead of ratelimit.None",
		TextEdits: []analysis.TextEdit{{
			Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("NewTokenRateLimit(500)"),
		}},
	}
}

// loopFix guards a retry loop with the budget of its dependency (see
// loopfix.go for where the guard goes and what a refusal does, budgets.go
// for which budget).
func (f *fixer) loopFix(file *ast.File, s *retrysite.Site) *analysis.SuggestedFix {
	if s.Loop != nil && (s.Loop.List != nil || s.Loop.Picker != nil) {
		return f.decline(s, whyFailover)
	}
	if s.Loop != nil && s.Loop.Go != nil {
		return f.decline(s, whyGo)
	}
	if s.Loop != nil && s.Loop.Polls {
		return f.decline(s, whyPolls)
	}
	plan := planLoop(f.pass, file, s)
	if plan == nil {
		if neverGivesUp(f.pass, s) {
			return f.decline(s, whyNoGiveUp)
		}
		return f.decline(s, whyNoPlace)
	}
	var ref budgetRef
	var edits []analysis.TextEdit
	if h := f.helpers[s]; h != nil {
		if h.param == "" {
			if h.why != "" {
				return f.decline(s, h.why)
			}
			return f.decline(s, whyHelper)
		}
		he, ok := f.helperEdits(file, h)
		if !ok {
			return f.decline(s, whyHelper)
		}
		edits = append(edits, he...)
		ref = budgetRef{expr: h.param, message: "Give the retry helper a budget parameter, filled by each caller with its dependency's budget"}
		if h.optional {
			ref = budgetRef{expr: h.param + "[0]", given: "len(" + h.param + ") > 0", absent: "len(" + h.param + ") == 0",
				message: "Give the retry helper an optional budget parameter, filled by each caller in the package with its dependency's budget"}
		}
	} else {
		var n *need
		for _, x := range f.needs {
			if x.pos == s.Node.Pos() {
				n = x
			}
		}
		if n == nil {
			return f.decline(s, whyDep)
		}
		var ok bool
		if ref, ok = f.ref(n); !ok {
			return f.decline(s, f.budgetWhy())
		}
		edits = append(edits, ref.edits...)
	}
	if plan.newLabel {
		plan.label = freshLabel(astx.FuncBody(s.Func))
	}
	guard, ok := plan.render(f.pass, file, s, ref)
	if !ok {
		return f.decline(s, whyGuard)
	}
	edits = append(edits, guard...)
	loopStart := s.Node.Pos()
	if ls := labelOf(file, s.Node); ls != nil {
		loopStart = ls.Pos()
	}
	// The request is counted before its first attempt: before the loop,
	// or before the statement that makes the attempt the loop retries.
	reqAt := loopStart
	if s.Loop.Primed != nil {
		st := primedStmt(astx.FuncBody(s.Func), s.Loop.Primed, s.Node)
		if st == nil {
			return f.decline(s, whyNoPlace)
		}
		reqAt = st.Pos()
	}
	reqIndent := fixutil.Indent(f.pass, file, reqAt)
	before := ref.expr + ".OnRequest()\n" + reqIndent
	if ref.given != "" {
		before = "if " + ref.given + " {\n" + reqIndent + "\t" + before + "}\n" + reqIndent
	}
	if plan.flag != "" {
		before += plan.flag + " := false\n" + reqIndent
	}
	edits = append(edits, analysis.TextEdit{Pos: reqAt, End: reqAt, NewText: []byte(before)})
	if plan.newLabel {
		loopIndent := fixutil.Indent(f.pass, file, loopStart)
		edits = append(edits, analysis.TextEdit{Pos: loopStart, End: loopStart, NewText: []byte(plan.label + ":\n" + loopIndent)})
	}
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	return &analysis.SuggestedFix{Message: ref.message, TextEdits: edits}
}

// primedStmt returns the statement that holds the attempt made before a
// loop: the one, in the innermost statement list that holds both, that
// comes before the statement holding the loop, or the statement holding
// the loop when its header makes the attempt (if err := call(); err !=
// nil { for ... }). It returns nil when no list holds both.
func primedStmt(body *ast.BlockStmt, call *ast.CallExpr, loop ast.Node) ast.Stmt {
	var found ast.Stmt
	within := func(n ast.Node, st ast.Stmt) bool { return st.Pos() <= n.Pos() && n.End() <= st.End() }
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		var first ast.Stmt
		for _, st := range list {
			if first == nil && within(call, st) {
				first = st
			}
			if within(loop, st) {
				if first != nil && first != st {
					found = first
				}
				inBody := false
				for _, sub := range childLists(st) {
					for _, x := range sub {
						inBody = inBody || within(call, x)
					}
				}
				if first == st && !inBody {
					// if err := call(); err != nil { for ... }: the
					// statement's own header makes the attempt.
					found = st
					return
				}
				for _, sub := range childLists(st) {
					visit(sub)
				}
				return
			}
		}
	}
	if body != nil {
		visit(body.List)
	}
	return found
}

func labelOf(file *ast.File, loop ast.Node) *ast.LabeledStmt {
	var found *ast.LabeledStmt
	ast.Inspect(file, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok && ls.Stmt == loop {
			found = ls
		}
		return found == nil && (n == nil || n.Pos() <= loop.Pos() && loop.End() <= n.End())
	})
	return found
}

// isBudget reports whether t is *budget.Budget of the project's package.
func isBudget(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Name() == "Budget" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == retryapi.BudgetPath
}

// importsBudget reports whether the budget package is among pkg's
// dependencies, so that importing it cannot break the build.
func importsBudget(pkg *types.Package) bool {
	seen := map[*types.Package]bool{}
	var visit func(p *types.Package) bool
	visit = func(p *types.Package) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		if p.Path() == retryapi.BudgetPath {
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

// funcName names the function a site is in: F, T.M, or "a function
// literal".
func funcName(fn ast.Node) string {
	fd, ok := fn.(*ast.FuncDecl)
	if !ok {
		return "a function literal"
	}
	if fd.Recv != nil && len(fd.Recv.List) == 1 {
		t := fd.Recv.List[0].Type
		if st, ok := t.(*ast.StarExpr); ok {
			t = st.X
		}
		if ix, ok := t.(*ast.IndexExpr); ok {
			t = ix.X
		}
		if id, ok := t.(*ast.Ident); ok {
			return id.Name + "." + fd.Name.Name
		}
	}
	return fd.Name.Name
}

// depNames lists the dependencies a site's attempts target.
func depNames(s *retrysite.Site, labels *retrysite.Labels) string {
	var names []string
	seen := map[string]bool{}
	for _, at := range s.Attempts {
		if at.Dep.Name != "" && !seen[at.Dep.Key] {
			seen[at.Dep.Key] = true
			names = append(names, labels.Name(at.Dep))
		}
	}
	return strings.Join(names, ", ")
}

// noBudget reports whether a call of a helper that takes a budget passes
// none: nil, or no argument for a final variadic budget parameter (the
// optional budget an exported helper's fix adds).
func noBudget(pass *analysis.Pass, s *retrysite.Site) bool {
	h := s.Helper
	call, ok := s.Node.(*ast.CallExpr)
	if h == nil || !ok || h.Budget < 0 {
		return false
	}
	if h.Budget >= len(call.Args) {
		t := pass.TypesInfo.TypeOf(call.Fun)
		if t == nil {
			return false
		}
		sig, _ := t.Underlying().(*types.Signature)
		return sig != nil && sig.Variadic() && h.Budget == sig.Params().Len()-1 && !call.Ellipsis.IsValid()
	}
	id, ok := ast.Unparen(call.Args[h.Budget]).(*ast.Ident)
	if !ok {
		return false
	}
	_, isNil := pass.TypesInfo.Uses[id].(*types.Nil)
	return isNil
}

// reportNoBudget reports a call of a budget-taking helper that passes a
// nil budget.
func reportNoBudget(pass *analysis.Pass, fx *fixer, s *retrysite.Site) {
	msg := fmt.Sprintf("%s is given no retry budget: its retries (%s) are unbudgeted, and a failing dependency gets every one of them", s.API, s.Bound)
	d := analysis.Diagnostic{Pos: s.Pos, End: siteEnd(s), Category: catUnknown, Message: msg}
	if fix := fx.callFix(s); fix != nil {
		fix.TextEdits = fixutil.Unique(fix.TextEdits)
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	suppress.Report(pass, d)
}
