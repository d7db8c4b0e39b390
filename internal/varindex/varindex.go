// Package varindex records, once per package, what the package does with
// each of its variables and fields: the value that initialises it, every
// value stored to it, the fields set on it and the methods called on it,
// and whether it changes in other ways (x++, x += d, a range clause) or
// has its address taken. It is the one answer to "what does this variable
// hold" that the retry-site analysis, its dependency model and the passes
// share.
//
// Variables are keyed by their object: a local, a parameter, a package
// variable, or a field (a store to s.f is a store to the field f, whatever
// s is, and so is a keyed literal {f: e}).
package varindex

import (
	"go/ast"
	"go/token"
	"go/types"
	"sync"

	"golang.org/x/tools/go/ast/inspector"
)

// Var is what the package does with one variable or field.
type Var struct {
	// Def is the initialiser in the declaration (v := e, var v = e),
	// when the declaration gives each variable its own value; nil if none.
	Def ast.Expr
	// Init is Def, or the one call that initialises several variables
	// (a, err := f(): f() for a and err).
	Init ast.Expr
	// Decl is the *ast.AssignStmt (:=) or *ast.ValueSpec that declares
	// the variable, and Gen the var declaration of a ValueSpec; nil for a
	// parameter, a field or a variable the package does not declare.
	Decl ast.Node
	Gen  *ast.GenDecl
	// Values are every value stored to the variable, in source order, the
	// initialiser first: v = e, s.f = e, {f: e}; a call that returns
	// several values stores itself to each of them.
	Values []ast.Expr
	// Configs are the fields set on the variable's value (v.f = e) and
	// the method calls made on it (v.SetX(...), through chains:
	// v.SetX(...).SetY(...)), in source order.
	Configs []Config
	// Assigns counts the assignments after the declaration (=, op=, ++,
	// --, a range clause with =); Changed says that one of them is not a
	// plain store (op=, ++, --, range), whose value Values cannot hold.
	Assigns int
	Changed bool
	// Addr says that the variable's address is taken (&v).
	Addr bool
}

// Config is a field set on a variable's value, or a method called on it.
type Config struct {
	Field string        // the field set, or "" for a call
	Value ast.Expr      // the value set
	Call  *ast.CallExpr // the method call, when Field is ""
}

// Index is the index of one package; it is safe for concurrent use.
type Index struct {
	info  *types.Info
	files []*ast.File
	insp  *inspector.Inspector
	once  sync.Once
	vars  map[types.Object]*Var
}

// New returns the index of the package with the given files, built on
// first use. insp, the inspector of those files, may be nil; with one the
// index visits only the nodes it records.
func New(info *types.Info, files []*ast.File, insp *inspector.Inspector) *Index {
	return &Index{info: info, files: files, insp: insp}
}

// recorded are the nodes the index records something of.
var recorded = []ast.Node{(*ast.GenDecl)(nil), (*ast.AssignStmt)(nil), (*ast.IncDecStmt)(nil), (*ast.RangeStmt)(nil),
	(*ast.CompositeLit)(nil), (*ast.UnaryExpr)(nil), (*ast.CallExpr)(nil)}

// Of returns what the package does with v, or nil when it neither
// declares nor uses it in a way the index records.
func (x *Index) Of(v types.Object) *Var {
	x.once.Do(x.build)
	return x.vars[v]
}

// Reassigned reports whether v changes after its declaration, or has its
// address taken.
func (x *Index) Reassigned(v types.Object) bool {
	u := x.Of(v)
	return u != nil && (u.Assigns > 0 || u.Addr)
}

// Once returns the one value v ever holds: its initialiser, when nothing
// stores to it again and its address is not taken; nil otherwise.
func (x *Index) Once(v types.Object) ast.Expr {
	u := x.Of(v)
	if u == nil || u.Def == nil || u.Assigns > 0 || u.Addr {
		return nil
	}
	return u.Def
}

func (x *Index) get(o types.Object) *Var {
	u := x.vars[o]
	if u == nil {
		u = &Var{}
		x.vars[o] = u
	}
	return u
}

// target returns the variable or field an expression stores to: x, pkg.X,
// s.f (the field f), *p (p).
func (x *Index) target(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "_" {
			return nil
		}
		if v, ok := x.info.ObjectOf(e).(*types.Var); ok {
			return v
		}
	case *ast.SelectorExpr:
		if v, ok := x.info.ObjectOf(e.Sel).(*types.Var); ok {
			return v
		}
	case *ast.StarExpr:
		return x.target(e.X)
	}
	return nil
}

