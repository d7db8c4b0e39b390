package sharedbudget

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/srcpos"
	"github.com/retrylint/retrylint/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports retry budgets shared by several dependencies. It has no
// settings of its own; it follows the retry-site analysis's (-retrysite.*).
var Analyzer = New(retrysite.Analyzer)

// New returns the pass, requiring the retry-site analyzer site
// (retrysite.Analyzer, or one made by retrysite.New).
func New(site *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "sharedbudget",
		Doc:      docsection.Must(doc, "sharedbudget"),
		URL:      "https://pkg.go.dev/github.com/retrylint/retrylint/passes/sharedbudget",
		Requires: []*analysis.Analyzer{site, inspect.Analyzer, suppress.Analyzer},
		Run:      run,
	}
}

// Diagnostic categories.
const (
	catShared  = "shared_budget"
	catRetryer = "shared_retryer"
)

// checker holds the state of one run over a package.
type checker struct {
	pass  *analysis.Pass
	info  *types.Info
	insp  *inspector.Inspector
	deps  *retrysite.Deps // the package's dependency model, shared with fixedattempts' fixes
	sites []*retrysite.Site

	params map[*types.Var]paramRef         // parameters of the package's function declarations
	calls  map[*types.Func][]*ast.CallExpr // static calls of the package's functions, built on first use
	claims fixutil.Claims                  // names the fixes declare
}

// use is one retry site guarded by a budget.
type use struct {
	site *retrysite.Site
	expr ast.Expr // the budget expression at the site
	dep  retrysite.Dep
	// via is the call, in a caller of the site's function, that passes the
	// budget or the dependency the site's function takes as a parameter.
	via *ast.CallExpr
}

// shared is a budget and the sites it guards.
type shared struct {
	id   budgetID
	uses []use
	typ  types.Type
}

func run(pass *analysis.Pass) (any, error) {
	c := &checker{
		pass:   pass,
		info:   pass.TypesInfo,
		insp:   pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		claims: fixutil.Claims{},
	}
	sites := retrysite.Of(pass)
	c.sites = sites.List
	c.deps = sites.Deps()
	awsPkg := importsAWSService(pass.Pkg)
	guarded := false
	for _, s := range sites.List {
		guarded = guarded || s.Guard != nil
	}
	if !guarded && !awsPkg {
		return nil, nil
	}
	c.indexParams()

	byID := make(map[idKey]*shared)
	var order []*shared
	add := func(id budgetID, u use, typ types.Type) {
		sh := byID[id.mapKey()]
		if sh == nil {
			sh = &shared{id: id, typ: typ}
			byID[id.mapKey()] = sh
			order = append(order, sh)
		}
		for _, o := range sh.uses {
			if o.site == u.site && o.via == u.via && o.dep == u.dep {
				return
			}
		}
		sh.uses = append(sh.uses, u)
	}
	for _, s := range sites.List {
		seen := map[any]bool{}
		for _, g := range c.retryGuards(s) {
			// The budget: one the package names, or a parameter of the
			// site's function that its callers fill.
			id, ok := c.budgetOf(g.Budget, 0)
			var bp *types.Var
			if !ok {
				if bp = c.paramOf(g.Budget); bp == nil {
					continue
				}
			}
			var key any = id.mapKey()
			if bp != nil {
				key = bp
			}
			if seen[key] {
				continue
			}
			seen[key] = true
			typ := pass.TypesInfo.TypeOf(g.Budget)
			d := c.deps.Site(s)
			var dp *types.Var
			var dk depKind
			if d.Key == "" {
				dp, dk = c.depParam(s)
			}
			switch {
			case bp == nil && dp == nil:
				add(id, use{site: s, expr: g.Budget, dep: d}, typ)
			case bp != nil && dp == nil && d.Key == "":
				// A budget parameter guarding an unknown dependency (a
				// retry helper's own loop) says nothing.
			default:
				c.resolve(pending{site: s, expr: g.Budget, typ: typ, budget: id, bparam: bp, dep: d, dparam: dp, dkind: dk}, 0, add)
			}
		}
	}
	for _, sh := range order {
		if deps := sh.deps(); len(deps) >= 2 {
			c.report(sh, deps)
		}
	}
	if awsPkg {
		c.checkAWS()
	}
	return nil, nil
}

// retryGuards returns the checks that guard a site's retries with a
// budget object: the site's guard and the other budget checks on the way
// from a failed attempt to the next one. A rate limiter asked before each
// attempt is one of them (docs/design.md, Budgets).
func (c *checker) retryGuards(s *retrysite.Site) []*retrysite.Guard {
	if s.Guard == nil {
		return nil
	}
	cands := []*retrysite.Guard{s.Guard}
	if s.Loop != nil {
		for _, g := range s.LoopGuards {
			if g.Call != s.Guard.Call {
				cands = append(cands, g)
			}
		}
	} else if s.Body != nil && s.Kind != retrysite.HelperCall {
		for _, g := range retrysite.Of(c.pass).GuardsIn(s.Body) {
			if g.Call != s.Guard.Call {
				cands = append(cands, g)
			}
		}
	}
	var out []*retrysite.Guard
	for _, g := range cands {
		if g.Budget != nil && c.budgetGuard(s, g) {
			out = append(out, g)
		}
	}
	return out
}

