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
	"github.com/retrylint/retrylint/internal/suppress"
)

//go:embed doc.go
var doc string

// Analyzer reports context timeouts and deadlines whose parent is a fresh
// root although the enclosing function inherited a context.
var Analyzer = New()

// New returns a fresh freshtimeout analyzer; the pass has no settings.
func New() *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "freshtimeout",
		Doc:      docsection.Must(doc, "freshtimeout"),
		URL:      "https://pkg.go.dev/github.com/retrylint/retrylint/passes/freshtimeout",
		Requires: []*analysis.Analyzer{inspect.Analyzer, suppress.Analyzer},
		Run:      run,
	}
}

// Diagnostic categories.
const (
	// categoryFreshRoot: the parent is context.Background() or
	// context.TODO() written at the call.
	categoryFreshRoot = "fresh_root"
	// categoryFreshRootVar: the parent is a local variable that only
	// ever holds context.Background() or context.TODO().
	categoryFreshRootVar = "fresh_root_variable"
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

func run(pass *analysis.Pass) (any, error) {
	ctxPkg := importedContext(pass.Pkg)
	if ctxPkg == nil {
		return nil, nil // no call of the context package is possible
	}
	c := &checker{
		pass:   pass,
		ctxPkg: ctxPkg,
		insp:   pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
	}
	if obj, ok := ctxPkg.Scope().Lookup("Context").(*types.TypeName); ok {
		if iface, ok := obj.Type().Underlying().(*types.Interface); ok {
			c.ctxIface = iface
		}
	}
	if c.ctxIface == nil {
		return nil, nil
	}
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
	ctxPkg   *types.Package
	ctxIface *types.Interface
	insp     *inspector.Inspector

	// param, while a call is judged, is the inherited parameter: a
	// branch where it is nil, or where work given it has failed, is
	// treated like one where it is done.
	param *types.Var
}

// checkCall reports the call at cur if it is a context.With{Timeout,Deadline}
// call whose parent is a fresh root inside a function that inherited a
// context that is not known to be done.
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
	rt := c.rootOf(argCur)
	if rt == nil {
		return
	}
	inh := c.inherited(cur)
	if inh == nil {
		return
	}
	c.param = inh.param
	done := c.knownDone(cur, inh.fn)
	c.param = nil
	if done || c.handedOff(cur) {
		return
	}

	via := ""
	category := categoryFreshRoot
	if rt.variable != nil {
		via = " through " + rt.variable.Name()
		category = categoryFreshRootVar
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
	if rt.variable != nil && rt.declIdent != nil {
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

// A root describes a fresh root context that a call uses as its parent.
type root struct {
	name     string     // "context.Background", "context.TODO", or both joined by "or"
	arg      ast.Expr   // the argument at the call
	variable *types.Var // the local variable the root came through, or nil

	// For a variable: its declaring identifier, the statement that
	// declares it when that statement could be deleted (a lone
	// "v := root()" or "var v = root()"), how many times it is read, and
	// how many of those reads are the parent argument of a context.With…
	// timeout call (which fixes may replace).
	declIdent *ast.Ident
	declStmt  ast.Stmt
	reads     int
	argReads  int
}

// rootOf returns the fresh root that the argument at cur is, directly or
// through a local variable that only ever holds fresh roots, or nil.
func (c *checker) rootOf(cur inspector.Cursor) *root {
	info := c.pass.TypesInfo
	arg := cur.Node().(ast.Expr)
	if name, ok := isRootCall(info, arg); ok {
		return &root{name: name, arg: arg}
	}
	id, ok := ast.Unparen(arg).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() != c.pass.Pkg || v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
		return nil
	}
	decl := topDecl(cur)
	if !decl.Valid() {
		return nil
	}
	return c.varRoot(decl, v, arg)
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

// varRoot decides whether every value ever stored in the local variable v
// (declared within decl) is a fresh root, looking at every definition,
// assignment and use of v.
func (c *checker) varRoot(decl inspector.Cursor, v *types.Var, arg ast.Expr) *root {
	info := c.pass.TypesInfo
	names := map[string]bool{}
	rt := &root{arg: arg, variable: v}
	stores := 0 // definitions and assignments
	reads := 0
	argReads := 0
	for cur := range decl.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] == v {
			stores++
			rhs, stmt, ok := storedValue(cur)
			if !ok {
				return nil
			}
			if rhs != nil {
				name, ok := isRootCall(info, rhs)
				if !ok {
					return nil
				}
				names[name] = true
			}
			rt.declIdent = id
			rt.declStmt = stmt
			continue
		}
		if info.Uses[id] != v {
			continue
		}
		if kind, _ := cur.ParentEdge(); kind == edge.AssignStmt_Lhs {
			stores++
			rhs, _, ok := storedValue(cur)
			if !ok || rhs == nil {
				return nil
			}
			name, ok := isRootCall(info, rhs)
			if !ok {
				return nil
			}
			names[name] = true
			continue
		}
		// A read. The address of v, or v as a range variable, lets anything
		// be stored in it.
		p := cur.Parent()
		for {
			if _, ok := p.Node().(*ast.ParenExpr); !ok {
				break
			}
			p = p.Parent()
		}
		if u, ok := p.Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			return nil
		}
		if kind, _ := cur.ParentEdge(); kind == edge.RangeStmt_Key || kind == edge.RangeStmt_Value {
			return nil
		}
		reads++
		if kind, idx := cur.ParentEdge(); kind == edge.CallExpr_Args && idx == 0 {
			if fn := contextFunc(info, cur.Parent().Node().(*ast.CallExpr)); fn != nil && timeoutFuncs[fn.Name()] != "" {
				argReads++
			}
		}
	}
	if len(names) == 0 || rt.declIdent == nil {
		return nil
	}
	switch {
	case names["context.Background"] && names["context.TODO"]:
		rt.name = "context.Background or context.TODO"
	case names["context.TODO"]:
		rt.name = "context.TODO"
	default:
		rt.name = "context.Background"
	}
	rt.reads, rt.argReads = reads, argReads
	if stores != 1 {
		rt.declStmt = nil
	}
	return rt
}

