// Package retrysite defines the shared analysis that finds retry sites: the
// places where one logical operation can be attempted more than once. It
// reports nothing; every retrylint pass Requires it and judges its result.
//
// A retry site is one of
//   - a hand-written retry loop (see Definition);
//   - a call or configuration of a retry library: an API the retryapi
//     table lists (Site.Entry), read by the table's data and its named
//     evaluators, which library.go registers. A client that retries what
//     is sent through it (go-retryablehttp) is a site at each send the
//     package makes through a client it configures (Site.Client), and at
//     its configuration only when no send reaches it (clients.go);
//   - a call of a retry helper of the user's own code: a function that
//     retries a call of one of its function parameters, known through a
//     HelperFact, also across packages; or a function literal that does,
//     held by a local variable given no other value (exec := func(run
//     func() (bool, error)) error { for ... }), whose calls are the
//     helper's calls (Site.Holder; no fact: no other package calls it);
//   - a call of a poll helper (HelperFact.Poll) whose condition answers
//     (false, nil) after a failure (if err != nil { return false, nil }):
//     a function that calls its condition parameter (done bool, err
//     error), or one it hands the condition to, in a loop that leaves
//     when done holds and waits before going round (a copy of k8s's
//     wait.ExponentialBackoff). The helper's loop is no retry loop (its
//     condition says it is not done yet, not that it failed); only such
//     calls are retries, as for the library's own wait functions.
//
// Facts (helpers, budget checks, polarities, sleep helpers, waits) count
// between the packages of one module, and between the main modules of a
// run (a go.work's), never from the standard library or another module a
// package requires (internal/factscope): only so does a package get the
// same findings whatever else is analyzed, in every driver. Each package
// carries its module as a ModuleFact; Sites.ReadsFacts answers for the
// passes that keep facts of their own.
//
// For each site it records the attempt bound, the backoff, the budget guard
// if any, the code run once per attempt (Site.PerAttempt), and the
// dependency each attempt targets (Dep: a host, a package, a variable, a
// field; a method call's is its receiver's, and a receiver built by a
// chain of one-result method calls, kv.Txn(ctx).If(cmp).Commit(), is the
// chain's first receiver's; a call of a function value, s.open() for a
// field of func type, is the field's or variable's in the trusted model);
// for loops, Loop says what the definition found (the
// attempt, the kinds of failure that reach the next attempt, where the
// failing paths meet, the guards). Sites.Deps refines the dependencies
// into the ones the passes trust: sharedbudget groups by them and
// fixedattempts names its budgets after them, so the two agree. The audit
// groups sites by Deps.Reached, which goes one step further (an attempt
// through a parameter or receiver of a type of the package is keyed by
// that type) and says of a helper's loop that it reaches its callers'
// dependencies (Deps.Passed).
//
// The definition of a retry loop is internal/retryloop's: its package doc
// states it, and its Definer decides it for this analysis, which answers
// the questions it asks of the rest of the package (Host).
package retrysite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"

	"github.com/retrylint/retrylint/internal/flagx"
	"github.com/retrylint/retrylint/internal/noreturn"
	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/varindex"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryapi"
)

// Analyzer finds the retry sites of a package; its result is a *Sites. Its
// settings are bound to its flags (-retrysite.budget-methods, ...); use New
// for an analyzer with settings of its own.
var Analyzer = newFlagged()

// DefaultBudgetMethods lists the method names that ask a retry budget by
// default.
const DefaultBudgetMethods = "TryWithdraw,Withdraw,TryTake,Take,TryAcquire,TryRetry,AllowRetry,CanRetry,Allow,Spend"

// Config holds the settings of the retry-site analysis.
type Config struct {
	// BudgetMethods are method names that ask a retry budget (on a named
	// type, with a bool or error result).
	BudgetMethods []string
	// BudgetFuncs are extra budget checks, as import/path.Func or
	// import/path.Type.Method.
	BudgetFuncs []string
}

