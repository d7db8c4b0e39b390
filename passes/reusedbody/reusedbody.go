package reusedbody

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"

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

// Analyzer reports requests with a body sent again on every attempt, over
// the flag-bound retry-site analyzer.
var Analyzer = New(retrysite.Analyzer)

// New returns the pass requiring the retry-site analyzer site
// (retrysite.Analyzer, or one made by retrysite.New); it has no settings.
func New(site *analysis.Analyzer) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:     "reusedbody",
		Doc:      docsection.Must(doc, "reusedbody"),
		URL:      "https://pkg.go.dev/github.com/retrylint/retrylint/passes/reusedbody",
		Requires: []*analysis.Analyzer{site, inspect.Analyzer, suppress.Analyzer},
		Run:      run,
	}
}

// category of the diagnostics.
const category = "reused_body"

type checker struct {
	pass *analysis.Pass
	insp *inspector.Inspector
	done map[token.Pos]bool
}

func run(pass *analysis.Pass) (any, error) {
	if !importsHTTP(pass.Pkg) {
		return nil, nil
	}
	c := &checker{
		pass: pass,
		insp: pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		done: map[token.Pos]bool{},
	}
	for _, s := range retrysite.Of(pass).List {
		if s.Body == nil || s.Exempt != "" {
			continue
		}
		c.checkSite(s)
	}
	return nil, nil
}

// importsHTTP reports whether pkg imports net/http: without it no request
// is built or sent.
func importsHTTP(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if p.Path() == "net/http" {
			return true
		}
	}
	return false
}

// region is the code a site runs once per attempt, and the node outside
// which a request must be built to be reused.
type region struct {
	site  *retrysite.Site
	body  *ast.BlockStmt // the code run per attempt
	outer ast.Node       // the loop statement, or the operation literal
	fn    ast.Node       // the function declaration that holds it all
}

func (c *checker) checkSite(s *retrysite.Site) {
	rg := region{site: s, body: s.Body, outer: s.Node, fn: c.outerFunc(s)}
	if s.Kind != retrysite.Loop {
		cur, ok := astx.Find(c.insp.Root(), s.Body)
		if !ok {
			return
		}
		lit, ok := cur.Parent().Node().(*ast.FuncLit)
		if !ok {
			return
		}
		rg.outer = lit
	}
	if rg.fn == nil {
		return
	}
	astx.InspectNoLit(s.Body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.GoStmt, *ast.DeferStmt:
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || !c.isSend(call) {
			return true
		}
		c.checkSend(rg, call)
		return true
	})
}

// outerFunc returns the function declaration (or package-level literal)
// around a site.
func (c *checker) outerFunc(s *retrysite.Site) ast.Node {
	cur, ok := astx.Find(c.insp.Root(), s.Node)
	if !ok {
		return nil
	}
	var outer ast.Node
	for p := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		outer = p.Node()
	}
	return outer
}

// isSend reports whether call sends an *http.Request: a method Do or
// RoundTrip taking one and returning a response, of *http.Client,
// *http.Transport or an interface (http.RoundTripper, a Doer). A concrete
// type of other code may replay bodies itself.
func (c *checker) isSend(call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || (fn.Name() != "Do" && fn.Name() != "RoundTrip") || len(call.Args) != 1 {
		return false
	}
	sig := fn.Signature()
	if sig.Recv() == nil || sig.Params().Len() != 1 || !isRequestPtr(sig.Params().At(0).Type()) {
		return false
	}
	if sig.Results().Len() != 2 || !typesx.IsNamedPtr(sig.Results().At(0).Type(), "net/http", "Response") {
		return false
	}
	return typesx.PkgPath(fn) == "net/http" || types.IsInterface(sig.Recv().Type())
}

func isRequestPtr(t types.Type) bool { return typesx.IsNamedPtr(t, "net/http", "Request") }

