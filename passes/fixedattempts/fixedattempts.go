package fixedattempts

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retrysite"
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

// BudgetPath is the import path of the project's runtime retry budget.
const BudgetPath = "github.com/retrylint/retrylint/budget"

// Diagnostic categories.
const (
	catCount     = "fixed_attempts"
	catTime      = "time_bounded"
	catUnbounded = "unbounded"
	catUnknown   = "unbudgeted"
)

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	for _, s := range retrysite.Of(pass).List {
		if s.Kind == retrysite.HelperCall {
			// A helper's loop is reported where it is; a call only when
			// the helper takes a budget and the call gives it none.
			if s.Exempt == "" && noBudget(pass, s) {
				reportNoBudget(pass, s)
			}
			continue
		}
		if s.Guard != nil || s.Exempt != "" {
			continue
		}
		if s.Bound.Kind == retrysite.BoundCount && s.Bound.N == 1 {
			continue
		}
		report(pass, cfg, s)
	}
	return nil, nil
}

func report(pass *analysis.Pass, cfg *Config, s *retrysite.Site) {
	subject, lacks := "retry loop", "retry budget"
	switch {
	case s.API == "grpc.WithDefaultServiceConfig":
		subject, lacks = "the service config's retryPolicy", "retryThrottling"
	case strings.HasPrefix(s.API, "retry.New") && s.Config != nil:
		subject, lacks = s.API+" with ratelimit.None", "retry quota"
	case s.Kind == retrysite.Library:
		subject = s.API
	}
	helper := ""
	if s.Helper != nil {
		helper = funcName(s.Func)
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
	switch b.Kind {
	case retrysite.BoundCount:
		cat = catCount
		if b.N > 0 {
			msg = fmt.Sprintf("%s makes up to %d attempts%s with no %s: a failing dependency gets %d× its load", subject, b.N, note, lacks, b.N)
		} else {
			msg = fmt.Sprintf("%s makes up to %s attempts%s with no %s: a failing dependency gets that many times its load", subject, b.Expr, note, lacks)
		}
	case retrysite.BoundTime:
		cat = catTime
		msg = fmt.Sprintf("%s is bounded only by time%s, with no %s: a failing dependency gets every attempt that fits", subject, note, lacks)
	case retrysite.Unbounded:
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
	switch n := len(s.Calls); {
	case n == 1:
		msg += ", at its 1 call"
	case n > 1:
		msg += fmt.Sprintf(", at each of its %d calls", n)
	}
	d := analysis.Diagnostic{Pos: s.Pos, End: siteEnd(s), Category: cat, Message: msg}
	for _, at := range s.Attempts {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at.Call.Pos(), End: at.Call.End(), Message: "attempt made here"})
		break
	}
	for _, c := range s.Calls {
		m := "called here"
		if deps := depNames(c); deps != "" {
			m += ": retries " + deps
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: c.Pos, End: siteEnd(c), Message: m})
	}
	if fix := suggest(pass, cfg, s); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	suppress.Report(pass, d)
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

