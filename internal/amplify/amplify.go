// Package amplify computes how retries compose: the worst-case number of
// calls that one call of a function, or one execution of a retry site, can
// send to the deepest dependency it reaches when that dependency fails.
//
// A retry site multiplies what each of its attempts reaches by its own
// factor: its attempt bound (N; time-bounded and unbounded as kinds of
// their own), or, for a site guarded by a retry budget, 1 + the budget's
// ratio (the project's budget package: 0.1 by default or budget.Ratio(x);
// gRPC retryThrottling: its tokenRatio; any other guard: 1.1, marked as
// assumed). A function's multiplier is the worst over the calls it makes:
// a call inside the per-attempt code of its retry sites counts the product
// of those sites' factors times the multiplier of the callee.
//
// Callees are followed through direct calls and method calls whose callee
// is known statically, within a package and, through AmpFacts, across the
// analyzed packages. A per-attempt call through an interface or a function
// value, and recursion, end the walk and mark the multiplier open: "at
// least" what is shown. Interfaces of the standard library (io.Reader,
// context.Context, ...) are taken as leaves, as are functions of packages
// that are not analyzed: retry libraries are known through the retry-site
// analysis's tables, which is where third-party code is known.
//
// Work a function starts but does not do itself does not multiply it: a
// goroutine started with a go statement that the function does not wait
// for, and a callback registered for later (see detach.go for what counts
// as one). A goroutine the function waits for (a WaitGroup or errgroup
// Wait, a receive from a channel the goroutine uses) is part of its work.
// Functions that keep a function parameter for later export a LaterFact.
//
// Sites that only configure a client (a go-retryablehttp client that no
// send of the package reaches, resty's SetRetryCount, a gRPC service
// config, a failsafe-go policy, an AWS retryer) are listed with their own
// factor but not multiplied into the function that configures them: their
// attempts happen where the client is used, which is not visible
// statically. A send through a go-retryablehttp client the package
// configures is a site of its own (retrysite), multiplied where it is.
//
// Calls that leave the process (a generated client of another service, an
// HTTP request to one) are ends when a required analyzer's result says so
// (a Linker): see ends.go.
//
// The analyzer reports nothing. It exports an AmpFact for every function
// whose multiplier is more than one call (or not a count), an EndsFact for
// every function that reaches a call out of the process, and returns a
// *Result listing each retry site of the package with what it reaches.
package amplify

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Analyzer computes amplification over the flag-bound retry-site analyzer.
var Analyzer = New(retrysite.Analyzer)

// New returns an amplification analyzer that requires the retry-site
// analyzer site (retrysite.Analyzer, or one made by retrysite.New), and
// the analyzers more; a result of one of them that implements Linker says
// which calls leave the process (see ends.go).
func New(site *analysis.Analyzer, more ...*analysis.Analyzer) *analysis.Analyzer {
	facts := []analysis.Fact{new(AmpFact), new(LaterFact), new(analyzedFact)}
	if len(more) > 0 {
		facts = append(facts, new(EndsFact)) // only a linker makes ends
	}
	return &analysis.Analyzer{
		Name:       "amplify",
		Doc:        "compute worst-case retry amplification along call chains",
		URL:        "https://pkg.go.dev/github.com/retrylint/retrylint/internal/amplify",
		Requires:   append([]*analysis.Analyzer{site, inspect.Analyzer}, more...),
		ResultType: reflect.TypeFor[*Result](),
		FactTypes:  facts,
		Run:        run,
	}
}

// Of returns the result of the pass's required amplification analyzer, or
// nil when the pass does not require one.
func Of(pass *analysis.Pass) *Result {
	for _, r := range pass.ResultOf {
		if res, ok := r.(*Result); ok {
			return res
		}
	}
	return nil
}

// Step is one retry site along a chain.
type Step struct {
	Func   string // the enclosing function: "orders.(*Client).Get"
	Pos    string // the site's position, file:line:column
	Site   string // what retries: "retry loop", "backoff.Retry", a helper's name
	Bound  string // the attempt bound as the retry-site analysis gives it: "3 attempts" (see BoundText)
	Factor Mult   // the site's own factor
	Budget string // the budget guarding it ("" when none): "budget, ratio 0.1"
	// Deadline says the enclosing function knows the request's deadline:
	// it has a context.Context or *http.Request parameter, or sets a
	// deadline itself.
	Deadline bool
	Dep      string // the dependencies its attempts target, when known: their names, comma-separated
	// Deps are the dependencies its attempts target, in source order, once
	// each; a dependency with an empty key is unknown and left out.
	Deps []retrysite.Dep
}