// DefaultConfig returns the default settings.
func DefaultConfig() *Config {
	return &Config{BudgetMethods: strings.Split(DefaultBudgetMethods, ",")}
}

// New returns a retry-site analyzer that reads its settings from cfg when
// it runs. Each call returns a distinct analyzer (for drivers that build
// analyzers from settings, such as the golangci-lint plugin); passes find
// its result with Of.
func New(cfg *Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:       "retrysite",
		Doc:        "find retry loops, retry-library calls and calls of retry helpers",
		URL:        "https://pkg.go.dev/github.com/retrylint/retrylint/internal/retrysite",
		Requires:   []*analysis.Analyzer{inspect.Analyzer},
		ResultType: reflect.TypeFor[*Sites](),
		FactTypes:  []analysis.Fact{new(HelperFact), new(GuardFact), new(DelayFact), new(SleepFact), new(PolarityFact), new(ModuleFact)},
		Run:        func(pass *analysis.Pass) (any, error) { return run(pass, cfg) },
	}
}

func newFlagged() *analysis.Analyzer {
	cfg := DefaultConfig()
	a := New(cfg)
	a.Flags.Var(&flagx.List{Names: &cfg.BudgetMethods, Check: flagx.NoSpaces}, "budget-methods",
		"comma-separated method names that ask a retry budget (a method of a named type with a bool or error result)")
	a.Flags.Var(&flagx.List{Names: &cfg.BudgetFuncs, Check: flagx.NoSpaces}, "budget-funcs",
		"comma-separated extra budget checks, as import/path.Func or import/path.Type.Method")
	return a
}

// Of returns the retry sites the pass's required retry-site analyzer
// found, or nil when the pass does not require one.
func Of(pass *analysis.Pass) *Sites {
	for _, r := range pass.ResultOf {
		if s, ok := r.(*Sites); ok {
			return s
		}
	}
	return nil
}

// Kind says what made a place a retry site.
type Kind uint8

const (
	Loop       Kind = iota + 1 // a hand-written retry loop: Node is *ast.ForStmt or *ast.RangeStmt
	Library                    // a retry library call or configuration: Node is *ast.CallExpr or a configuration's *ast.CompositeLit
	HelperCall                 // a call of a user retry helper (HelperFact): Node is *ast.CallExpr
)

func (k Kind) String() string {
	switch k {
	case Loop:
		return "loop"
	case Library:
		return "library"
	case HelperCall:
		return "helper"
	}
	return "unknown"
}

// The vocabulary of bounds and backoffs is the retry-API table's, so that
// a library site's defaults and a loop's findings are one type.
type (
	BoundKind = retryapi.BoundKind
	Bound     = retryapi.Bound
	Delay     = retryapi.Delay
	Backoff   = retryapi.Backoff
)

const (
	BoundUnknown = retryapi.BoundUnknown
	BoundCount   = retryapi.BoundCount
	BoundTime    = retryapi.BoundTime
	Unbounded    = retryapi.Unbounded

	NoDelay      = retryapi.NoDelay
	FixedDelay   = retryapi.FixedDelay
	GrowingDelay = retryapi.GrowingDelay
	SomeDelay    = retryapi.SomeDelay
)

// GuardKind classifies a budget guard.
type GuardKind uint8

const (
	GuardMethod  GuardKind = iota + 1 // a withdrawal method on a named type (budget.TryRetry, ...)
	GuardLimiter                      // golang.org/x/time/rate.Limiter
	GuardBreaker                      // a circuit breaker wrapping the attempt
	GuardFunc                         // a function known, through a GuardFact, to check a budget
	GuardNative                       // a library's own retry budget (gRPC retryThrottling, ...)
	GuardHelper                       // a retry helper whose retries are guarded (HelperFact)
	GuardListed                       // a check named by -retrysite.budget-funcs
)

