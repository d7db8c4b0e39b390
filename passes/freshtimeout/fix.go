package freshtimeout

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"go/version"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
)

// fixes returns the suggested fixes for a reported call: derive from the
// inherited context, and, where the file's Go version has it, detach
// explicitly with context.WithoutCancel. It returns none when a fix could
// not compile: the inherited parameter is unnamed, shadowed at the call,
// or named _ with no free name to give it; or the edit would leave a
// variable or an import unused.
func (c *checker) fixes(cur inspector.Cursor, call *ast.CallExpr, rt *root, inh *inheritance, noun string) []analysis.SuggestedFix {
	var file *ast.File
	for fc := range cur.Enclosing((*ast.File)(nil)) {
		file = fc.Node().(*ast.File)
	}
	if file == nil {
		return nil
	}
	if importsC(file) || inh.ident == nil || inh.param == nil || rt.edit == nil {
		return nil
	}

	// The name of the inherited parameter, valid at the call.
	name := inh.ident.Name
	var rename []analysis.TextEdit
	if name == "_" {
		name = inh.kind.freshName()
		if !c.canRename(inh, name, call.Pos()) {
			return nil
		}
		rename = []analysis.TextEdit{{Pos: inh.ident.Pos(), End: inh.ident.End(), NewText: []byte(name)}}
	} else if c.lookup(name, call.Pos()) != types.Object(inh.param) {
		return nil // shadowed at the call
	}
	inhExpr := inh.kind.expr(name)

	// What the edit at the argument removes, and what must go with it.
	var extra []analysis.TextEdit
	var removed []ast.Node
	switch {
	case rt.variable == nil:
		removed = append(removed, rt.edit)
	case rt.pkgVar:
		// A package variable may stay unused.
	case rt.reads > rt.argReads:
		// A read that no fix replaces keeps the variable used, also when
		// the fixes of several calls are applied together.
	case rt.reads == 1:
		// The argument is the variable's only use: delete its
		// declaration too, or the package would not compile.
		if rt.declStmt == nil {
			return nil
		}
		del, ok := c.deleteStmt(rt.declStmt)
		if !ok {
			return nil
		}
		extra = append(extra, del)
		removed = append(removed, rt.declStmt)
	default:
		// Every read is the parent of a timeout call: the fixes applied
		// together would leave the variable unused, one alone would not.
		return nil
	}
	if !c.importsSurvive(call, removed) {
		return nil
	}

	mk := func(msg, text string) analysis.SuggestedFix {
		edits := []analysis.TextEdit{{Pos: rt.edit.Pos(), End: rt.edit.End(), NewText: []byte(text)}}
		edits = append(edits, extra...)
		edits = append(edits, rename...)
		return analysis.SuggestedFix{Message: msg, TextEdits: edits}
	}
	fixes := []analysis.SuggestedFix{mk(fmt.Sprintf("Derive the %s from %s", noun, inhExpr), inhExpr)}
	if prefix, ok := c.withoutCancel(file, call); ok {
		fixes = append(fixes, mk("Detach explicitly with context.WithoutCancel("+inhExpr+")",
			prefix+"WithoutCancel("+inhExpr+")"))
	}
	return fixes
}

// lookup returns the object that name denotes at pos, or nil.
func (c *checker) lookup(name string, pos token.Pos) types.Object {
	s := c.pass.Pkg.Scope().Innermost(pos)
	if s == nil {
		return nil
	}
	_, obj := s.LookupParent(name, pos)
	return obj
}

// canRename reports whether the parameter _ of inh can be renamed to
// name so that name denotes it at pos, without changing what any other
// use of name in the function denotes.
func (c *checker) canRename(inh *inheritance, name string, pos token.Pos) bool {
	fnScope := c.pass.TypesInfo.Scopes[inh.ftype]
	if fnScope == nil || fnScope.Lookup(name) != nil {
		return false // a parameter, result or top-level local has the name
	}
	// No enclosing declaration whose uses inside the function the new
	// name would capture.
	if _, obj := fnScope.Parent().LookupParent(name, inh.fn.Pos()); obj != nil {
		return false
	}
	// No declaration between the function and the call would shadow it.
	for s := c.pass.Pkg.Scope().Innermost(pos); s != nil && s != fnScope; s = s.Parent() {
		if s.Lookup(name) != nil {
			return false
		}
	}
	return true
}

