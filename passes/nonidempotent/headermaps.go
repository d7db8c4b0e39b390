package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
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
	return c.copiedHeaderAt(node, name, 0)
}

func (c *checker) copiedHeaderAt(node ast.Node, name ast.Expr, depth int) (judged, keyed bool) {
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
	return c.mapKeys(rs.X, depth+1)
}

// copiedFrom reports whether a header name is the key of a for-range over
// a header field of the description from: the converter copies the
// description's own headers.
func (c *checker) copiedFrom(node ast.Node, name ast.Expr, from types.Object) bool {
	id, ok := ast.Unparen(name).(*ast.Ident)
	if !ok || c.pass.TypesInfo.Uses[id] == nil {
		return false
	}
	rs := c.rangeOfKey(node, c.pass.TypesInfo.Uses[id])
	if rs == nil {
		return false
	}
	sel, ok := ast.Unparen(rs.X).(*ast.SelectorExpr)
	return ok && c.isHeaderField(sel) && c.varOf(sel.X) == from
}

// mapKeys judges a header map expression: whether the pass can tell which
// names it may hold (judged), and whether one of them may be an
// idempotency-key header (keyed). It judges a map made there (make, or a
// literal with constant names), nil, a struct field (keyed when some code
// of the package sets a key-header name on that field, fieldKeys), the
// Clone of a judged map, a local variable made in its function from judged
// maps and filled there only with constant names or from the ranges of
// judged maps, and the result of a function of the package that returns
// only judged maps.
func (c *checker) mapKeys(e ast.Expr, depth int) (judged, keyed bool) {
	if depth > 4 || e == nil {
		return false, false
	}
	e = ast.Unparen(e)
	if c.madeMap(e) {
		return true, c.litHasKey(e)
	}
	if f := c.fieldOf(e); f != nil {
		return true, len(c.fieldKeys(f)) > 0
	}
	switch x := e.(type) {
	case *ast.Ident:
		if _, isNil := c.pass.TypesInfo.Uses[x].(*types.Nil); isNil {
			return true, false
		}
		v := c.varOf(x)
		if v != nil && c.carrying[v] {
			// A header-map parameter of the function whose fact is
			// computed: its callers judge what they pass.
			c.carried[v] = true
			return true, false
		}
		if v == nil || !isLocal(v) {
			return false, false
		}
		body := c.declaringBody(x, v)
		if body == nil {
			return false, false
		}
		judged, keys := c.localKeys(body, v, depth)
		return judged, len(keys) > 0
	case *ast.CallExpr:
		fn := c.callee(x)
		if fn == nil || typesx.IsInterfaceMethod(fn) {
			return false, false
		}
		if typesx.PkgPath(fn) == "net/http" && typesx.RecvName(fn) == "Header" && fn.Name() == "Clone" {
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				return c.mapKeys(sel.X, depth+1)
			}
			return false, false
		}
		fd := c.declOf(fn)
		if fn.Pkg() != c.pass.Pkg || fd == nil || fd.Body == nil {
			return false, false
		}
		judged = true
		astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
			ret, ok := n.(*ast.ReturnStmt)
			if !ok || !judged {
				return judged
			}
			if len(ret.Results) == 0 {
				judged = false // a named result
				return false
			}
			j, k := c.mapKeys(ret.Results[0], depth+1)
			judged, keyed = judged && j, keyed || k
			return false
		})
		return judged, keyed
	}
	return false, false
}

// declaringBody returns the body of the function that declares the local
// variable v, as seen from its use id.
func (c *checker) declaringBody(id *ast.Ident, v types.Object) *ast.BlockStmt {
	cur, ok := c.find.Find(id)
	if !ok {
		return nil
	}
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		if b := astx.FuncBody(p.Node()); b != nil {
			if _, isFn := p.Node().(*ast.FuncLit); !isFn {
				if _, isFn := p.Node().(*ast.FuncDecl); !isFn {
					continue
				}
			}
			if b.Pos() <= v.Pos() && v.Pos() < b.End() || p.Node().Pos() <= v.Pos() && v.Pos() < b.Pos() {
				return b
			}
		}
	}
	return nil
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