func (x *Index) build() {
	x.vars = map[types.Object]*Var{}
	info := x.info
	store := func(lhs, rhs ast.Expr, declared bool) {
		obj := x.target(lhs)
		if obj == nil {
			return
		}
		u := x.get(obj)
		u.Values = append(u.Values, rhs)
		if !declared {
			u.Assigns++
		}
		if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
			if s := info.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
				if base := x.target(sel.X); base != nil {
					b := x.get(base)
					b.Configs = append(b.Configs, Config{Field: sel.Sel.Name, Value: rhs})
				}
			}
		}
	}
	changed := func(e ast.Expr) {
		if obj := x.target(e); obj != nil {
			u := x.get(obj)
			u.Assigns++
			u.Changed = true
		}
	}
	visit := func(n ast.Node) {
		switch n := n.(type) {
		case *ast.GenDecl:
			if n.Tok != token.VAR {
				break
			}
			for _, s := range n.Specs {
				spec := s.(*ast.ValueSpec)
				for i, id := range spec.Names {
					v, ok := info.Defs[id].(*types.Var)
					if !ok {
						continue
					}
					u := x.get(v)
					u.Decl, u.Gen = spec, n
					switch {
					case len(spec.Values) == len(spec.Names):
						u.Def, u.Init = spec.Values[i], spec.Values[i]
						store(id, spec.Values[i], true)
					case len(spec.Values) == 1:
						u.Init = spec.Values[0]
						store(id, spec.Values[0], true)
					}
				}
			}
		case *ast.AssignStmt:
			switch n.Tok {
			case token.ASSIGN, token.DEFINE:
			default:
				for _, l := range n.Lhs {
					changed(l)
				}
				return
			}
			for i, lhs := range n.Lhs {
				declared := false
				if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && n.Tok == token.DEFINE {
					if v, ok := info.Defs[id].(*types.Var); ok {
						u := x.get(v)
						u.Decl = n
						declared = true
						switch {
						case len(n.Lhs) == len(n.Rhs):
							u.Def, u.Init = n.Rhs[i], n.Rhs[i]
						case len(n.Rhs) == 1:
							u.Init = n.Rhs[0]
						}
					}
				}
				switch {
				case len(n.Lhs) == len(n.Rhs):
					store(lhs, n.Rhs[i], declared)
				case len(n.Rhs) == 1:
					store(lhs, n.Rhs[0], declared)
				}
			}
		case *ast.IncDecStmt:
			changed(n.X)
		case *ast.RangeStmt:
			if n.Tok == token.ASSIGN {
				for _, e := range []ast.Expr{n.Key, n.Value} {
					if e != nil {
						changed(e)
					}
				}
			}
		case *ast.CompositeLit:
			for _, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.Ident); ok {
					if v, ok := info.Uses[k].(*types.Var); ok && v.IsField() {
						u := x.get(v)
						u.Values = append(u.Values, kv.Value)
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if obj := x.target(n.X); obj != nil {
					x.get(obj).Addr = true
				}
			}
		case *ast.CallExpr:
			x.methodCall(n)
		}
	}
	if x.insp != nil {
		x.insp.Preorder(recorded, visit)
		return
	}
	for _, f := range x.files {
		ast.Inspect(f, func(n ast.Node) bool {
			visit(n)
			return true
		})
	}
}

// methodCall records a method call on a variable or field, through a
// chain of calls (v.SetX(...).SetY(...) is a call on v).
func (x *Index) methodCall(call *ast.CallExpr) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	if s := x.info.Selections[sel]; s == nil || s.Kind() != types.MethodVal {
		return
	}
	recv := ast.Expr(sel.X)
	for depth := 0; depth < 50; depth++ {
		c, ok := ast.Unparen(recv).(*ast.CallExpr)
		if !ok {
			break
		}
		s, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		recv = s.X
	}
	if obj := x.target(recv); obj != nil {
		u := x.get(obj)
		u.Configs = append(u.Configs, Config{Call: call})
	}
}

// Assign returns the := statement that declares the variable, or nil.
func (u *Var) Assign() *ast.AssignStmt { as, _ := u.Decl.(*ast.AssignStmt); return as }

// Spec returns the var spec that declares the variable, or nil.
func (u *Var) Spec() *ast.ValueSpec { spec, _ := u.Decl.(*ast.ValueSpec); return spec }