func suggest(pass *analysis.Pass, cfg *Config, s *retrysite.Site) *analysis.SuggestedFix {
	file := fixutil.FileOf(pass, s.Pos)
	if file == nil || ast.IsGenerated(file) {
		return nil
	}
	switch {
	case s.API == "grpc.WithDefaultServiceConfig":
		return throttlingFix(pass, file, s)
	case s.Kind == retrysite.Library && s.Config != nil:
		return quotaFix(pass, file, s)
	case s.Kind == retrysite.Loop:
		return loopFix(pass, cfg, file, s)
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
	entry := `"retryThrottling": {"maxTokens": 10, "tokenRatio": 0.1}, `
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

// loopFix guards a retry loop with a budget where every failing path
// meets (retrysite.LoopFacts.Meet): one guard covers every failure, and
// no successful attempt asks the budget.
func loopFix(pass *analysis.Pass, cfg *Config, file *ast.File, s *retrysite.Site) *analysis.SuggestedFix {
	lf := s.Loop
	if lf == nil || lf.Meet.Stmt == nil {
		return nil
	}
	at := lf.Meet.Stmt.Pos()
	if lf.Meet.After {
		at = lf.Meet.Stmt.End()
	}
	ret := refusal(pass, file, s, at)
	if ret == "" {
		return nil
	}
	indent := fixutil.Indent(pass, file, lf.Meet.Stmt.Pos())
	loopStart := s.Node.Pos()
	if ls := labelOf(file, s.Node); ls != nil {
		loopStart = ls.Pos()
	}
	loopIndent := fixutil.Indent(pass, file, loopStart)

	var edits []analysis.TextEdit
	var name, message string
	deposit := false
	if expr, isPkg := budgetInScope(pass, file, s); expr != "" {
		name, deposit = expr, isPkg
		message = "Guard the retries with " + expr
	} else {
		if !cfg.BudgetModule && !importsBudget(pass.Pkg) {
			return nil
		}
		prefix, imp := fixutil.AddImport(pass.TypesInfo, file, BudgetPath, file.Package)
		edits = append(edits, imp...)
		name = fixutil.FreshName(pass.TypesInfo, file, file.Package, budgetName(s))
		decl := fmt.Sprintf("\n\n// %s limits the retries to %s to a share of its requests.\nvar %s = %s.New()", name, depLabel(s), name, prefix)
		end := file.Name.End()
		for _, d := range file.Decls {
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.IMPORT {
				end = gd.End()
			}
		}
		edits = append(edits, analysis.TextEdit{Pos: end, End: end, NewText: []byte(decl)})
		deposit = true
		message = "Guard the retries with a new retry budget " + name
	}
	if deposit {
		edits = append(edits, analysis.TextEdit{Pos: loopStart, End: loopStart, NewText: []byte(name + ".OnRequest()\n" + loopIndent)})
	}
	guard := fmt.Sprintf("if !%s.TryRetry() {\n%s\t%s\n%s}", name, indent, ret, indent)
	if lf.Meet.After {
		guard = "\n" + indent + guard
	} else {
		guard += "\n" + indent
	}
	edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(guard)})
	return &analysis.SuggestedFix{Message: message, TextEdits: edits}
}

// refusal returns the statement that ends the retrying when the budget
// refuses: a return of the failure's error (with zero values before it),
// or a bare return when the function returns nothing.
func refusal(pass *analysis.Pass, file *ast.File, s *retrysite.Site, at token.Pos) string {
	var sig *types.Signature
	switch fn := s.Func.(type) {
	case *ast.FuncDecl:
		if obj, ok := pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			sig = obj.Type().(*types.Signature)
		}
	case *ast.FuncLit:
		sig, _ = pass.TypesInfo.TypeOf(fn).(*types.Signature)
	}
	if sig == nil {
		return ""
	}
	res := sig.Results()
	if res.Len() == 0 {
		return "return"
	}
	errVar := s.Loop.Err
	if errVar == nil {
		return ""
	}
	inScope := false
	if scope := pass.TypesInfo.Scopes[file]; scope != nil {
		if _, obj := scope.Innermost(at).LookupParent(errVar.Name(), at); obj == errVar {
			inScope = true
		}
	}
	if !inScope || !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return ""
	}
	parts := make([]string, 0, res.Len())
	for i := 0; i < res.Len()-1; i++ {
		z := fixutil.ZeroValue(res.At(i).Type(), pass.Pkg)
		if z == "" {
			return ""
		}
		parts = append(parts, z)
	}
	parts = append(parts, errVar.Name())
	return "return " + strings.Join(parts, ", ")
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

