// Package astx holds the small syntax walks the retry-site analysis and
// the passes share.
package astx

import (
	"go/ast"

	"golang.org/x/tools/go/ast/inspector"
)

// EnclosingFunc returns the innermost function declaration or literal
// strictly containing cur, or nil at package level.
func EnclosingFunc(cur inspector.Cursor) ast.Node {
	if fc := EnclosingFuncCursor(cur); fc.Valid() {
		return fc.Node()
	}
	return nil
}

// EnclosingFuncCursor is EnclosingFunc's cursor: that of the innermost
// function declaration or literal strictly containing cur, or the zero
// (invalid) cursor at package level.
func EnclosingFuncCursor(cur inspector.Cursor) inspector.Cursor {
	for p := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		if p != cur {
			return p
		}
	}
	return inspector.Cursor{}
}

// Within reports whether n lies within outer's source range.
func Within(n, outer ast.Node) bool {
	return n != nil && outer != nil && outer.Pos() <= n.Pos() && n.End() <= outer.End()
}

// Find returns the cursor of n within the tree under root. Unlike
// Cursor.FindNode, which visits every node before n, it descends by
// position and skips the subtrees that do not contain n, so it costs little
// even when called once per function of a large package.
func Find(root inspector.Cursor, n ast.Node) (inspector.Cursor, bool) {
	if n == nil || !n.Pos().IsValid() || n.End() < n.Pos() {
		return root.FindNode(n)
	}
	cur, ok := root.FindByPos(n.Pos(), n.End())
	for ok {
		if cur.Node() == n {
			return cur, true
		}
		if cur == root {
			break
		}
		cur = cur.Parent()
	}
	// Nodes that share their span with a sibling (rare, synthetic) fall back
	// to the linear search.
	return root.FindNode(n)
}

// FuncBody returns the body of a *ast.FuncDecl or *ast.FuncLit, or nil.
func FuncBody(fn ast.Node) *ast.BlockStmt {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Body
	case *ast.FuncLit:
		return fn.Body
	}
	return nil
}

// InspectNoLit walks n like ast.Inspect but does not descend into function
// literals. A nil node, or a nil *ast.BlockStmt (the body of nothing), is
// not walked.
func InspectNoLit(n ast.Node, f func(ast.Node) bool) {
	if n == nil {
		return
	}
	if b, ok := n.(*ast.BlockStmt); ok && b == nil {
		return
	}
	ast.Inspect(n, func(n ast.Node) bool {
		if _, ok := n.(*ast.FuncLit); ok {
			return false
		}
		return f(n)
	})
}
