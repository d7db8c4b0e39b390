package freshtimeout

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

	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/noreturn"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports context timeouts and deadlines whose parent is a fresh
// root although the enclosing function inherited a context.
var Analyzer = New(retrysite.Analyzer)

// New returns a fresh freshtimeout analyzer that reads, from the retry-site
// analyzer site, whose handoff facts a package reads
// (internal/factscope); the pass has no settings.
func New(site *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      "freshtimeout",
		Doc:       docsection.Must(doc, "freshtimeout"),
		URL:       "https://pkg.go.dev/github.com/retrylint/retrylint/passes/freshtimeout",
		Requires:  []*analysis.Analyzer{inspect.Analyzer, site, suppress.Analyzer},
		FactTypes: []analysis.Fact{new(handoffFact)},
		Run:       run,
	}
}

// Diagnostic categories.
const (
	// categoryFreshRoot: the parent is context.Background() or
	// context.TODO() written at the call, possibly wrapped by
	// context.WithValue or WithCancel.
	categoryFreshRoot = "fresh_root"
	// categoryFreshRootVar: the parent is a variable that only ever
	// holds a fresh root (a local or an unexported package variable).
	categoryFreshRootVar = "fresh_root_variable"
	// categoryReassigned: the parent is the inherited context parameter
	// itself, reassigned to a fresh root.
	categoryReassigned = "fresh_root_reassigned"
)

// minWithoutCancel is the first Go version whose context package has
// WithoutCancel.
const minWithoutCancel = "go1.21"

// timeoutFuncs are the context functions whose first argument is the
// parent of a context with a deadline.
var timeoutFuncs = map[string]string{
	"WithTimeout":       "timeout",
	"WithTimeoutCause":  "timeout",
	"WithDeadline":      "deadline",
	"WithDeadlineCause": "deadline",
}

// wrapperFuncs are the context functions that derive a context with no
// deadline of its own from their first argument: a fresh root wrapped by
// one is still a fresh root.
var wrapperFuncs = map[string]bool{
	"WithValue":       true,
	"WithCancel":      true,
	"WithCancelCause": true,
	"WithoutCancel":   true,
}

// cancelFuncs are the context functions whose first result can be done
// on its own, before its parent is: a child context derived with one.
var cancelFuncs = map[string]bool{
	"WithCancel":        true,
	"WithCancelCause":   true,
	"WithTimeout":       true,
	"WithTimeoutCause":  true,
	"WithDeadline":      true,
	"WithDeadlineCause": true,
}

func run(pass *analysis.Pass) (any, error) {
	facts := retrysite.Of(pass)
	ctxPkg := importedContext(pass.Pkg)
	if ctxPkg == nil {
		return nil, nil // no context is declared, passed or called here
	}
	c := &checker{
		pass:       pass,
		facts:      facts,
		ctxPkg:     ctxPkg,
		insp:       pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		flows:      map[ast.Node]*flow{},
		stableVars: map[*types.Var]bool{},
		pkgRoots:   map[*types.Var]*root{},
		handoffs:   map[*types.Func]*handoffFact{},
		noret:      noreturn.New(pass.TypesInfo, pass.Pkg, pass.Files),
	}
	if obj, ok := ctxPkg.Scope().Lookup("Context").(*types.TypeName); ok {
		if iface, ok := obj.Type().Underlying().(*types.Interface); ok {
			c.ctxIface = iface
			c.ctxType = obj.Type()
		}
	}
	if c.ctxIface == nil {
		return nil, nil
	}
	c.exportHandoffs()
	for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		c.checkCall(cur)
	}
	return nil, nil
}

// importedContext returns the context package if pkg imports it directly.
func importedContext(pkg *types.Package) *types.Package {
	for _, imp := range pkg.Imports() {
		if imp.Path() == "context" {
			return imp
		}
	}
	return nil
}

type checker struct {
	pass     *analysis.Pass
	facts    *retrysite.Sites // whose facts the package reads
	ctxPkg   *types.Package
	ctxIface *types.Interface
	ctxType  types.Type
	insp     *inspector.Inspector

	flows      map[ast.Node]*flow               // by function, nil for none
	noret      *noreturn.Index                  // which calls can return
	stableVars map[*types.Var]bool              // see stable
	pkgRoots   map[*types.Var]*root             // package variables that hold a fresh root, nil for none
	handoffs   map[*types.Func]*handoffFact     // this package's functions, nil for none (or being computed)
	decls      map[*types.Func]inspector.Cursor // this package's function declarations with bodies

	// param, while a call is judged, is the inherited parameter: a
	// branch where it is nil is treated like one where it is done.
	param *types.Var
	// decl is the file-level declaration around the call being judged.
	decl inspector.Cursor
}