// AmpFact is the worst-case multiplier of a function, with the chain of
// retry sites that produces it (outermost first).
type AmpFact struct {
	Mult  Mult
	Chain []Step
}

func (*AmpFact) AFact() {}

// String gives the multiplier and the functions along the chain:
// "amp(27: gateway.Handle, orders.(*Client).Get, ledger.Post)".
func (f *AmpFact) String() string {
	var names []string
	for _, s := range f.Chain {
		names = append(names, s.Func)
	}
	if len(names) == 0 {
		return "amp(" + f.Mult.String() + ")"
	}
	return "amp(" + f.Mult.String() + ": " + strings.Join(names, ", ") + ")"
}

// Result lists the retry sites of a package with what they reach.
type Result struct {
	Sites []*SiteAmp // in source order
	// Entries are the linker's entry literals with their multipliers and
	// ends, in source order (none without a Linker).
	Entries []EntryValue
}

// SiteAmp is one retry site with its amplification.
type SiteAmp struct {
	Site  *retrysite.Site
	Step  Step // the site itself as a chain step
	Inner Mult // the worst multiplier one attempt reaches
	Total Mult // Step.Factor × Inner
	// Chain is this site followed by the retry sites its worst attempt
	// reaches, outermost first; more than one step means nested retries.
	Chain []Step
	// Config says the site configures a client: its attempts happen where
	// the client is used, so nothing is multiplied here.
	Config bool
	// Exempt is the retry-site analysis's reason the site is no outage
	// risk ("" for most sites); its factor is one.
	Exempt string
	// Passed says the site retries an operation its function's callers
	// pass (retrysite.Deps.Passed): what it reaches is each caller's.
	Passed bool
}

// Nested reports whether an attempt of the site reaches another retry site.
func (s *SiteAmp) Nested() bool { return len(s.Chain) > 1 }

// value is a multiplier with the chain that produces it, and the calls
// out of the process that the code reaches (see ends.go).
type value struct {
	m     Mult
	chain []Step
	ends  []End
}

func (v value) worse(w value) bool { return v.m.Worse(w.m) }

// times returns step's factor nested around v.
func times(step Step, v value) value {
	return value{m: step.Factor.Times(v.m), chain: append([]Step{step}, v.chain...), ends: timesEnds(step, v.ends)}
}

type funcState uint8

const (
	unseen funcState = iota
	busy
	done
)

type computer struct {
	pass   *analysis.Pass
	insp   *inspector.Inspector
	find   *astx.Finder
	facts  *retrysite.Sites // whose facts the package reads
	sites  []*retrysite.Site
	model  *retrysite.Deps
	decls  map[*types.Func]*ast.FuncDecl
	state  map[*types.Func]funcState
	memo   map[*types.Func]value
	amps   map[*retrysite.Site]*SiteAmp
	byNode map[*ast.CallExpr]*retrysite.Site // helper and library calls that are sites
	later  map[*types.Func][]int             // laterParams, memoized
	linker Linker                            // nil: every call stays in the process
}