// String names the kind as reports do.
func (k GuardKind) String() string {
	switch k {
	case GuardMethod:
		return "method"
	case GuardLimiter:
		return "limiter"
	case GuardBreaker:
		return "breaker"
	case GuardFunc, GuardListed:
		return "func"
	case GuardNative:
		return "native"
	case GuardHelper:
		return "helper"
	}
	return "unknown"
}

// Guard is the budget check that guards a site's retries.
type Guard struct {
	Kind   GuardKind
	Call   *ast.CallExpr // the call that asks the budget; nil for GuardNative
	Budget ast.Expr      // the budget object (receiver or argument); nil if none
	Desc   string        // what guards, for messages: "b.TryRetry", "retryThrottling"
}

// Dep identifies the dependency an attempt targets: one typed model that
// every pass and the audit use (see deps.go for how it is found, and Deps
// for the dependency the passes trust).
type Dep struct {
	Kind DepKind
	// Obj is what the dependency is, for DepFunc the function called, for
	// DepVar and DepLocal the variable, for DepField the field, for
	// DepType the parameter; nil for DepHost and for a Dep read from a
	// fact.
	Obj  types.Object
	Key  string // identity: equal keys mean the same dependency; "" when unknown
	Name string // a short human name: "inventory", "api.example.com", "orders"
}

// DepKind says what identifies a dependency.
type DepKind uint8

const (
	DepUnknown DepKind = iota
	DepHost            // the host of an HTTP request's URL (a constant, or the string in a field or variable)
	DepFunc            // the package of a package-level function: "pkg:example.com/orders"
	DepVar             // a package-level variable
	DepLocal           // a local variable or a parameter
	DepField           // a field of a named type: the same field of the same type is one dependency
	DepType            // a parameter or receiver of a concrete type of the package, keyed by the type (Deps.ForBudget only)
)

// String returns the kind as the audit prints it: host, pkg, var (a
// package-level or local variable), field, type, or other.
func (k DepKind) String() string {
	switch k {
	case DepHost:
		return "host"
	case DepFunc:
		return "pkg"
	case DepVar, DepLocal:
		return "var"
	case DepField:
		return "field"
	case DepType:
		return "type"
	}
	return "other"
}

// Attempt is a call made once per attempt.
type Attempt struct {
	Call *ast.CallExpr
	Dep  Dep
}

