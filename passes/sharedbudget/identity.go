package sharedbudget

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/retryapi"
)

func isPkgVar(v *types.Var) bool {
	return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// bkind says what a budget object is.
type bkind uint8

const (
	bVar   bkind = iota + 1 // a package-level variable
	bField                  // a struct field (one budget per field of a type)
	bEntry                  // a registry or map entry taken with a constant key
	bParam                  // a parameter of a function with no caller in the package
	bLocal                  // a local variable of a caller, made by a constructor, passed to a function
	bMade                   // a constructor call passed to a function
)

// budgetID identifies one budget object.
type budgetID struct {
	kind bkind
	obj  *types.Var // the variable, field or parameter; for entries, the registry's; nil for bMade
	key  string     // entries: the constant key, exactly; bMade: the call's position
	name string     // for messages: defaultBudget, Service.budget, reg.For("default")
	reg  bool       // entries: taken from the budget package's Registry
	node ast.Expr   // bMade: the constructor call
}

// idKey is the map key of a budget identity.
type idKey struct {
	obj   *types.Var
	entry bool
	key   string
}

func (id budgetID) mapKey() idKey {
	return idKey{id.obj, id.kind == bEntry || id.kind == bMade, id.key}
}

// budgetOf identifies the budget an expression denotes: a package
// variable, a field (the same field of the same type is one budget), or a
// registry or map entry with a constant key. A local variable stands for
// its initialiser when it is never reassigned. Parameters, values built
// in place, and entries whose key varies (reg.For(host)) have no identity
// here: ok is false.
func (c *checker) budgetOf(e ast.Expr, depth int) (budgetID, bool) {
	if depth > 5 {
		return budgetID{}, false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return c.budgetOf(x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.budgetOf(x.X, depth+1)
		}
	case *ast.Ident:
		v, ok := c.info.Uses[x].(*types.Var)
		if !ok {
			return budgetID{}, false
		}
		if isPkgVar(v) {
			return budgetID{kind: bVar, obj: v, name: c.varName(v)}, true
		}
		if def := c.deps.ConstLocal(v); def != nil {
			return c.budgetOf(def, depth+1)
		}
	case *ast.SelectorExpr:
		if sel, ok := c.info.Selections[x]; ok {
			f, isVar := sel.Obj().(*types.Var)
			if sel.Kind() != types.FieldVal || !isVar {
				return budgetID{}, false
			}
			return budgetID{kind: bField, obj: f.Origin(), name: fieldName(sel.Recv(), f, c.pass.Pkg)}, true
		}
		if v, ok := c.info.Uses[x.Sel].(*types.Var); ok && isPkgVar(v) {
			return budgetID{kind: bVar, obj: v, name: c.varName(v)}, true
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok || len(x.Args) != 1 {
			return budgetID{}, false
		}
		fn, _ := typeutil.Callee(c.info, x).(*types.Func)
		reg := isRegistryMethod(fn)
		if fn == nil || !reg && !lookupMethods[fn.Name()] || recvOf(fn) == nil {
			return budgetID{}, false
		}
		return c.entryOf(sel.X, x.Args[0], sel.Sel.Name, reg, depth)
	case *ast.IndexExpr:
		t := c.info.TypeOf(x.X)
		if t == nil {
			return budgetID{}, false
		}
		switch t.Underlying().(type) {
		case *types.Map, *types.Slice, *types.Array, *types.Pointer:
			return c.entryOf(x.X, x.Index, "", false, depth)
		}
	}
	return budgetID{}, false
}

// entryOf identifies reg.For(key) (method non-empty) or m[key].
func (c *checker) entryOf(recv, key ast.Expr, method string, reg bool, depth int) (budgetID, bool) {
	r, ok := c.budgetOf(recv, depth+1)
	if !ok || r.kind == bEntry {
		return budgetID{}, false
	}
	tv, ok := c.info.Types[key]
	if !ok || tv.Value == nil {
		return budgetID{}, false // the key varies: per-dependency
	}
	k := tv.Value.ExactString()
	if tv.Value.Kind() == constant.String {
		k = constant.StringVal(tv.Value)
	}
	name := r.name + "[" + tv.Value.ExactString() + "]"
	if method != "" {
		name = r.name + "." + method + "(" + tv.Value.ExactString() + ")"
	}
	return budgetID{kind: bEntry, obj: r.obj, key: k, name: name, reg: reg}, true
}

// lookupMethods are the method names that take a budget out of a
// registry by key.
var lookupMethods = map[string]bool{"For": true, "Get": true, "Lookup": true}

// isRegistryMethod reports whether fn is a method of the budget package's
// Registry.
func isRegistryMethod(fn *types.Func) bool {
	n := recvOf(fn)
	return n != nil && n.Obj().Name() == "Registry" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == retryapi.BudgetPath
}

// recvOf returns the named type of fn's receiver, or nil.
func recvOf(fn *types.Func) *types.Named {
	if fn == nil {
		return nil
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// varName names a package variable as the package refers to it.
func (c *checker) varName(v *types.Var) string {
	if v.Pkg() != c.pass.Pkg {
		return v.Pkg().Name() + "." + v.Name()
	}
	return v.Name()
}

// fieldName names a field with its owner type: Service.budget.
func fieldName(recv types.Type, f *types.Var, pkg *types.Package) string {
	t := recv
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		name := n.Obj().Name()
		if n.Obj().Pkg() != nil && n.Obj().Pkg() != pkg {
			name = n.Obj().Pkg().Name() + "." + name
		}
		return name + "." + f.Name()
	}
	return f.Name()
}