func run(pass *analysis.Pass) (any, error) {
	sites := retrysite.Of(pass)
	if sites == nil {
		return nil, fmt.Errorf("amplify requires a retry-site analyzer")
	}
	res := &Result{}
	if len(pass.Files) == 0 {
		return res, nil
	}
	pass.ExportPackageFact(new(analyzedFact))
	c := &computer{
		pass:   pass,
		insp:   pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		find:   astx.NewFinder(pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)),
		facts:  sites,
		sites:  sites.List,
		model:  sites.Deps(),
		decls:  map[*types.Func]*ast.FuncDecl{},
		state:  map[*types.Func]funcState{},
		memo:   map[*types.Func]value{},
		amps:   map[*retrysite.Site]*SiteAmp{},
		byNode: map[*ast.CallExpr]*retrysite.Site{},
		later:  map[*types.Func][]int{},
		linker: linkerOf(pass.ResultOf),
	}
	var order []*types.Func
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					c.decls[fn] = fd
					order = append(order, fn)
				}
			}
		}
	}
	// Functions that keep a callback for later, for their callers here and
	// in other packages.
	for _, fn := range order {
		if hasFuncParam(fn) {
			if ps := c.laterParams(fn); len(ps) > 0 {
				pass.ExportObjectFact(fn, &LaterFact{Params: ps})
			}
		}
	}
	// Fast path: no retry site here and none reachable through imports,
	// and no call out of the process.
	if len(sites.List) == 0 && !hasAmpFacts(pass, sites) && (c.linker == nil || !c.linker.Any()) {
		return res, nil
	}
	for _, s := range c.sites {
		if call, ok := s.Node.(*ast.CallExpr); ok && s.Kind != retrysite.Loop {
			c.byNode[call] = s
		}
	}
	for _, fn := range order {
		v := c.funcValue(fn)
		if v.m.Interesting() {
			pass.ExportObjectFact(fn, &AmpFact{Mult: v.m, Chain: v.chain})
		}
		if len(v.ends) > 0 {
			pass.ExportObjectFact(fn, &EndsFact{Ends: v.ends})
		}
	}
	// Sites outside any function declaration (package-level initialisers).
	var loose []*retrysite.Site
	for _, s := range c.sites {
		if _, ok := c.amps[s]; !ok {
			loose = append(loose, s)
		}
	}
	if len(loose) > 0 {
		c.evalScope(nil, loose, looseRoots(loose))
	}
	for _, s := range c.sites {
		if a := c.amps[s]; a != nil {
			res.Sites = append(res.Sites, a)
		}
	}
	var fds []*ast.FuncDecl
	for _, fn := range order {
		fds = append(fds, c.decls[fn])
	}
	res.Entries = c.entries(fds)
	return res, nil
}

// preorder calls f for each node under root (root included) of one of
// the types, in source order: through the inspector, which skips the
// subtrees that hold none of them.
func (c *computer) preorder(root ast.Node, types []ast.Node, f func(ast.Node)) {
	cur, ok := c.find.Find(root)
	if !ok {
		ast.Inspect(root, func(n ast.Node) bool {
			for _, t := range types {
				if n != nil && reflect.TypeOf(n) == reflect.TypeOf(t) {
					f(n)
					break
				}
			}
			return true
		})
		return
	}
	for n := range cur.Preorder(types...) {
		f(n.Node())
	}
}

// hasFuncParam reports whether fn has a parameter of function type.
func hasFuncParam(fn *types.Func) bool {
	params := fn.Signature().Params()
	for i := range params.Len() {
		if _, ok := params.At(i).Type().Underlying().(*types.Signature); ok {
			return true
		}
	}
	return false
}

// hasAmpFacts reports whether some imported function has an AmpFact or
// an EndsFact that the package reads.
func hasAmpFacts(pass *analysis.Pass, sites *retrysite.Sites) bool {
	for _, f := range pass.AllObjectFacts() {
		if !sites.ReadsFacts(f.Object.Pkg()) {
			continue
		}
		switch f.Fact.(type) {
		case *AmpFact, *EndsFact:
			return true
		}
	}
	return false
}

// looseRoots returns the nodes to walk for sites outside functions: each
// site's own node.
func looseRoots(sites []*retrysite.Site) []ast.Node {
	var roots []ast.Node
	for _, s := range sites {
		roots = append(roots, s.Node)
	}
	return roots
}

// funcValue returns the multiplier of a function of this package.
func (c *computer) funcValue(fn *types.Func) value {
	fn = fn.Origin()
	switch c.state[fn] {
	case busy:
		// Recursion: the walk ends here, and the result is open.
		return value{m: Mult{Kind: Count, Value: 1, Open: true}}
	case done:
		return c.memo[fn]
	}
	fd := c.decls[fn]
	if fd == nil {
		return value{m: One()}
	}
	c.state[fn] = busy
	var sites []*retrysite.Site
	for _, s := range c.sites {
		if s.Pos >= fd.Pos() && s.Pos < fd.End() {
			sites = append(sites, s)
		}
	}
	v := c.evalScope(fd, sites, []ast.Node{fd.Body})
	c.state[fn] = done
	c.memo[fn] = v
	return v
}

// region is the per-attempt code of one site: byte ranges of the source.
type region struct {
	site   *retrysite.Site
	ranges [][2]token.Pos
	parent int // index of the innermost enclosing region, -1 for the scope
	best   value
}

