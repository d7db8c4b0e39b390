package blindsleep

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/retrysite"
)

// fix turns a blind wait into a select that also watches the context: a
// sleep or a bare receive becomes
//
//	select {
//	case <-ctx.Done():
//		return <zero values>, ctx.Err()
//	case <-time.After(d):
//	}
//
// and a select of timers gets the ctx.Done() case. It needs the context's
// name to resolve where the wait is, and results the return can fill: none,
// or an error last with zero values for the others.
func (c *checker) fix(s *retrysite.Site, w wait, p *inherit.Param) *analysis.SuggestedFix {
	if w.stmt == nil && w.sel == nil {
		return nil
	}
	file := fixutil.FileOf(c.pass, w.at.Pos())
	if file == nil {
		return nil
	}
	ctx := c.ctxAt(s, p, w.at.Pos())
	if ctx == "" {
		return nil
	}
	ret := c.cancelReturn(s.Func, ctx)
	if ret == "" {
		return nil
	}
	if w.sel != nil {
		if len(w.sel.Body.List) == 0 {
			return nil
		}
		first := w.sel.Body.List[0]
		indent := fixutil.Indent(c.pass, file, first.Pos())
		text := "case <-" + ctx + ".Done():\n" + indent + "\t" + ret + "\n" + indent
		return &analysis.SuggestedFix{
			Message:   "Watch " + ctx + " in the select",
			TextEdits: []analysis.TextEdit{{Pos: first.Pos(), End: first.Pos(), NewText: []byte(text)}},
		}
	}
	cur, ok := astx.Find(c.insp.Root(), w.stmt)
	if !ok {
		return nil
	}
	switch cur.ParentEdgeKind() {
	case edge.BlockStmt_List, edge.CaseClause_Body, edge.CommClause_Body:
	default:
		return nil
	}
	// The wait's operand (time.After(d), timer.C, or the duration of a
	// sleep) is kept as it is: nojitter's fix edits the duration, and the
	// two edits stay apart, so that every driver applies both.
	indent := fixutil.Indent(c.pass, file, w.stmt.Pos())
	var keep ast.Expr
	var open, close string
	switch w.cat {
	case catSleep:
		call, ok := w.at.(*ast.CallExpr)
		if !ok || len(call.Args) != 1 || call.Ellipsis.IsValid() || call.End() != w.stmt.End() {
			return nil
		}
		prefix := ""
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
			prefix = c.src(sel.X) + "."
		}
		// A dot import names After without a qualifier; either way After
		// must denote time.After where the wait is.
		if !c.resolvesToTimeAfter(file, prefix, call.Pos()) {
			return nil
		}
		keep, open, close = call.Args[0], "case <-"+prefix+"After(", "):"
	case catRecv:
		if w.recv == nil || w.recv.End() > w.stmt.End() {
			return nil
		}
		keep, open, close = w.recv, "case <-", ":"
	default:
		return nil
	}
	head := []string{
		"select {",
		"case <-" + ctx + ".Done():",
		"\t" + ret,
		open,
	}
	return &analysis.SuggestedFix{
		Message: "Wait in a select that returns when " + ctx + " is done",
		TextEdits: []analysis.TextEdit{
			{Pos: w.stmt.Pos(), End: keep.Pos(), NewText: []byte(strings.Join(head, "\n"+indent))},
			{Pos: keep.End(), End: w.stmt.End(), NewText: []byte(close + "\n" + indent + "}")},
		},
	}
}

// resolvesToTimeAfter reports whether prefix+"After" names time.After at
// pos.
func (c *checker) resolvesToTimeAfter(file *ast.File, prefix string, pos token.Pos) bool {
	scope := c.pass.TypesInfo.Scopes[file]
	if scope == nil {
		return false
	}
	inner := scope.Innermost(pos)
	if prefix == "" {
		_, obj := inner.LookupParent("After", pos)
		fn, ok := obj.(*types.Func)
		return ok && fn.Pkg() != nil && fn.Pkg().Path() == "time"
	}
	_, obj := inner.LookupParent(strings.TrimSuffix(prefix, "."), pos)
	pn, ok := obj.(*types.PkgName)
	return ok && pn.Imported().Path() == "time"
}

// ctxAt returns the expression for the inherited context at pos: the
// parameter, when its name still denotes it there, or a context derived
// from it (ctx, cancel := context.WithTimeout(ctx, d)) under the same
// name; "" when the name denotes something else.
func (c *checker) ctxAt(s *retrysite.Site, p *inherit.Param, pos token.Pos) string {
	if !p.Named() || p.Var == nil {
		return ""
	}
	file := fixutil.FileOf(c.pass, pos)
	scope := c.pass.TypesInfo.Scopes[file]
	if scope == nil {
		return ""
	}
	_, obj := scope.Innermost(pos).LookupParent(p.Ident.Name, pos)
	if obj == p.Var {
		return p.Expr()
	}
	v, ok := obj.(*types.Var)
	if !ok || p.Kind != inherit.Context || !inherit.IsContext(v.Type()) || !c.derived(s.Func, v) {
		return ""
	}
	return v.Name()
}

// derived reports whether every value fn assigns to v comes from a
// context.With... call whose parent is a variable (the inherited context,
// or one derived from it).
func (c *checker) derived(fn ast.Node, v *types.Var) bool {
	n := 0
	ok := true
	astx.InspectNoLit(astx.FuncBody(fn), func(x ast.Node) bool {
		as, isAssign := x.(*ast.AssignStmt)
		if !isAssign || !ok {
			return ok
		}
		for i, l := range as.Lhs {
			id, isID := ast.Unparen(l).(*ast.Ident)
			if !isID || c.pass.TypesInfo.ObjectOf(id) != v {
				continue
			}
			n++
			if i != 0 || len(as.Rhs) != 1 {
				ok = false
				break
			}
			call, isCall := ast.Unparen(as.Rhs[0]).(*ast.CallExpr)
			fn := (*types.Func)(nil)
			if isCall {
				fn = c.callee(call)
			}
			if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "context" || !strings.HasPrefix(fn.Name(), "With") || len(call.Args) == 0 {
				ok = false
				break
			}
			if _, isID := ast.Unparen(call.Args[0]).(*ast.Ident); !isID {
				ok = false
			}
		}
		return ok
	})
	return ok && n > 0
}

// cancelReturn returns the statement that leaves fn when the context is
// done: a bare return, or zero values and the context's error.
func (c *checker) cancelReturn(fn ast.Node, ctx string) string {
	var sig *types.Signature
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		if obj, ok := c.pass.TypesInfo.Defs[fn.Name].(*types.Func); ok {
			sig = obj.Signature()
		}
	case *ast.FuncLit:
		sig, _ = c.pass.TypesInfo.TypeOf(fn).(*types.Signature)
	}
	if sig == nil {
		return ""
	}
	res := sig.Results()
	if res.Len() == 0 {
		return "return"
	}
	if !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return ""
	}
	var parts []string
	for i := 0; i < res.Len()-1; i++ {
		z := fixutil.ZeroValue(res.At(i).Type(), c.pass.Pkg)
		if z == "" {
			return ""
		}
		parts = append(parts, z)
	}
	parts = append(parts, ctx+".Err()")
	return "return " + strings.Join(parts, ", ")
}

// src returns the source text of n.
func (c *checker) src(n ast.Node) string { return fixutil.Source(c.pass, n) }