// budgetInScope returns an expression naming a budget of the project's
// budget package that is in scope at the loop and belongs to the site's
// dependency: a package variable, a local variable or parameter, or a
// field of the method's receiver. A budget whose name contains the
// dependency's name wins; otherwise the only budget in scope is used.
// isBudgetPkg reports whether a deposit (OnRequest) should go with it.
func budgetInScope(pass *analysis.Pass, file *ast.File, s *retrysite.Site) (expr string, isBudgetPkg bool) {
	type cand struct{ expr, name string }
	var cands []cand
	pos := s.Node.Pos()
	seen := map[types.Object]bool{}
	if scope := pass.TypesInfo.Scopes[file]; scope != nil {
		for sc := scope.Innermost(pos); sc != nil && sc != types.Universe; sc = sc.Parent() {
			for _, name := range sc.Names() {
				_, obj := sc.LookupParent(name, pos)
				v, ok := obj.(*types.Var)
				if !ok || seen[v] || !isBudget(v.Type()) {
					continue
				}
				if sc != pass.Pkg.Scope() && v.Pos() > pos {
					continue
				}
				seen[v] = true
				cands = append(cands, cand{name, name})
			}
		}
	}
	if fd, ok := s.Func.(*ast.FuncDecl); ok && fd.Recv != nil && len(fd.Recv.List) == 1 && len(fd.Recv.List[0].Names) == 1 {
		recv := fd.Recv.List[0].Names[0]
		if v, ok := pass.TypesInfo.Defs[recv].(*types.Var); ok && recv.Name != "_" {
			t := v.Type()
			if p, ok := t.(*types.Pointer); ok {
				t = p.Elem()
			}
			if st, ok := t.Underlying().(*types.Struct); ok {
				for f := range st.Fields() {
					if isBudget(f.Type()) && (f.Exported() || f.Pkg() == pass.Pkg) {
						cands = append(cands, cand{recv.Name + "." + f.Name(), f.Name()})
					}
				}
			}
		}
	}
	dep := ""
	if len(s.Attempts) > 0 {
		dep = strings.ToLower(s.Attempts[0].Dep.Name)
	}
	if dep != "" {
		for _, c := range cands {
			if strings.Contains(strings.ToLower(c.name), dep) {
				return c.expr, true
			}
		}
	}
	if len(cands) == 1 {
		return cands[0].expr, true
	}
	return "", false
}

// isBudget reports whether t is *budget.Budget of the project's package.
func isBudget(t types.Type) bool {
	p, ok := t.(*types.Pointer)
	if !ok {
		return false
	}
	n, ok := types.Unalias(p.Elem()).(*types.Named)
	return ok && n.Obj().Name() == "Budget" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == BudgetPath
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
		if p.Path() == BudgetPath {
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

// budgetName names a new budget after the site's dependency.
func budgetName(s *retrysite.Site) string {
	if len(s.Attempts) > 0 {
		if n := fixutil.IdentName(s.Attempts[0].Dep.Name); n != "" {
			return n + "Budget"
		}
	}
	return "retryBudget"
}

func depLabel(s *retrysite.Site) string {
	if len(s.Attempts) > 0 && s.Attempts[0].Dep.Name != "" {
		return s.Attempts[0].Dep.Name
	}
	return "this dependency"
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
func depNames(s *retrysite.Site) string {
	var names []string
	seen := map[string]bool{}
	for _, at := range s.Attempts {
		if at.Dep.Name != "" && !seen[at.Dep.Key] {
			seen[at.Dep.Key] = true
			names = append(names, at.Dep.Name)
		}
	}
	return strings.Join(names, ", ")
}

// noBudget reports whether a call of a helper that takes a budget passes
// none (nil).
func noBudget(pass *analysis.Pass, s *retrysite.Site) bool {
	h := s.Helper
	call, ok := s.Node.(*ast.CallExpr)
	if h == nil || !ok || h.Budget < 0 || h.Budget >= len(call.Args) {
		return false
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
func reportNoBudget(pass *analysis.Pass, s *retrysite.Site) {
	msg := fmt.Sprintf("%s is given no retry budget: its retries (%s) are unbudgeted, and a failing dependency gets every one of them", s.API, s.Bound)
	suppress.Report(pass, analysis.Diagnostic{Pos: s.Pos, End: siteEnd(s), Category: catUnknown, Message: msg})
}