// localKeys judges a local map v of the function whose body is body: it
// must be made from maps mapKeys judges (make, a literal, a field, ...)
// and only filled there with constant names or from the for-range of a
// judged map, read, ranged over, returned, or stored as a header field
// (req.Header = v). It returns whether it could judge it and the places
// that may set a key-header name on it.
func (c *checker) localKeys(body *ast.BlockStmt, v types.Object, depth int) (bool, []ast.Node) {
	ix := c.values()
	if ix.addr(v) || !ix.defined(v) {
		return false, nil
	}
	var keys []ast.Node
	for _, val := range ix.vals(v) {
		judged, keyed := c.mapKeys(val, depth+1)
		if !judged {
			return false, nil
		}
		if keyed {
			keys = append(keys, val)
		}
	}
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
		case *ast.RangeStmt, *ast.ReturnStmt:
			// read, or the map judged
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
							// Copied from the range of a judged map.
							judged, keyed := c.copiedHeaderAt(as, p.Index, depth+1)
							if !judged {
								ok = false
							} else if keyed {
								keys = append(keys, as)
							}
						case c.isKeyHeader(s):
							keys = append(keys, as)
						}
					}
				}
			}
		case *ast.CallExpr:
			// Handed to a function of the user's code, whose fact says
			// what it does to it.
			judged, keyed := c.handedTo(p, id, depth)
			switch {
			case !judged:
				ok = false
			case keyed:
				keys = append(keys, p)
			}
		case *ast.AssignStmt:
			isLhs := false
			for _, l := range p.Lhs {
				isLhs = isLhs || l == ast.Expr(id)
			}
			if !isLhs && !c.storedAsHeader(p, id) {
				ok = false // copied to another variable
			}
		default:
			ok = false
		}
	}
	return ok, keys
}

// resultName judges a header name held in a local variable that is
// assigned once, from a result of a call of a function of the package, or
// of a method of an interface of the package: the functions that call may
// run (the interface's implementations in the package) return only
// constants there (an authentication source's header name, "Authorization"
// or a package constant). judged says so; keyed whether one of them names
// an idempotency key.
func (c *checker) resultName(name ast.Expr) (judged, keyed bool) {
	id, ok := ast.Unparen(name).(*ast.Ident)
	if !ok {
		return false, false
	}
	v := c.varOf(id)
	if v == nil || !isLocal(v) {
		return false, false
	}
	call, i := c.definingCall(id, v)
	if call == nil {
		return false, false
	}
	decls := c.implementations(c.callee(call))
	if len(decls) == 0 {
		return false, false
	}
	for _, fd := range decls {
		ok := true
		astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
			ret, isRet := n.(*ast.ReturnStmt)
			if !isRet || !ok {
				return ok
			}
			if i >= len(ret.Results) || len(ret.Results) == 1 && i > 0 {
				ok = false // a named result, or a call's results
				return false
			}
			s, isConst := c.stringConst(ret.Results[i])
			switch {
			case !isConst:
				ok = false
			case c.isKeyHeader(s):
				keyed = true
			}
			return false
		})
		if !ok {
			return false, false
		}
	}
	return true, keyed
}

// definingCall returns the call whose result i is the one value given to
// the local v (name, err := src.Header(ctx)), or nil.
func (c *checker) definingCall(id *ast.Ident, v types.Object) (*ast.CallExpr, int) {
	body := c.declaringBody(id, v)
	if body == nil || c.values().addr(v) {
		return nil, -1
	}
	var call *ast.CallExpr
	at, n := -1, 0
	astx.InspectNoLit(body, func(x ast.Node) bool {
		as, ok := x.(*ast.AssignStmt)
		if !ok {
			switch x := x.(type) {
			case *ast.IncDecStmt:
				if c.varOf(x.X) == v {
					n += 2
				}
			case *ast.ValueSpec:
				for _, name := range x.Names {
					if c.pass.TypesInfo.Defs[name] == v && len(x.Values) > 0 {
						n += 2 // an initial value besides the call's
					}
				}
			}
			return true
		}
		for i, l := range as.Lhs {
			if c.varOf(l) != v {
				continue
			}
			n++
			if ce, ok := ast.Unparen(as.Rhs[0]).(*ast.CallExpr); ok && len(as.Rhs) == 1 && (len(as.Lhs) > 1 || i == 0) {
				call, at = ce, i
			}
		}
		return true
	})
	if n != 1 || call == nil {
		return nil, -1
	}
	return call, at
}

// implementations returns the declarations a call of fn may run: fn's
// own, for a function of the package; for a method of an interface
// declared in the package, the method of every type of the package that
// implements it (by value or by pointer), none of them from elsewhere.
func (c *checker) implementations(fn *types.Func) []*ast.FuncDecl {
	if fn == nil || fn.Pkg() != c.pass.Pkg {
		return nil
	}
	if !typesx.IsInterfaceMethod(fn) {
		if fd := c.declOf(fn); fd != nil && fd.Body != nil {
			return []*ast.FuncDecl{fd}
		}
		return nil
	}
	if impls, ok := c.implsOf[fn]; ok {
		return impls
	}
	if c.implsOf == nil {
		c.implsOf = map[*types.Func][]*ast.FuncDecl{}
	}
	impls := c.methodImpls(fn)
	c.implsOf[fn] = impls
	return impls
}

