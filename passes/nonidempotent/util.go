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