// checkSend judges the request a send in a site's per-attempt code sends.
func (c *checker) checkSend(rg region, send *ast.CallExpr) {
	req, aliases := c.requestVar(send.Args[0], rg)
	if req == nil {
		return
	}
	// Every value the variable holds is built outside the attempts, by
	// http.NewRequest[WithContext]; the one with a body is reported.
	var built *ast.CallExpr
	var stmt ast.Stmt
	for _, a := range c.assignsOf(req, rg.fn) {
		if astx.Within(a.stmt, rg.outer) {
			return // rebuilt per attempt
		}
		call := c.construction(a.rhs)
		if call == nil {
			return // a request from code the pass does not follow
		}
		if built == nil && c.hasBody(bodyArg(call), rg) {
			built, stmt = call, a.stmt
		}
	}
	if built == nil || c.done[built.Pos()] {
		return
	}
	for _, v := range append(aliases, req) {
		if c.resets(rg, c.usesOf(v, rg.fn)) {
			return
		}
	}
	if c.bodyTouched(bodyArg(built), rg) {
		return
	}
	c.done[built.Pos()] = true
	where := "retry loop"
	if rg.site.Kind != retrysite.Loop {
		where = rg.site.API + " operation"
	}
	msg := fmt.Sprintf("%s is built once with a body and sent on every attempt of the %s: the first send consumes the body, so a retry sends it empty or fails; build the request in each attempt", req.Name(), where)
	d := analysis.Diagnostic{
		Pos: built.Pos(), End: built.End(), Category: category, Message: msg,
		Related: []analysis.RelatedInformation{{Pos: send.Pos(), End: send.End(), Message: "sent again here on each attempt"}},
	}
	if fix := c.fix(rg, req, built, stmt); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	suppress.Report(c.pass, d)
}

// requestVar returns the local variable whose request x sends: x itself,
// or the request it copies with WithContext or Clone, in place or through
// a variable set once in the attempt (returned among aliases).
func (c *checker) requestVar(x ast.Expr, rg region) (req *types.Var, aliases []*types.Var) {
	for depth := 0; depth < 4; depth++ {
		x = ast.Unparen(x)
		if call, ok := x.(*ast.CallExpr); ok {
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "WithContext" && sel.Sel.Name != "Clone") || !isRequestPtr(c.pass.TypesInfo.TypeOf(sel.X)) {
				return nil, nil
			}
			x = sel.X
			continue
		}
		id, ok := x.(*ast.Ident)
		if !ok {
			return nil, nil
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || v.IsField() {
			return nil, nil
		}
		// r := req.WithContext(ctx) in the attempt: follow to req.
		as := c.assignsOf(v, rg.fn)
		if len(as) == 1 && astx.Within(as[0].stmt, rg.outer) {
			if call, ok := ast.Unparen(as[0].rhs).(*ast.CallExpr); ok && c.construction(call) == nil {
				aliases = append(aliases, v)
				x = call
				continue
			}
		}
		return v, aliases
	}
	return nil, nil
}

// assignment is one value given to a variable.
type assignment struct {
	stmt ast.Stmt
	rhs  ast.Expr // nil when the value is one result of several, or none
}

// assignsOf returns every assignment to v in fn, in source order.
func (c *checker) assignsOf(v *types.Var, fn ast.Node) []assignment {
	var out []assignment
	ast.Inspect(astx.FuncBody(fn), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				if id, ok := ast.Unparen(l).(*ast.Ident); ok && c.pass.TypesInfo.ObjectOf(id) == v {
					var rhs ast.Expr
					switch {
					case len(n.Lhs) == len(n.Rhs):
						rhs = n.Rhs[i]
					case len(n.Rhs) == 1 && i == 0:
						rhs = n.Rhs[0] // req, err := http.NewRequest(...)
					}
					out = append(out, assignment{stmt: n, rhs: rhs})
				}
			}
		case *ast.DeclStmt:
			gd, ok := n.Decl.(*ast.GenDecl)
			if !ok {
				return true
			}
			for _, spec := range gd.Specs {
				vs, ok := spec.(*ast.ValueSpec)
				if !ok {
					continue
				}
				for i, name := range vs.Names {
					if c.pass.TypesInfo.Defs[name] != v {
						continue
					}
					var rhs ast.Expr
					switch {
					case len(vs.Values) == len(vs.Names):
						rhs = vs.Values[i]
					case len(vs.Values) == 1 && i == 0:
						rhs = vs.Values[0]
					case len(vs.Values) == 0:
						continue // var req *http.Request: nil until assigned
					}
					out = append(out, assignment{stmt: n, rhs: rhs})
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
					out = append(out, assignment{stmt: nil}) // set through a pointer: unknown
				}
			}
		}
		return true
	})
	return out
}

// construction returns the http.NewRequest or http.NewRequestWithContext
// call x is, or nil.
func (c *checker) construction(x ast.Expr) *ast.CallExpr {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return nil
	}
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || typesx.PkgPath(fn) != "net/http" || typesx.RecvName(fn) != "" {
		return nil
	}
	switch {
	case fn.Name() == "NewRequest" && len(call.Args) == 3, fn.Name() == "NewRequestWithContext" && len(call.Args) == 4:
		return call
	}
	return nil
}