// checkCall reports the call at cur if it is a context.With{Timeout,Deadline}
// call whose parent is a fresh root inside a function that inherited a
// context, unless one of the exemptions of the package doc holds.
func (c *checker) checkCall(cur inspector.Cursor) {
	call := cur.Node().(*ast.CallExpr)
	fn := contextFunc(c.pass.TypesInfo, call)
	if fn == nil || len(call.Args) == 0 {
		return
	}
	noun, ok := timeoutFuncs[fn.Name()]
	if !ok {
		return
	}
	argCur, ok := cur.FindNode(call.Args[0])
	if !ok {
		return
	}
	c.decl = topDecl(cur)
	if !c.decl.Valid() {
		return
	}
	rt := c.rootOf(argCur)
	if rt == nil {
		return
	}
	inh := c.inherited(cur)
	if inh == nil {
		return
	}
	c.param = inh.param
	defer func() { c.param = nil }()
	if c.knownDone(cur, inh.fn) || c.handedOff(cur) || c.deferredOnly(cur) || c.cleansUpFailure(cur, inh) {
		return
	}

	via := ""
	category := categoryFreshRoot
	switch {
	case rt.reassigned:
		via = " through reassigned " + rt.variable.Name()
		category = categoryReassigned
	case rt.variable != nil:
		via = " through " + rt.variable.Name()
		category = categoryFreshRootVar
	case rt.wrap != "":
		via = " through " + rt.wrap
	}
	diag := analysis.Diagnostic{
		Pos:      call.Pos(),
		End:      call.End(),
		Category: category,
		Message: fmt.Sprintf("context.%s starts from %s%s, discarding the deadline inherited from %s",
			fn.Name(), rt.name, via, inh.describe()),
	}
	diag.Related = append(diag.Related, analysis.RelatedInformation{
		Pos:     inh.at.Pos(),
		End:     inh.at.End(),
		Message: inh.label() + " inherited here",
	})
	switch {
	case rt.reassigned:
		for _, at := range rt.stores {
			diag.Related = append(diag.Related, analysis.RelatedInformation{
				Pos:     at.Pos(),
				End:     at.End(),
				Message: rt.variable.Name() + " reassigned to " + rt.name + " here",
			})
		}
	case rt.variable != nil && rt.declIdent != nil:
		diag.Related = append(diag.Related, analysis.RelatedInformation{
			Pos:     rt.declIdent.Pos(),
			End:     rt.declIdent.End(),
			Message: rt.variable.Name() + " holds " + rt.name,
		})
	}
	diag.SuggestedFixes = c.fixes(cur, call, rt, inh, noun)
	suppress.Report(c.pass, diag)
}

// contextFunc returns the package-level function of package context that
// call calls, or nil.
func contextFunc(info *types.Info, call *ast.CallExpr) *types.Func {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "context" {
		return nil
	}
	if sig, ok := fn.Type().(*types.Signature); !ok || sig.Recv() != nil {
		return nil
	}
	return fn
}

// isRootCall reports whether e is a call of context.Background or
// context.TODO, and which.
func isRootCall(info *types.Info, e ast.Expr) (string, bool) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return "", false
	}
	fn := contextFunc(info, call)
	if fn == nil || (fn.Name() != "Background" && fn.Name() != "TODO") {
		return "", false
	}
	return "context." + fn.Name(), true
}

// topDecl returns the file-level declaration enclosing cur.
func topDecl(cur inspector.Cursor) inspector.Cursor {
	for c := range cur.Enclosing() {
		if _, ok := c.Parent().Node().(*ast.File); ok {
			return c
		}
	}
	return inspector.Cursor{}
}

// find returns the cursor of the node n, which lies in the declaration
// being judged or, failing that, anywhere in the package.
func (c *checker) find(n ast.Node) (inspector.Cursor, bool) {
	if c.decl.Valid() {
		if cur, ok := c.decl.FindNode(n); ok {
			return cur, true
		}
	}
	return c.insp.Root().FindNode(n)
}

// storedValue returns, for the identifier at cur on the left of an
// assignment or in a var spec, the expression stored into it (nil for a
// var spec without values), and the enclosing statement when it is a
// single-name, single-value declaration statement. For a tuple
// assignment from one call, rhs is the call and tuple is the index of
// the result (else -1). ok is false when the stored value cannot be
// told (an op=, a range clause, a parameter, a type switch).
func storedValue(cur inspector.Cursor) (rhs ast.Expr, tuple int, stmt ast.Stmt, ok bool) {
	kind, idx := cur.ParentEdge()
	switch kind {
	case edge.AssignStmt_Lhs:
		as := cur.Parent().Node().(*ast.AssignStmt)
		if as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
			return nil, -1, nil, false
		}
		if len(as.Rhs) == 1 && len(as.Lhs) > 1 {
			return as.Rhs[0], idx, nil, true
		}
		if len(as.Lhs) != len(as.Rhs) {
			return nil, -1, nil, false
		}
		if len(as.Lhs) == 1 && as.Tok == token.DEFINE && isListElem(cur.Parent()) {
			stmt = as
		}
		return as.Rhs[idx], -1, stmt, true
	case edge.ValueSpec_Names:
		spec := cur.Parent().Node().(*ast.ValueSpec)
		if len(spec.Values) == 0 {
			return nil, -1, nil, true
		}
		if len(spec.Values) == 1 && len(spec.Names) > 1 {
			return spec.Values[0], idx, nil, true
		}
		if len(spec.Values) != len(spec.Names) {
			return nil, -1, nil, false
		}
		gen := cur.Parent().Parent()
		if gd, ok := gen.Node().(*ast.GenDecl); ok && len(gd.Specs) == 1 && len(spec.Names) == 1 {
			if ds, ok := gen.Parent().Node().(*ast.DeclStmt); ok && isListElem(gen.Parent()) {
				stmt = ds
			}
		}
		return spec.Values[idx], -1, stmt, true
	}
	return nil, -1, nil, false
}

// isListElem reports whether the statement at cur is an element of a
// statement list (a block or a case body), so that it can be deleted.
func isListElem(cur inspector.Cursor) bool {
	switch cur.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
		return true
	}
	return false
}