// budgetGuard reports whether a site's guard asks a budget object: a
// withdrawal method, a rate limiter, a retry helper's budget parameter, a
// library's budget value, or a method listed in -retrysite.budget-funcs.
// Circuit breakers are guards but not budgets, and a function that checks
// a budget it does not take hides which one.
func (c *checker) budgetGuard(s *retrysite.Site, g *retrysite.Guard) bool {
	for _, at := range s.Attempts {
		if at.Call == g.Call {
			return false // the attempt is the check
		}
	}
	switch g.Kind {
	case retrysite.GuardMethod, retrysite.GuardLimiter, retrysite.GuardHelper, retrysite.GuardNative:
		return true
	case retrysite.GuardListed:
		fn, _ := typeutil.Callee(c.info, g.Call).(*types.Func)
		n := recvOf(fn)
		return n != nil && n.Obj().Pkg() != nil
	}
	return false
}

// deps returns the known dependencies of a budget's uses, sorted by name.
func (sh *shared) deps() []retrysite.Dep {
	seen := make(map[string]bool)
	var deps []retrysite.Dep
	for _, u := range sh.uses {
		if u.dep.Key != "" && !seen[u.dep.Key] {
			seen[u.dep.Key] = true
			deps = append(deps, u.dep)
		}
	}
	labelDeps(deps)
	sort.Slice(deps, func(i, j int) bool {
		if deps[i].Name != deps[j].Name {
			return deps[i].Name < deps[j].Name
		}
		return deps[i].Key < deps[j].Key
	})
	return deps
}

// labelDeps makes the names of distinct dependencies distinct, as the
// audit names them (Inventory.client, Payments.client).
func labelDeps(deps []retrysite.Dep) {
	var labels retrysite.Labels
	for _, d := range deps {
		labels.Add(d)
	}
	for i, d := range deps {
		deps[i].Name = labels.Name(d)
	}
}

// list joins names: "a and b", "a, b and c".
func list(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

func depNames(deps []retrysite.Dep) []string {
	names := make([]string, len(deps))
	for i, d := range deps {
		names[i] = d.Name
	}
	return names
}

// drains is the why of a message: one failing dependency drains the
// credit of the other(s).
func drains(n int) string {
	if n == 2 {
		return "one failing dependency drains the other's credit"
	}
	return "one failing dependency drains the others' credit"
}

// report reports a budget that guards retries to several dependencies:
// at its declaration when the package declares it, else at its first use.
func (c *checker) report(sh *shared, deps []retrysite.Dep) {
	sort.SliceStable(sh.uses, func(i, j int) bool {
		return srcpos.Compare(c.pass.Fset, sh.uses[i].expr.Pos(), sh.uses[j].expr.Pos()) < 0
	})
	what := "retry budget"
	if isRateLimiter(sh.typ) {
		what = "rate limiter"
	}
	d := analysis.Diagnostic{
		Category: catShared,
		Message: fmt.Sprintf("%s %s guards retries to %s: %s",
			what, sh.id.name, list(depNames(deps)), drains(len(deps))),
	}
	obj := sh.id.obj
	switch {
	case sh.id.kind == bMade:
		d.Pos, d.End = sh.id.node.Pos(), sh.id.node.End()
	case sh.id.kind != bEntry && obj.Pkg() == c.pass.Pkg && c.inPackage(obj.Pos()):
		d.Pos, d.End = obj.Pos(), obj.Pos()+token.Pos(len(obj.Name()))
	default:
		d.Pos, d.End = sh.uses[0].expr.Pos(), sh.uses[0].expr.End()
	}
	names := make(map[string]string)
	for _, dp := range deps {
		names[dp.Key] = dp.Name
	}
	for _, u := range sh.uses {
		msg := "guards retries to a dependency not known here"
		if u.dep.Key != "" {
			msg = "guards retries to " + names[u.dep.Key]
		}
		var at ast.Node = u.expr
		if u.via != nil {
			at = u.via
			msg += " through " + calleeName(c.info, u.via)
		}
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: at.Pos(), End: at.End(), Message: msg})
	}
	if fix := c.splitFix(sh, deps); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	suppress.Report(c.pass, d)
}

// calleeName names the function a call invokes, for messages.
func calleeName(info *types.Info, call *ast.CallExpr) string {
	if fn, ok := typeutil.Callee(info, call).(*types.Func); ok {
		return fn.Name()
	}
	return types.ExprString(call.Fun)
}

// inPackage reports whether pos lies in one of the package's files.
func (c *checker) inPackage(pos token.Pos) bool {
	for _, f := range c.pass.Files {
		if f.FileStart <= pos && pos < f.FileEnd {
			return true
		}
	}
	return false
}

// isRateLimiter reports whether t is golang.org/x/time/rate's Limiter.
func isRateLimiter(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == "Limiter" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "golang.org/x/time/rate"
}