// Site is one retry site.
type Site struct {
	Kind Kind
	Node ast.Node  // *ast.ForStmt, *ast.RangeStmt, *ast.CallExpr, or a library configuration's *ast.CompositeLit
	Pos  token.Pos // where a diagnostic about the site goes: the for keyword or the call
	Func ast.Node  // the enclosing *ast.FuncDecl or *ast.FuncLit; nil at package level
	API  string    // library sites: the entry point, e.g. "backoff.Retry"; helper calls: the helper's name
	// Entry is the retryapi table's entry of a library site's API; nil
	// for other sites.
	Entry   *retryapi.Entry
	Bound   Bound
	Backoff Backoff
	// BackoffAt is where the code sets a library site's backoff (the
	// constructor, the option, the literal, the field assignment, or the
	// call when the library's default stands and nothing can change it),
	// and BackoffNote says what it is, in words; nil and "" when the code
	// does not say, or for other sites.
	BackoffAt   ast.Node
	BackoffNote string
	Guard       *Guard // nil when no budget guards the retries
	// Exempt, when not empty, says why the site is no outage risk (a
	// retry of optimistic-concurrency conflicts only, or a condition that
	// admits no transient failure); passes that judge load skip it.
	Exempt string
	// Body is the loop body, or the body of the operation's function
	// literal; nil when the operation is not a literal in this package.
	// What runs once per attempt is PerAttempt: Body and the local
	// closures it calls.
	Body       *ast.BlockStmt
	perAttempt []*ast.BlockStmt
	// Op is the operation argument of a library or helper call, nil for loops.
	Op ast.Expr
	// Attempts are the calls made once per attempt whose dependency is of
	// interest (error-returning calls outside the standard library's pure
	// packages), in source order.
	Attempts []Attempt
	// Loop is what the definition found, for loop sites; nil for others.
	Loop *retryloop.Loop
	// LoopGuards are the budget checks of Loop.Guards, in its order.
	LoopGuards []*Guard
	// Helper is the HelperFact of a call of a retry helper, and of the
	// site that makes its function a helper; nil for other sites.
	Helper *HelperFact
	// Holder, when the helper is a function literal, is the local
	// variable that holds it (exec := func(run func() error) error {...}),
	// whose calls are the helper's calls.
	Holder types.Object
	// Calls, for the site that makes its function a retry helper, are the
	// helper's calls in this package (callers in other packages see the
	// helper through its fact).
	Calls []*Site
	// Client, for a send through a client the package configures (a
	// go-retryablehttp client's Do), is the site of the client's
	// configuration: the send makes the attempts it allows, and a fix
	// edits it. nil for other sites.
	Client *Site
	// Kept, for a library site whose constructor's result the function
	// keeps (c := retryablehttp.NewClient(), a := &api{hc:
	// retryablehttp.NewClient()}), is the variable or field it is kept
	// in (c, a.hc), which the code after sets the client's fields
	// through; nil otherwise. It may be an expression built for the
	// purpose, with no position.
	Kept ast.Expr
	// Config is what a configuration fix edits: the service-config string
	// literal (gRPC) or the ratelimit.None expression (AWS SDK); nil otherwise.
	Config ast.Expr
}

// Sites holds the retry sites of one package, in source order.
type Sites struct {
	List []*Site

	methods, funcs map[string]bool // the settings the guards were recognised with

	pass     *analysis.Pass
	a        *analyzer // the analysis, for the answers its users ask after it ran
	depsOnce sync.Once
	deps     *Deps
}

// HelperFact marks a function that retries a call of one of its function
// parameters: calling it is a retry site.
type HelperFact struct {
	Op     int   // index of the parameter whose calls are retried
	Budget int   // index of a parameter that guards the retries, -1 if none
	Bound  Bound // the helper's attempt bound; Bound.Param names the parameter that counts, if one does
	Guard  bool  // the helper's retries are guarded by a budget
	Exempt bool  // the helper retries only concurrency conflicts
	// Backoff is the wait the helper makes between attempts: a call of
	// the helper waits as its retry site does.
	Backoff Backoff
	// Poll says the helper calls its condition (Op, answering (done
	// bool, err error)) again after a wait while it answers (false, nil),
	// as k8s's wait.ExponentialBackoff does: a poll, which retries only
	// the calls whose condition answers so after a failure.
	Poll bool
}

func (*HelperFact) AFact() {}

func (f *HelperFact) String() string {
	s := fmt.Sprintf("retryHelper(op=%d, %s", f.Op, f.Bound)
	if f.Bound.Param != "" {
		s += fmt.Sprintf(" of parameter %d", f.Bound.ParamIndex)
	}
	if f.Guard {
		s += ", guarded"
	}
	if f.Budget >= 0 {
		s += fmt.Sprintf(", budget=%d", f.Budget)
	}
	if f.Exempt {
		s += ", conflicts only"
	}
	if f.Poll {
		s += ", poll"
	}
	if f.Backoff.Delay != NoDelay || f.Backoff.Jitter {
		s += ", " + f.Backoff.String()
	}
	return s + ")"
}

// DelayFact describes a function with one numeric result, for the
// durations of other packages (durkind): Random says that a random source
// contributes to the result (math/rand, math/rand/v2, crypto/rand, or a
// function with a Random fact); a function returning a time.Duration
// gets the fact with Random false when its result is a deterministic
// function of its arguments and receiver. The backoff of a loop and the
// nojitter pass read it.
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