func (r *region) contains(pos token.Pos) bool {
	for _, rg := range r.ranges {
		if rg[0] <= pos && pos < rg[1] {
			return true
		}
	}
	return false
}

func (r *region) size() token.Pos {
	var n token.Pos
	for _, rg := range r.ranges {
		n += rg[1] - rg[0]
	}
	return n
}

// evalScope computes the multiplier of the code under roots (a function
// body) holding sites, records a SiteAmp for each site, and returns the
// scope's worst value.
func (c *computer) evalScope(fd *ast.FuncDecl, sites []*retrysite.Site, roots []ast.Node) value {
	regions := make([]*region, len(sites))
	for i, s := range sites {
		r := &region{site: s, parent: -1, best: value{m: One()}}
		// What runs once per attempt (Site.Runs): the per-attempt bodies,
		// local closures the attempt calls included, and the attempt
		// calls outside them.
		for _, b := range s.PerAttempt() {
			r.ranges = append(r.ranges, [2]token.Pos{b.Pos(), b.End()})
		}
		for _, at := range s.Attempts {
			if !r.contains(at.Call.Pos()) {
				r.ranges = append(r.ranges, [2]token.Pos{at.Call.Pos(), at.Call.End()})
			}
		}
		regions[i] = r
	}
	// innermost returns the index of the smallest region holding pos,
	// other than skip, or -1.
	innermost := func(pos token.Pos, skip int) int {
		best := -1
		for i, r := range regions {
			if i != skip && r.contains(pos) && (best < 0 || r.size() < regions[best].size()) {
				best = i
			}
		}
		return best
	}
	for i, r := range regions {
		r.parent = innermost(r.site.Node.Pos(), i)
	}
	det := c.findDetached(roots, sites)
	name := c.funcName(fd)
	top := value{m: One()}
	// scopeEnds are the ends of the scope: every region's, not only the
	// worst value's; detached ends are kept as they are found.
	var scopeEnds []End
	// add records v, found at pos, in region at (-1: the scope), unless
	// pos lies in work the region starts but does not do: then only its
	// ends are kept, detached.
	add := func(at int, pos token.Pos, v value) {
		regionPos := token.NoPos
		if at >= 0 {
			regionPos = regions[at].site.Node.Pos()
		}
		if det.cuts(pos, regionPos) {
			scopeEnds = mergeEnds(scopeEnds, detachEnds(v.ends))
			return
		}
		if at < 0 {
			if v.worse(top) {
				top = v
			}
			scopeEnds = mergeEnds(scopeEnds, v.ends)
			return
		}
		if v.worse(regions[at].best) {
			regions[at].best = value{m: v.m, chain: v.chain, ends: regions[at].best.ends}
		}
		regions[at].best.ends = mergeEnds(regions[at].best.ends, v.ends)
	}
	for _, root := range roots {
		c.preorder(root, []ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
			call := n.(*ast.CallExpr)
			if _, isSite := c.byNode[call]; isSite {
				return // the site accounts for its operation
			}
			if det.calls[call] {
				// A goroutine started here: not a call of the scope; what
				// it sends out of the process is detached.
				if v, ok := c.callValue(call, name); ok && len(v.ends) > 0 {
					scopeEnds = mergeEnds(scopeEnds, detachEnds(v.ends))
				}
				return
			}
			if v, ok := c.callValue(call, name); ok {
				add(innermost(call.Pos(), -1), call.Pos(), v)
			}
		})
	}
	// An operation that is not a literal: a method value or function.
	for i, r := range regions {
		s := r.site
		if s.Body != nil || s.Op == nil {
			continue
		}
		add(i, s.Node.Pos(), c.opValue(s.Op, name))
	}
	// Fold the regions bottom up: the innermost first.
	idx := make([]int, len(regions))
	for i := range idx {
		idx[i] = i
	}
	depth := func(i int) int {
		d := 0
		for p := regions[i].parent; p >= 0; p = regions[p].parent {
			d++
			if d > len(regions) {
				break // a containment cycle cannot happen; be safe
			}
		}
		return d
	}
	sort.SliceStable(idx, func(a, b int) bool { return depth(idx[a]) > depth(idx[b]) })
	for _, i := range idx {
		r := regions[i]
		amp := c.siteAmp(fd, r.site, r.best)
		c.amps[r.site] = amp
		switch {
		case amp.Config:
			// Attempts happen where the client is used.
		case amp.Exempt != "":
			// Not a step of a chain: what it reaches passes through.
			add(r.parent, r.site.Node.Pos(), r.best)
		default:
			add(r.parent, r.site.Node.Pos(), value{m: amp.Total, chain: amp.Chain, ends: timesEnds(amp.Step, r.best.ends)})
		}
	}
	top.ends = scopeEnds
	return top
}