// methodImpls computes implementations for a method of an interface
// declared in the package.
func (c *checker) methodImpls(fn *types.Func) []*ast.FuncDecl {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return nil
	}
	iface, ok := recv.Type().Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	var out []*ast.FuncDecl
	for _, t := range c.concreteTypes() {
		// A type without a method of that name implements nothing
		// that has it: looked up first, as it is cheaper.
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(t), true, c.pass.Pkg, fn.Name())
		if obj == nil || !types.Implements(t, iface) && !types.Implements(types.NewPointer(t), iface) {
			continue
		}
		m, ok := obj.(*types.Func)
		if !ok || m.Pkg() != c.pass.Pkg {
			return nil
		}
		if m == fn {
			continue // promoted from an embedded field of the interface: it runs another implementation
		}
		fd := c.declOf(m)
		if fd == nil || fd.Body == nil {
			return nil
		}
		if !slices.Contains(out, fd) {
			out = append(out, fd)
		}
	}
	return out
}

// concreteTypes returns the package's defined types that may implement
// an interface: neither aliases, nor interfaces, nor generic.
func (c *checker) concreteTypes() []types.Type {
	if c.concrete != nil {
		return *c.concrete
	}
	var out []types.Type
	scope := c.pass.Pkg.Scope()
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() || types.IsInterface(tn.Type()) || c.testDouble(tn) {
			continue
		}
		t := tn.Type()
		if n, ok := t.(*types.Named); ok && n.TypeParams().Len() > 0 {
			continue // generic: its instances are not known here
		}
		out = append(out, t)
	}
	c.concrete = &out
	return out
}

// copiedBy judges a call of a function of the user's code that copies
// one header map onto another (KeyFact.Copies) where use is one of its
// arguments: isCopy when use is the destination or the source of a copy;
// for a destination, whether the source is judged and may hold a key
// (a source is only read).
func (c *checker) copiedBy(call *ast.CallExpr, use ast.Expr, depth int) (judged, keyed, isCopy bool) {
	fn := c.callee(call)
	if fn == nil || typesx.IsInterfaceMethod(fn) {
		return false, false, false
	}
	f := c.keyFact(fn)
	if f == nil {
		return false, false, false
	}
	idx := slices.Index(call.Args, use)
	judged = true
	for _, cp := range f.Copies {
		switch idx {
		case cp[1]:
			isCopy = true
		case cp[0]:
			isCopy = true
			j, k := c.mapKeys(arg(call, cp[1]), depth+1)
			judged, keyed = judged && j, keyed || k
		}
	}
	return judged, keyed, isCopy
}

// handedTo judges a header map handed to a call as its argument use,
// when the callee is a function of the user's code whose facts the
// package reads: its fact says what it does to that parameter. It sets a
// key on it (keyed), headers the pass cannot name (not judged), copies
// another map onto it (keyed where that map may be, copiedBy), or nothing
// (a read: it carries the map on, or copies it elsewhere).
func (c *checker) handedTo(call *ast.CallExpr, use ast.Expr, depth int) (judged, keyed bool) {
	fn := c.callee(call)
	idx := slices.Index(call.Args, use)
	if fn == nil || idx < 0 || typesx.IsInterfaceMethod(fn) || fn.Pkg() == nil || libOf(fn.Pkg().Path()) != "" {
		return false, false
	}
	if fn.Pkg() != c.pass.Pkg && !c.facts.ReadsFacts(fn.Pkg()) {
		return false, false
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Variadic() && idx >= sig.Params().Len()-1 {
		return false, false
	}
	f := c.keyFact(fn)
	if f == nil {
		return true, false
	}
	switch {
	case slices.Contains(f.Dynamic, idx):
		return false, false
	case slices.Contains(f.Sets, idx):
		return true, true
	}
	judged, keyed, _ = c.copiedBy(call, use, depth)
	return judged, keyed
}

// carriedKeyless reports whether a call of fn hands its Carries
// parameters header maps that may hold no idempotency key.
func (c *checker) carriedKeyless(call *ast.CallExpr, fn *types.Func) bool {
	f := c.keyFact(fn)
	if f == nil {
		return true
	}
	for _, i := range f.Carries {
		if judged, keyed := c.mapKeys(arg(call, i), 0); !judged || keyed {
			return false
		}
	}
	return true
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

// storedAsHeader reports whether as stores id as the header map of a
// request or description: req.Header = h.
func (c *checker) storedAsHeader(as *ast.AssignStmt, id *ast.Ident) bool {
	if len(as.Lhs) != len(as.Rhs) {
		return false
	}
	for i, r := range as.Rhs {
		if ast.Unparen(r) == ast.Expr(id) {
			sel, ok := ast.Unparen(as.Lhs[i]).(*ast.SelectorExpr)
			return ok && c.isHeaderField(sel) && c.reqParam(c.pass.TypesInfo.TypeOf(sel.X)) == rootReq
		}
	}
	return false
}