// DelayOf says what a function of another package returns, by its
// DelayFact: durkind.Random or durkind.Fixed; ok is false without one.
func (s *Sites) DelayOf(fn *types.Func) (k durkind.Kind, ok bool) {
	var f DelayFact
	if s.pass == nil || !s.ReadsFacts(fn.Pkg()) || !s.pass.ImportObjectFact(fn, &f) {
		return durkind.Unknown, false
	}
	if f.Random {
		return durkind.Random, true
	}
	return durkind.Fixed, true
}

// GuardFact marks a function whose result carries a budget's verdict: it
// calls a budget check and returns a bool or an error.
type GuardFact struct{}

func (*GuardFact) AFact()         {}
func (*GuardFact) String() string { return "budgetCheck" }

func run(pass *analysis.Pass, cfg *Config) (any, error) {
	sc := newScope(pass)
	if len(pass.Files) == 0 {
		a := &analyzer{pass: pass, scope: sc, methods: toSet(cfg.BudgetMethods), funcs: toSet(cfg.BudgetFuncs)}
		a.vars = varindex.New(pass.TypesInfo, pass.Files, nil)
		return &Sites{methods: a.methods, funcs: a.funcs, pass: pass, a: a}, nil
	}
	insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
	a := &analyzer{pass: pass, scope: sc, insp: insp, methods: toSet(cfg.BudgetMethods), funcs: toSet(cfg.BudgetFuncs),
		guardFuncs: make(map[*types.Func]bool), helperFuncs: make(map[*types.Func]*HelperFact)}
	for _, f := range pass.AllObjectFacts() {
		fn, ok := f.Object.(*types.Func)
		if !ok || !sc.Reads(fn.Pkg()) {
			continue
		}
		switch fact := f.Fact.(type) {
		case *GuardFact:
			a.guardFuncs[fn] = true
		case *HelperFact:
			a.helperFuncs[fn] = fact
		}
	}
	a.vars = varindex.New(pass.TypesInfo, pass.Files, a.insp)
	a.indexDecls()
	a.noret = noreturn.New(pass.TypesInfo, pass.Pkg, pass.Files)
	a.definer = retryloop.New(pass, loopHost{a}, a.durEnv())
	a.sleepers = newSleepers(a)
	a.sleepers.export()
	a.exportPolarityFacts()
	a.exportGuardFacts()
	a.exportDelayFacts()
	a.findLoops()
	a.findLibrary()
	a.findSends()
	a.findHelpers()
	a.sortSites()
	a.fillPerAttempt()
	return &Sites{List: a.sites, methods: a.methods, funcs: a.funcs, pass: pass, a: a}, nil
}

func toSet(names []string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// Vars returns what the package does with each of its variables and
// fields (internal/varindex): the index the analysis read them with.
func (s *Sites) Vars() *varindex.Index { return s.a.vars }

// PolarityFact marks a boolean function of one error or response whose
// body says what it holds for: Holds is -1 for success (a nil error, a
// 2xx status), +1 for a failure status. The retry-loop definition reads
// it for a predicate of the attempt's outcome, before its name.
type PolarityFact struct {
	Holds int
}

func (*PolarityFact) AFact() {}

func (f *PolarityFact) String() string {
	if f.Holds < 0 {
		return "holds(success)"
	}
	return "holds(failure)"
}

// exportPolarityFacts exports a PolarityFact for every boolean function
// of the package whose body says what it holds for.
func (a *analyzer) exportPolarityFacts() {
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil {
				continue
			}
			fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			if !ok || fn.Signature().Params().Len() != 1 || fn.Signature().Results().Len() != 1 {
				continue
			}
			if p := a.definer.Polarity(fn); p != 0 {
				a.pass.ExportObjectFact(fn, &PolarityFact{Holds: p})
			}
		}
	}
}