// siteAmp builds the SiteAmp of a site whose attempts reach inner.
func (c *computer) siteAmp(fd *ast.FuncDecl, s *retrysite.Site, inner value) *SiteAmp {
	factor, budget := c.factor(s)
	step := Step{
		Func:     c.funcName(fd),
		Pos:      c.pass.Fset.Position(s.Pos).String(),
		Site:     siteName(s),
		Bound:    BoundText(s.Bound),
		Factor:   factor,
		Budget:   budget,
		Deadline: c.knowsDeadline(fd),
		Deps:     c.deps(s),
	}
	step.Dep = depNames(step.Deps)
	amp := &SiteAmp{Site: s, Step: step, Inner: inner.m, Exempt: s.Exempt, Passed: c.model.Passed(s)}
	amp.Config = s.Kind == retrysite.Library && s.Body == nil && s.Op == nil && len(s.Attempts) == 0
	if s.Exempt != "" {
		// No outage risk: one attempt's worth of what it reaches.
		amp.Total = inner.m
		amp.Chain = append([]Step{step}, inner.chain...)
		return amp
	}
	v := times(step, inner)
	amp.Total, amp.Chain = v.m, v.chain
	return amp
}

// callValue returns the multiplier of one call in the function named fn:
// the callee's, one call out of the process for a linked call, or an open
// one for an unknown callee whose result carries an error.
func (c *computer) callValue(call *ast.CallExpr, fn string) (value, bool) {
	if ends, ok := c.linkEnds(call, fn); ok {
		return value{m: One(), ends: ends}, true
	}
	switch typeutil.Callee(c.pass.TypesInfo, call).(type) {
	case *types.Func:
	case nil:
		// A conversion, a builtin, or a call of a function value that is
		// not a variable (f()(), m[k]()).
		if tv, ok := c.pass.TypesInfo.Types[call.Fun]; ok && (tv.IsType() || tv.IsBuiltin()) {
			return value{}, false
		}
		return c.unknownCall(call)
	default: // a function-valued variable or field
		return c.unknownCall(call)
	}
	callee := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if isInterfaceMethod(callee) {
		if callee.Pkg() != nil && typesx.IsStd(callee.Pkg().Path()) {
			return value{}, false
		}
		return c.unknownCall(call)
	}
	return c.funcRef(callee), true
}

// unknownCall returns an open multiplier for a call whose callee is not
// known, when its result carries an error (it may be a dependency).
func (c *computer) unknownCall(call *ast.CallExpr) (value, bool) {
	if !resultsError(c.pass.TypesInfo.TypeOf(call)) {
		return value{}, false
	}
	return value{m: Mult{Kind: Count, Value: 1, Open: true}}, true
}

// funcRef returns the multiplier of a statically known function.
func (c *computer) funcRef(fn *types.Func) value {
	fn = fn.Origin()
	if fn.Pkg() == c.pass.Pkg {
		return c.funcValue(fn)
	}
	v := value{m: One()}
	if !c.facts.ReadsFacts(fn.Pkg()) {
		return v
	}
	var f AmpFact
	if c.pass.ImportObjectFact(fn, &f) {
		v = value{m: f.Mult, chain: f.Chain}
	}
	var ef EndsFact
	if c.pass.ImportObjectFact(fn, &ef) {
		v.ends = ef.Ends
	}
	return v
}