// storedValue returns, for the identifier at cur on the left of an
// assignment or in a var spec, the expression stored into it (nil for a
// var spec without values), and the enclosing statement when it is a
// single-name, single-value declaration statement. ok is false when the
// stored value cannot be told (a tuple assignment, a range clause, a
// parameter, a type switch).
func storedValue(cur inspector.Cursor) (rhs ast.Expr, stmt ast.Stmt, ok bool) {
	kind, idx := cur.ParentEdge()
	switch kind {
	case edge.AssignStmt_Lhs:
		as := cur.Parent().Node().(*ast.AssignStmt)
		if as.Tok != token.ASSIGN && as.Tok != token.DEFINE {
			return nil, nil, false
		}
		if len(as.Lhs) != len(as.Rhs) {
			return nil, nil, false
		}
		if len(as.Lhs) == 1 && as.Tok == token.DEFINE && isListElem(cur.Parent()) {
			stmt = as
		}
		return as.Rhs[idx], stmt, true
	case edge.ValueSpec_Names:
		spec := cur.Parent().Node().(*ast.ValueSpec)
		if len(spec.Values) == 0 {
			return nil, nil, true
		}
		if len(spec.Values) != len(spec.Names) {
			return nil, nil, false
		}
		gen := cur.Parent().Parent()
		if gd, ok := gen.Node().(*ast.GenDecl); ok && len(gd.Specs) == 1 && len(spec.Names) == 1 {
			if ds, ok := gen.Parent().Node().(*ast.DeclStmt); ok && isListElem(gen.Parent()) {
				stmt = ds
			}
		}
		return spec.Values[idx], stmt, true
	}
	return nil, nil, false
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
