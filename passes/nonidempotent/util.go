package nonidempotent

import (
	"go/ast"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// callee returns the function or method a call invokes (for an interface
// method, the abstract method), or nil.
func (c *checker) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	return fn
}

func arg(call *ast.CallExpr, i int) ast.Expr {
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// objOf returns the object an identifier or selector denotes.
func (c *checker) objOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return c.pass.TypesInfo.ObjectOf(e)
	case *ast.SelectorExpr:
		return c.pass.TypesInfo.ObjectOf(e.Sel)
	}
	return nil
}

// varOf returns the variable an identifier declares or denotes, or nil
// for the blank identifier and anything else.
func (c *checker) varOf(e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || id.Name == "_" {
		return nil
	}
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	if !ok {
		return nil
	}
	return v
}

// isLocal reports whether v is a local variable (or parameter).
func isLocal(v types.Object) bool {
	vv, ok := v.(*types.Var)
	return ok && !vv.IsField() && vv.Pkg() != nil && vv.Parent() != vv.Pkg().Scope()
}

// uses reports whether n refers to obj.
func (c *checker) uses(n ast.Node, obj types.Object) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && c.pass.TypesInfo.Uses[id] == obj {
			found = true
		}
		return !found
	})
	return found
}

// localLit returns the function literal a local variable named by e was
// initialised with, or nil.
func (c *checker) localLit(e ast.Expr) *ast.FuncLit {
	if lit, ok := ast.Unparen(e).(*ast.FuncLit); ok {
		return lit
	}
	v := c.varOf(e)
	if v == nil || !isLocal(v) {
		return nil
	}
	vals := c.values().vals[v]
	if len(vals) != 1 {
		return nil
	}
	lit, _ := ast.Unparen(vals[0]).(*ast.FuncLit)
	return lit
}