// opValue returns the multiplier of an operation passed by name, in the
// function named fn: a method value or a function, linked or not; anything
// else is an unknown callee.
func (c *computer) opValue(op ast.Expr, fn string) value {
	if ends, ok := c.linkEnds(op, fn); ok {
		return value{m: One(), ends: ends}
	}
	var id *ast.Ident
	switch e := ast.Unparen(op).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	case *ast.IndexExpr: // an instantiated generic function
		if x, ok := ast.Unparen(e.X).(*ast.Ident); ok {
			id = x
		}
	}
	if id != nil {
		if fn, ok := c.pass.TypesInfo.Uses[id].(*types.Func); ok && !isInterfaceMethod(fn) {
			return c.funcRef(fn)
		}
	}
	return value{m: Mult{Kind: Count, Value: 1, Open: true}}
}

// factor returns a site's own factor and a description of its budget.
func (c *computer) factor(s *retrysite.Site) (Mult, string) {
	if s.Exempt != "" {
		return One(), ""
	}
	var m Mult
	switch b := s.Bound; {
	case b.Kind == retrysite.BoundCount && b.N > 0:
		m = Mult{Kind: Count, Value: float64(b.N)}
	case b.Kind == retrysite.BoundTime:
		m = Mult{Kind: TimeBounded, Value: 1}
	case b.Kind == retrysite.Unbounded:
		m = Mult{Kind: Unbounded, Value: 1}
	default:
		m = Mult{Kind: UnknownCount, Value: 1}
	}
	if s.Guard == nil {
		return m, ""
	}
	ratio, desc, known := c.budgetRatio(s)
	g := Mult{Kind: Count, Value: 1 + ratio, Assumed: !known}
	if m.Kind == Count && m.Value < g.Value {
		return m, desc // a budget cannot add attempts
	}
	return g, desc
}

// DefaultRatio is the ratio of the project's budget package by default,
// and the ratio assumed for a guard whose ratio is not known.
const DefaultRatio = 0.1

// budgetRatio works out the ratio of the budget guarding a site: the
// project's budget package (budget.New, budget.NewRegistry, with or
// without a constant budget.Ratio option) when its construction is visible
// in the package, gRPC retryThrottling's tokenRatio, or else the default,
// assumed.
func (c *computer) budgetRatio(s *retrysite.Site) (ratio float64, desc string, known bool) {
	g := s.Guard
	if g.Kind == retrysite.GuardNative && g.Desc == "retryThrottling" {
		if call, ok := s.Node.(*ast.CallExpr); ok && len(call.Args) > 0 {
			if r, ok := c.tokenRatio(call.Args[0]); ok {
				return r, "retryThrottling, tokenRatio " + formatNum(r), true
			}
		}
	}
	if g.Budget != nil {
		if r, ok := c.budgetExprRatio(g.Budget, 0); ok {
			return r, "budget " + g.Desc + ", ratio " + formatNum(r), true
		}
	}
	return DefaultRatio, g.Desc + " (ratio assumed " + formatNum(DefaultRatio) + ")", false
}

// tokenRatio reads retryThrottling.tokenRatio from a constant gRPC service
// config.
func (c *computer) tokenRatio(e ast.Expr) (float64, bool) {
	tv, ok := c.pass.TypesInfo.Types[e]
	if !ok || tv.Value == nil || tv.Value.Kind() != constant.String {
		return 0, false
	}
	var sc struct {
		RetryThrottling *struct {
			TokenRatio json.Number `json:"tokenRatio"`
		} `json:"retryThrottling"`
	}
	if err := json.Unmarshal([]byte(constant.StringVal(tv.Value)), &sc); err != nil || sc.RetryThrottling == nil {
		return 0, false
	}
	r, err := sc.RetryThrottling.TokenRatio.Float64()
	if err != nil || r <= 0 {
		return 0, false
	}
	return r, true
}

// budgetExprRatio evaluates the ratio of a budget expression: a variable
// initialised with budget.New(...), or reg.For(key) where reg is a
// variable initialised with budget.NewRegistry(...) or a zero Registry.
func (c *computer) budgetExprRatio(e ast.Expr, depth int) (float64, bool) {
	if depth > 3 {
		return 0, false
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		fn, ok := typeutil.Callee(c.pass.TypesInfo, x).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != retryapi.BudgetPath {
			return 0, false
		}
		switch fn.Name() {
		case "New", "NewRegistry":
			return c.optionsRatio(x)
		case "For":
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				return c.budgetExprRatio(sel.X, depth+1)
			}
		}
		return 0, false
	case *ast.Ident, *ast.SelectorExpr:
		var obj types.Object
		if id, ok := x.(*ast.Ident); ok {
			obj = c.pass.TypesInfo.Uses[id]
		} else {
			obj = c.pass.TypesInfo.Uses[x.(*ast.SelectorExpr).Sel]
		}
		v, ok := obj.(*types.Var)
		if !ok || v.Pkg() != c.pass.Pkg {
			return 0, false
		}
		if v.IsField() {
			return c.fieldRatio(v, depth)
		}
		init, declared := c.initOf(v)
		if !declared {
			return 0, false
		}
		if init == nil {
			// var reg budget.Registry: the zero Registry uses the defaults.
			if n, ok := types.Unalias(v.Type()).(*types.Named); ok && n.Obj().Name() == "Registry" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == retryapi.BudgetPath {
				return DefaultRatio, true
			}
			return 0, false
		}
		return c.budgetExprRatio(init, depth+1)
	}
	return 0, false
}