// withoutCancel returns the qualifier under which context.WithoutCancel
// can be written at call, if the file's Go version has it.
func (c *checker) withoutCancel(file *ast.File, call *ast.CallExpr) (string, bool) {
	if !hasWithoutCancel(c.pass.TypesInfo.FileVersions[file]) {
		return "", false
	}
	wc := c.ctxPkg.Scope().Lookup("WithoutCancel")
	if wc == nil {
		return "", false
	}
	switch fun := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		// The package name used by the call itself resolves there.
		if id, ok := fun.X.(*ast.Ident); ok {
			if pn, ok := c.pass.TypesInfo.Uses[id].(*types.PkgName); ok && pn.Imported() == c.ctxPkg {
				return id.Name + ".", true
			}
		}
	case *ast.Ident:
		// A dot import.
		if c.lookup("WithoutCancel", call.Pos()) == wc {
			return "", true
		}
	}
	return "", false
}

// hasWithoutCancel reports whether a file of Go version v may call
// context.WithoutCancel. An unknown version (no go.mod, as in GOPATH
// mode) means the toolchain's own, which has it.
func hasWithoutCancel(v string) bool {
	if !version.IsValid(v) {
		return true
	}
	return version.Compare(v, minWithoutCancel) >= 0
}

// deleteStmt returns an edit that deletes the statement s with its
// lines, when s stands alone on them.
func (c *checker) deleteStmt(s ast.Stmt) (analysis.TextEdit, bool) {
	tf := c.pass.Fset.File(s.Pos())
	if tf == nil || c.pass.ReadFile == nil {
		return analysis.TextEdit{}, false
	}
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil || tf.Size() != len(src) {
		return analysis.TextEdit{}, false
	}
	start, end := tf.Offset(s.Pos()), tf.Offset(s.End())
	lineStart := start
	for lineStart > 0 && (src[lineStart-1] == ' ' || src[lineStart-1] == '\t') {
		lineStart--
	}
	if lineStart > 0 && src[lineStart-1] != '\n' {
		return analysis.TextEdit{}, false
	}
	lineEnd := end
	for lineEnd < len(src) && (src[lineEnd] == ' ' || src[lineEnd] == '\t' || src[lineEnd] == '\r') {
		lineEnd++
	}
	if lineEnd < len(src) {
		if src[lineEnd] != '\n' {
			return analysis.TextEdit{}, false
		}
		lineEnd++
	}
	if bytes.ContainsAny(src[start:end], "\n") && bytes.Contains(src[start:end], []byte("//")) {
		return analysis.TextEdit{}, false // a comment inside: keep it simple
	}
	return analysis.TextEdit{Pos: tf.Pos(lineStart), End: tf.Pos(lineEnd)}, true
}

// importsSurvive reports whether every import used within the removed
// nodes stays used. Only the import that the call itself goes through is
// sure to: another could lose its last use when the fixes of several
// calls are applied together.
func (c *checker) importsSurvive(call *ast.CallExpr, removed []ast.Node) bool {
	info := c.pass.TypesInfo
	var keep *types.PkgName
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
		if id, ok := sel.X.(*ast.Ident); ok {
			keep, _ = info.Uses[id].(*types.PkgName)
		}
	}
	ok := true
	for _, n := range removed {
		ast.Inspect(n, func(n ast.Node) bool {
			if id, isIdent := n.(*ast.Ident); isIdent {
				if pn, isPkg := info.Uses[id].(*types.PkgName); isPkg && pn != keep {
					ok = false
				}
			}
			return ok
		})
	}
	return ok
}

// importsC reports whether file is a cgo file, whose positions do not
// map back to the source the user edits.
func importsC(file *ast.File) bool {
	for _, imp := range file.Imports {
		if imp.Path.Value == `"C"` {
			return true
		}
	}
	return false
}
