// Package astx holds the small syntax walks the retry-site analysis and
// the passes share.
package astx

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"iter"
	"slices"

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

// Finder finds the cursors of nodes of one inspector, as Find does from
// its root, without scanning a file's declarations before the one that
// holds the node: it keeps the declarations' cursors sorted by position.
type Finder struct {
	root  inspector.Cursor
	decls []inspector.Cursor // the files' declarations, by position
}

// NewFinder returns a Finder for the nodes of insp.
func NewFinder(insp *inspector.Inspector) *Finder {
	f := &Finder{root: insp.Root()}
	for file := range f.root.Children() {
		for d := range file.Children() {
			if _, ok := d.Node().(ast.Decl); ok {
				f.decls = append(f.decls, d)
			}
		}
	}
	slices.SortStableFunc(f.decls, func(a, b inspector.Cursor) int { return cmp.Compare(a.Node().Pos(), b.Node().Pos()) })
	return f
}

// Find returns the cursor of n, as Find(insp.Root(), n) does.
func (f *Finder) Find(n ast.Node) (inspector.Cursor, bool) {
	if n == nil || !n.Pos().IsValid() || n.End() < n.Pos() {
		return Find(f.root, n)
	}
	i, _ := slices.BinarySearchFunc(f.decls, n.Pos(), func(c inspector.Cursor, p token.Pos) int {
		if c.Node().End() <= p {
			return -1
		}
		if c.Node().Pos() > p {
			return 1
		}
		return 0
	})
	if i < len(f.decls) && f.decls[i].Node().Pos() <= n.Pos() && n.End() <= f.decls[i].Node().End() {
		if cur, ok := Find(f.decls[i], n); ok {
			return cur, true
		}
	}
	return Find(f.root, n)
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

// FuncType returns the type of a *ast.FuncDecl or *ast.FuncLit, or nil.
func FuncType(fn ast.Node) *ast.FuncType {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Type
	case *ast.FuncLit:
		return fn.Type
	}
	return nil
}

// DeclaresParam reports whether v is a parameter that fn (a
// *ast.FuncDecl or *ast.FuncLit) declares.
func DeclaresParam(info *types.Info, fn ast.Node, v *types.Var) bool {
	ft := FuncType(fn)
	if ft == nil || ft.Params == nil {
		return false
	}
	for _, fld := range ft.Params.List {
		for _, n := range fld.Names {
			if info.Defs[n] == v {
				return true
			}
		}
	}
	return false
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

// Fields yields the fields a composite literal sets by name (T{Name:
// value}), in order; elements without a key are skipped.
func Fields(lit *ast.CompositeLit) iter.Seq2[string, ast.Expr] {
	return func(yield func(string, ast.Expr) bool) {
		for _, elt := range lit.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				continue
			}
			if k, ok := kv.Key.(*ast.Ident); ok && !yield(k.Name, kv.Value) {
				return
			}
		}
	}
}

// Field returns the value a composite literal gives the named field, or
// nil.
func Field(lit *ast.CompositeLit, name string) ast.Expr {
	for k, v := range Fields(lit) {
		if k == name {
			return v
		}
	}
	return nil
}

// RootIdent returns the identifier at the root of a selection, an index or
// a dereference (cfg in cfg.Request.Body, in *p.n, in m[k].v), or nil.
func RootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Ident:
			return x
		case *ast.SelectorExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