// fieldRatio evaluates the ratio of a budget held in a struct field of
// this package: every value the package stores in the field (composite
// literals keyed by it, assignments to it) must give the same ratio.
func (c *computer) fieldRatio(field *types.Var, depth int) (float64, bool) {
	var inits []ast.Expr
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == field {
					inits = append(inits, n.Value)
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && c.pass.TypesInfo.Uses[sel.Sel] == field {
						inits = append(inits, n.Rhs[i])
					}
				}
			}
			return true
		})
	}
	if len(inits) == 0 {
		return 0, false
	}
	var ratio float64
	for i, e := range inits {
		r, ok := c.budgetExprRatio(e, depth+1)
		if !ok || i > 0 && math.Abs(r-ratio) > 1e-9 {
			return 0, false
		}
		ratio = r
	}
	return ratio, true
}

// optionsRatio reads the Ratio option of budget.New or budget.NewRegistry.
func (c *computer) optionsRatio(call *ast.CallExpr) (float64, bool) {
	if call.Ellipsis.IsValid() {
		return 0, false
	}
	ratio := DefaultRatio
	for _, a := range call.Args {
		oc, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok {
			return 0, false
		}
		fn, ok := typeutil.Callee(c.pass.TypesInfo, oc).(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != retryapi.BudgetPath {
			return 0, false
		}
		if fn.Name() != "Ratio" {
			continue
		}
		if len(oc.Args) != 1 {
			return 0, false
		}
		tv, ok := c.pass.TypesInfo.Types[oc.Args[0]]
		if !ok || tv.Value == nil {
			return 0, false
		}
		r, _ := constant.Float64Val(constant.ToFloat(tv.Value))
		if r <= 0 {
			return 0, false
		}
		ratio = r
	}
	return ratio, true
}

// initOf returns the initialiser of a variable of this package declared
// with var or :=, and whether its declaration was found. A variable that
// is assigned elsewhere has no known initialiser.
func (c *computer) initOf(v *types.Var) (ast.Expr, bool) {
	var init ast.Expr
	found, reassigned := false, false
	for _, f := range c.pass.Files {
		if v.Pos() < f.FileStart || v.Pos() >= f.FileEnd {
			if v.Parent() != c.pass.Pkg.Scope() {
				continue
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if c.pass.TypesInfo.Defs[id] != v {
						continue
					}
					found = true
					if len(n.Values) == len(n.Names) {
						init = n.Values[i]
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					id, ok := ast.Unparen(l).(*ast.Ident)
					if !ok {
						continue
					}
					if c.pass.TypesInfo.Defs[id] == v {
						found = true
						if len(n.Rhs) == len(n.Lhs) {
							init = n.Rhs[i]
						}
					} else if c.pass.TypesInfo.Uses[id] == v {
						reassigned = true
					}
				}
			}
			return true
		})
	}
	if reassigned {
		return nil, false
	}
	return init, found
}

// knowsDeadline reports whether a function knows the request's deadline:
// a context.Context or *http.Request parameter, or a deadline it sets.
func (c *computer) knowsDeadline(fd *ast.FuncDecl) bool {
	if fd == nil {
		return false
	}
	fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if typesx.IsNamed(params.At(i).Type(), "context", "Context") || typesx.IsNamedPtr(params.At(i).Type(), "net/http", "Request") {
			return true
		}
	}
	sets := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !sets {
			if f, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func); ok && f.Pkg() != nil && f.Pkg().Path() == "context" {
				switch f.Name() {
				case "WithTimeout", "WithDeadline", "WithTimeoutCause", "WithDeadlineCause":
					sets = true
				}
			}
		}
		return !sets
	})
	return sets
}