func bodyArg(call *ast.CallExpr) ast.Expr { return call.Args[len(call.Args)-1] }

// readerFuncs build a reader over data; the reader is empty once read.
var readerFuncs = map[string]bool{
	"bytes.NewReader": true, "bytes.NewBuffer": true, "bytes.NewBufferString": true, "strings.NewReader": true,
}

// hasBody reports whether a request's body expression is known to be a
// body that one send consumes: a reader over data, or a variable holding
// one. nil, http.NoBody and readers over constant empty data are no body;
// what the pass cannot see is not reported.
func (c *checker) hasBody(x ast.Expr, rg region) bool {
	x = ast.Unparen(x)
	switch e := x.(type) {
	case *ast.CallExpr:
		name := c.funcName(e)
		if !readerFuncs[name] && name != "io.NopCloser" && name != "io.MultiReader" && name != "io.LimitReader" {
			return false
		}
		if readerFuncs[name] && len(e.Args) == 1 {
			if tv, ok := c.pass.TypesInfo.Types[e.Args[0]]; ok && (tv.IsNil() || tv.Value != nil && tv.Value.String() == `""`) {
				return false // bytes.NewReader(nil), strings.NewReader(""): NoBody
			}
			return true
		}
		for _, a := range e.Args {
			if c.hasBody(a, rg) {
				return true
			}
		}
		return false
	case *ast.UnaryExpr:
		// &buf, a bytes.Buffer filled before.
		if e.Op != token.AND {
			return false
		}
		id, ok := ast.Unparen(e.X).(*ast.Ident)
		if !ok {
			return false
		}
		t := c.pass.TypesInfo.TypeOf(id)
		n, ok := types.Unalias(t).(*types.Named)
		return ok && n.Obj().Name() == "Buffer" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "bytes"
	case *ast.Ident:
		v, ok := c.pass.TypesInfo.Uses[e].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
			return false
		}
		as := c.assignsOf(v, rg.fn)
		if len(as) == 0 {
			return false
		}
		for _, a := range as {
			if a.stmt == nil || a.rhs == nil || !c.hasBody(a.rhs, rg) {
				return false
			}
		}
		return true
	}
	return false
}

// funcName returns "pkg.Func" for a call of a package-level function.
func (c *checker) funcName(call *ast.CallExpr) string {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil || typesx.RecvName(fn) != "" {
		return ""
	}
	return typesx.PkgPath(fn) + "." + fn.Name()
}

// resets reports whether the attempts may give the request a new body (or
// may do anything the pass cannot see to it): req.Body = ..., a call of
// req.GetBody, or the request handed to a call other than its sends and
// the methods that only read it.
func (c *checker) resets(rg region, uses []*ast.Ident) bool {
	for _, id := range uses {
		if !astx.Within(id, rg.outer) {
			continue
		}
		cur, ok := astx.Find(c.insp.Root(), id)
		if !ok {
			return true
		}
		p := cur.Parent()
		for {
			if _, ok := p.Node().(*ast.ParenExpr); !ok {
				break
			}
			p = p.Parent()
		}
		switch pn := p.Node().(type) {
		case *ast.SelectorExpr:
			switch pn.Sel.Name {
			case "Body", "GetBody":
				// req.Body = ..., req.GetBody(): a new body; reading
				// req.Body (to close it, say) the pass cannot tell apart.
				return true
			}
			continue // req.Header.Set, req.URL, req.Context(), req.WithContext(ctx)
		case *ast.CallExpr:
			if c.isSend(pn) {
				continue
			}
			return true // handed to code that may reset it
		default:
			return true // stored, sent on, reassigned
		}
	}
	return false
}

// bodyTouched reports whether the attempts use the variable the body is
// read from (a reader rewound with Seek, or refilled).
func (c *checker) bodyTouched(x ast.Expr, rg region) bool {
	touched := false
	ast.Inspect(x, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok || touched {
			return !touched
		}
		v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
		if !ok || !isReader(v.Type()) {
			return true
		}
		for _, u := range c.usesOf(v, rg.fn) {
			if astx.Within(u, rg.outer) {
				touched = true
			}
		}
		return true
	})
	return touched
}

// isReader reports whether t has a Read method: a reader, a buffer.
func isReader(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Read")
	_, ok := obj.(*types.Func)
	return ok
}

// usesOf returns the identifiers that use v in fn.
func (c *checker) usesOf(v *types.Var, fn ast.Node) []*ast.Ident {
	var out []*ast.Ident
	ast.Inspect(astx.FuncBody(fn), func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == v {
			out = append(out, id)
		}
		return true
	})
	return out
}
