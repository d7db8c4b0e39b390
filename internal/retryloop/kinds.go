package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/typesx"
)

// This file reads an attempt whose value says how it went by a kind (an
// outcome's classification) rather than by a nil error: out :=
// n.exec(ctx); switch out.kind { case txOK: return nil; case txTryAgain:
// }. The package's own literals of the value's type say what each kind
// is: a kind they make only without an error is success, one they make
// only with one is a failure.

// kindTest returns the states in which x op y is want, when x is a kind
// field of the attempt's value and y a constant of the kind's type whose
// class the package's literals give; ok is false otherwise.
func (f *flow) kindTest(x, y ast.Expr, op token.Token, st state, want bool) ([]state, bool) {
	if op != token.EQL && op != token.NEQ {
		return nil, false
	}
	c, ok := f.a.objOf(y).(*types.Const)
	if !ok {
		c, ok = f.a.objOf(x).(*types.Const)
		if !ok {
			return nil, false
		}
		x = y
	}
	sel, ok := ast.Unparen(x).(*ast.SelectorExpr)
	if !ok {
		return nil, false
	}
	if b := f.valueOf(sel.X, st); b != bAttempt {
		return nil, false
	}
	fld, ok := f.a.objOf(sel.Sel).(*types.Var)
	if !ok || !fld.IsField() || !types.Identical(fld.Type(), c.Type()) {
		return nil, false
	}
	classes := f.a.kindClasses(typeOf(f.a, sel.X), fld)
	cls := classes[c]
	if cls == 0 {
		return nil, false
	}
	st.seen = true
	if want == (op == token.EQL) {
		if cls < 0 {
			return with(st, st.out&oSuccess), true
		}
		return with(st, st.out&oErr), true
	}
	if cls < 0 {
		for o, k := range classes {
			if k <= 0 && o != c {
				return []state{st}, true // another kind may be success
			}
		}
		return with(st, st.out&oErr), true
	}
	return []state{st}, true
}

// kindClasses returns, for the kind field fld of the struct type t (or a
// pointer to one) that also holds an error, the class of each constant
// the package's composite literals of t give fld: -1 when they give it
// only without an error (absent or nil), +1 only with one, 0 both ways.
// A literal that gives fld no constant makes every class unknown.
func (a *Definer) kindClasses(t types.Type, fld *types.Var) map[*types.Const]int {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return nil
	}
	if m, ok := a.kinds[fld]; ok {
		return m
	}
	if a.kinds == nil {
		a.kinds = map[*types.Var]map[*types.Const]int{}
	}
	a.kinds[fld] = nil
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	kindAt, errAt := -1, -1
	for i := range st.NumFields() {
		switch v := st.Field(i); {
		case v == fld:
			kindAt = i
		case typesx.IsError(v.Type()) && errAt < 0:
			errAt = i
		}
	}
	if kindAt < 0 || errAt < 0 {
		return nil
	}
	out := map[*types.Const]int{}
	seen := map[*types.Const]int{} // bit 1: without an error, bit 2: with one
	known := true
	for _, file := range a.pass.Files {
		ast.Inspect(file, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || !known {
				return known
			}
			lt := a.pass.TypesInfo.TypeOf(lit)
			if lt == nil || !types.Identical(lt, named) {
				return true
			}
			var kind, errv ast.Expr
			for i, el := range lit.Elts {
				var k *types.Var
				v := el
				if kv, ok := el.(*ast.KeyValueExpr); ok {
					id, _ := kv.Key.(*ast.Ident)
					if id == nil {
						continue
					}
					k, _ = a.pass.TypesInfo.ObjectOf(id).(*types.Var)
					v = kv.Value
				} else if i < st.NumFields() {
					k = st.Field(i)
				}
				switch k {
				case st.Field(kindAt):
					kind = v
				case st.Field(errAt):
					errv = v
				}
			}
			if kind == nil {
				known = false
				return false
			}
			c, ok := a.objOf(kind).(*types.Const)
			if !ok {
				known = false
				return false
			}
			if errv == nil || a.isNil(errv) {
				seen[c] |= 1
			} else {
				seen[c] |= 2
			}
			return true
		})
	}
	if !known {
		return nil
	}
	for c, bits := range seen {
		switch bits {
		case 1:
			out[c] = -1
		case 2:
			out[c] = +1
		}
	}
	a.kinds[fld] = out
	return out
}