// funcName names the function declared by fd ("" for none).
func (c *computer) funcName(fd *ast.FuncDecl) string {
	if fd == nil {
		return ""
	}
	if fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
		return FuncName(fn)
	}
	return fd.Name.Name
}

// FuncName names a function as the reports do: "orders.Get",
// "orders.(*Client).Get", "orders.Client.Get".
func FuncName(fn *types.Func) string {
	pkg := ""
	if fn.Pkg() != nil {
		pkg = fn.Pkg().Name() + "."
	}
	recv := fn.Signature().Recv()
	if recv == nil {
		return pkg + fn.Name()
	}
	t, ptr := recv.Type(), false
	if p, ok := t.(*types.Pointer); ok {
		t, ptr = p.Elem(), true
	}
	name := "?"
	switch t := types.Unalias(t).(type) {
	case *types.Named:
		name = t.Obj().Name()
	case *types.Interface:
		name = "interface"
	}
	if ptr {
		return pkg + "(*" + name + ")." + fn.Name()
	}
	return pkg + name + "." + fn.Name()
}

func siteName(s *retrysite.Site) string {
	switch s.Kind {
	case retrysite.Loop:
		return "retry loop"
	case retrysite.HelperCall:
		return "retry helper " + s.API
	}
	return s.API
}

// deps returns the dependencies a site's attempts reach, once each, as
// the trusted dependency model has them (retrysite.Deps.Reached).
func (c *computer) deps(s *retrysite.Site) []retrysite.Dep {
	var out []retrysite.Dep
	for _, d := range c.model.Reached(s) {
		out = append(out, d.Portable(c.pass.Fset)) // facts carry no objects nor token.Pos
	}
	return out
}

func depNames(deps []retrysite.Dep) string {
	var names []string
	for _, d := range deps {
		names = append(names, d.Name)
	}
	return strings.Join(names, ", ")
}

// BoundText gives an attempt bound for reports: "3 attempts", "maxTries
// attempts", "time-bounded", "unbounded", or "unknown" for a count the
// retry-site analysis could not name.
func BoundText(b retrysite.Bound) string {
	switch {
	case b.Kind == retrysite.BoundCount && b.N > 0:
		return strconv.Itoa(b.N) + " attempts"
	case b.Kind == retrysite.BoundCount && strings.TrimSpace(b.Expr) != "":
		return strings.TrimSpace(b.Expr) + " attempts"
	case b.Kind == retrysite.BoundTime:
		return "time-bounded"
	case b.Kind == retrysite.Unbounded:
		return "unbounded"
	}
	return "unknown"
}

func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

// resultsError reports whether a call's result type includes an error.
func resultsError(t types.Type) bool {
	if t == nil {
		return false
	}
	if tuple, ok := t.(*types.Tuple); ok {
		for i := range tuple.Len() {
			if typesx.IsError(tuple.At(i).Type()) {
				return true
			}
		}
		return false
	}
	return typesx.IsError(t)
}

// ParsePos splits a Step position "file:line:column" into its parts.
func ParsePos(pos string) (file string, line, col int, ok bool) {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return "", 0, 0, false
	}
	j := strings.LastIndexByte(pos[:i], ':')
	if j < 0 {
		return "", 0, 0, false
	}
	line, err1 := strconv.Atoi(pos[j+1 : i])
	col, err2 := strconv.Atoi(pos[i+1:])
	if err1 != nil || err2 != nil {
		return "", 0, 0, false
	}
	return pos[:j], line, col, true
}

// Pos returns the token.Pos of a Step position in fset, when its file is
// there (in drivers that share one file set among packages), or NoPos.
func Pos(fset *token.FileSet, pos string) token.Pos {
	name, line, col, ok := ParsePos(pos)
	if !ok {
		return token.NoPos
	}
	var found token.Pos
	fset.Iterate(func(f *token.File) bool {
		if f.Name() != name {
			return true
		}
		if line >= 1 && line <= f.LineCount() {
			p := f.LineStart(line) + token.Pos(col-1)
			if int(p)-f.Base() <= f.Size() {
				found = p
			}
		}
		return false
	})
	return found
}
