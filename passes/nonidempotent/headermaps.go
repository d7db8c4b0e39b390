package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
)

// copiedHeader judges a header set with a name that is not a constant.
// When the name is the key of a for-range over a map of the package's own
// that the pass can read — a struct field, or a local variable made in
// the function and filled only with constant names — the copy sets an
// idempotency key only where that map is given one: a constant key-header
// name set on the field anywhere in the package, or on the local. It
// returns whether it judged the name (else the header is one the pass
// cannot name) and whether the map may hold a key.
func (c *checker) copiedHeader(node ast.Node, name ast.Expr) (judged, keyed bool) {
	id, ok := ast.Unparen(name).(*ast.Ident)
	if !ok {
		return false, false
	}
	k := c.pass.TypesInfo.Uses[id]
	if k == nil {
		return false, false
	}
	rs := c.rangeOfKey(node, k)
	if rs == nil {
		return false, false
	}
	if _, isMap := c.pass.TypesInfo.TypeOf(rs.X).Underlying().(*types.Map); !isMap {
		return false, false
	}
	x := ast.Unparen(rs.X)
	if f := c.fieldOf(x); f != nil {
		return true, len(c.fieldKeys(f)) > 0
	}
	v := c.varOf(x)
	if v == nil || !isLocal(v) {
		return false, false
	}
	judged, keys := c.localKeys(rs, v)
	return judged, len(keys) > 0
}

// rangeOfKey returns the range statement of the function holding node
// whose key variable is k.
func (c *checker) rangeOfKey(node ast.Node, k types.Object) *ast.RangeStmt {
	cur, ok := c.find.Find(node)
	if !ok {
		return nil
	}
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch n := p.Node().(type) {
		case *ast.RangeStmt:
			if n.Key != nil && c.pass.TypesInfo.ObjectOf(n.Key.(*ast.Ident)) == k {
				return n
			}
		case *ast.FuncDecl, *ast.FuncLit:
			return nil
		}
	}
	return nil
}

// fieldKeys returns the places in the package that set a key-header name,
// a constant, on a map held in field f: f.Set(name, v), f.Add(name, v),
// f[name] = v, or a map literal stored in f.
func (c *checker) fieldKeys(f types.Object) []ast.Node {
	if c.fieldKeyIndex == nil {
		c.fieldKeyIndex = make(map[types.Object][]ast.Node)
		for _, file := range c.pass.Files {
			ast.Inspect(file, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.CallExpr:
					sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr)
					if ok && (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") && c.keyName(arg(n, 0)) {
						if o := c.fieldOf(sel.X); o != nil {
							c.fieldKeyIndex[o] = append(c.fieldKeyIndex[o], n)
						}
					}
				case *ast.AssignStmt:
					for i, l := range n.Lhs {
						switch l := ast.Unparen(l).(type) {
						case *ast.IndexExpr:
							if c.keyName(l.Index) {
								if o := c.fieldOf(l.X); o != nil {
									c.fieldKeyIndex[o] = append(c.fieldKeyIndex[o], n)
								}
							}
						default:
							if o := c.fieldOf(l); o != nil && len(n.Lhs) == len(n.Rhs) && c.litHasKey(n.Rhs[i]) {
								c.fieldKeyIndex[o] = append(c.fieldKeyIndex[o], n)
							}
						}
					}
				case *ast.KeyValueExpr:
					if id, ok := n.Key.(*ast.Ident); ok {
						if o, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok && o.IsField() && c.litHasKey(n.Value) {
							c.fieldKeyIndex[o] = append(c.fieldKeyIndex[o], n)
						}
					}
				}
				return true
			})
		}
	}
	return c.fieldKeyIndex[f]
}

// fieldOf returns the field a selector expression selects, or nil.
func (c *checker) fieldOf(e ast.Expr) types.Object {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
		return s.Obj()
	}
	return nil
}

// keyName reports whether e is a constant naming an idempotency-key header.
func (c *checker) keyName(e ast.Expr) bool {
	s, ok := c.stringConst(e)
	return ok && c.isKeyHeader(s)
}

// litHasKey reports whether e is a map literal with a key-header entry.
func (c *checker) litHasKey(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok && c.keyName(kv.Key) {
			return true
		}
	}
	return false
}

// localKeys judges a local map v that rs ranges over: it must be made in
// its function (make or a literal) and only filled there with constant
// names, read, or ranged over. It returns whether it could judge it and
// the places that set a key-header name on it.
func (c *checker) localKeys(rs *ast.RangeStmt, v types.Object) (bool, []ast.Node) {
	rsCur, found := c.find.Find(rs)
	if !found {
		return false, nil
	}
	body := astx.FuncBody(astx.EnclosingFunc(rsCur))
	if body == nil {
		return false, nil
	}
	ix := c.values()
	if ix.addr(v) || !ix.defined(v) {
		return false, nil
	}
	for _, val := range ix.vals(v) {
		if !c.madeMap(val) {
			return false, nil
		}
	}
	var keys []ast.Node
	ok := true
	bodyCur, found := c.find.Find(body)
	if !found {
		return false, nil
	}
	for cur := range bodyCur.Preorder((*ast.Ident)(nil)) {
		if !ok {
			break
		}
		id := cur.Node().(*ast.Ident)
		if c.pass.TypesInfo.Uses[id] != v {
			continue
		}
		switch p := cur.Parent().Node().(type) {
		case *ast.RangeStmt:
			// read
		case *ast.SelectorExpr:
			call, isCall := cur.Parent().Parent().Node().(*ast.CallExpr)
			switch {
			case !isCall || call.Fun != p:
				ok = false
			case p.Sel.Name == "Set" || p.Sel.Name == "Add":
				s, isConst := c.stringConst(arg(call, 0))
				switch {
				case !isConst:
					ok = false
				case c.isKeyHeader(s):
					keys = append(keys, call)
				}
			case p.Sel.Name == "Get" || p.Sel.Name == "Values" || p.Sel.Name == "Del":
			default:
				ok = false
			}
		case *ast.IndexExpr:
			if as, isAs := cur.Parent().Parent().Node().(*ast.AssignStmt); isAs {
				for _, l := range as.Lhs {
					if l == ast.Expr(p) {
						s, isConst := c.stringConst(p.Index)
						switch {
						case !isConst:
							ok = false
						case c.isKeyHeader(s):
							keys = append(keys, as)
						}
					}
				}
			}
		case *ast.AssignStmt:
			isLhs := false
			for _, l := range p.Lhs {
				isLhs = isLhs || l == ast.Expr(id)
			}
			if !isLhs {
				ok = false // copied to another variable
			}
		default:
			ok = false
		}
	}
	return ok, keys
}

// madeMap reports whether e makes a new map: make(...) or a map literal
// whose names are constants.
func (c *checker) madeMap(e ast.Expr) bool {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
			b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin)
			return ok && b.Name() == "make"
		}
		return false
	}
	lit, ok := e.(*ast.CompositeLit)
	if !ok {
		return false
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return false
		}
		if _, ok := c.stringConst(kv.Key); !ok {
			return false
		}
	}
	return true
}
