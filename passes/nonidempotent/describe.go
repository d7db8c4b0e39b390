package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Request descriptions.
//
// A client library may describe its requests in a type of its own before
// it makes them HTTP requests:
//
//	type Request struct {
//		Method  string
//		Path    string
//		Headers http.Header
//	}
//
//	func (c *Client) NewRequest(method, path string) *Request {
//		return &Request{Method: method, Path: path, Headers: c.headers()}
//	}
//
//	func (r *Request) toHTTP() (*retryablehttp.Request, error) {
//		req, err := retryablehttp.NewRequest(r.Method, r.Path, nil)
//		...
//		for k, vs := range r.Headers { ... req.Header.Add(k, v) }
//		return req, nil
//	}
//
// Such a type is a request description: a struct type of the user's code
// with a method (the converter, KeyFact.Converts) that returns a request
// built with the method held in one of the receiver's string fields and
// carrying the receiver's headers. A description is a request to the
// pass: its construction is a literal that sets that field (or a call of
// a builder that returns one, KeyFact.Builds), its header fields are the
// request's header map, and the converter's result is the request itself,
// followed to its send.

// userStruct returns the named struct type of the user's code that t is
// or points to, or nil.
func userStruct(t types.Type) *types.Named {
	if t == nil {
		return nil
	}
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	if path := typesx.TrimVendor(n.Obj().Pkg().Path()); path == "net/http" || isRetryable(path) || isResty(path) {
		return nil
	}
	if _, ok := n.Underlying().(*types.Struct); !ok {
		return nil
	}
	return n
}

// mayDescribe reports whether t could be a request description: a struct
// type of the user's code with a string field.
func mayDescribe(t types.Type) bool {
	n := userStruct(t)
	if n == nil {
		return false
	}
	st := n.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		if isString(st.Field(i).Type()) {
			return true
		}
	}
	return false
}

func isString(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsString != 0
}

// descField returns the method field of a request description (t or
// what it points to), or nil when t is no description: the field a
// method of the type with KeyFact.Converts names.
func (c *checker) descField(t types.Type) *types.Var {
	n := userStruct(t)
	if n == nil {
		return nil
	}
	n = n.Origin()
	if v, ok := c.descs[n]; ok {
		return v
	}
	var out *types.Var
	for m := range n.Methods() {
		if f := c.keyFact(m); f != nil && f.Converts != "" {
			out = structField(n, f.Converts)
			break
		}
	}
	if c.descs == nil {
		c.descs = map[*types.Named]*types.Var{}
	}
	c.descs[n] = out
	return out
}

// structField returns the string field of n called name, or nil.
func structField(n *types.Named, name string) *types.Var {
	st := n.Underlying().(*types.Struct)
	for i := range st.NumFields() {
		if f := st.Field(i); f.Name() == name && isString(f.Type()) {
			return f
		}
	}
	return nil
}

// isHeaderField reports whether sel selects a field of type http.Header
// (the Header of an http.Request, the header field of a description).
func (c *checker) isHeaderField(sel *ast.SelectorExpr) bool {
	s := c.pass.TypesInfo.Selections[sel]
	return s != nil && s.Kind() == types.FieldVal && typesx.IsNamed(s.Obj().Type(), "net/http", "Header")
}

// litMethod returns the method element of a request literal:
// &http.Request{Method: m, ...}, or a description's &Request{Method: m}.
// ok is false for other literals; a request literal without its method
// field (a GET) gives a nil method.
func (c *checker) litMethod(lit *ast.CompositeLit) (method ast.Expr, ok bool) {
	t := c.pass.TypesInfo.TypeOf(lit)
	var field *types.Var
	switch {
	case typesx.IsNamed(t, "net/http", "Request"):
	case c.descField(t) != nil:
		field = c.descField(t)
	default:
		return nil, false
	}
	for _, elt := range lit.Elts {
		kv, isKV := elt.(*ast.KeyValueExpr)
		if !isKV {
			return nil, false // positional: not followed
		}
		id, isID := kv.Key.(*ast.Ident)
		if !isID {
			continue
		}
		obj := c.pass.TypesInfo.ObjectOf(id)
		if field != nil && obj == field || field == nil && id.Name == "Method" && obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "net/http" {
			return kv.Value, true
		}
	}
	if field == nil {
		// req := http.Request{URL: u}; req.Method = method: the method
		// assigned to the variable the literal defines.
		return c.assignedMethod(lit)
	}
	return nil, true
}

// assignedMethod returns the method assigned to the variable that a
// request literal without a method defines (req := &http.Request{...}
// or http.Request{...}; req.Method = m), when its function assigns it
// once, after the literal: nil when it assigns none (a GET); ok is false
// when it assigns it more than once, or the literal defines no variable.
func (c *checker) assignedMethod(lit *ast.CompositeLit) (method ast.Expr, ok bool) {
	cur, found := c.find.Find(lit)
	if !found {
		return nil, false
	}
	if u, isU := cur.Parent().Node().(*ast.UnaryExpr); isU && u.Op == token.AND {
		cur = cur.Parent()
	}
	var v types.Object
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == 1 && len(p.Rhs) == 1 {
			v = c.varOf(p.Lhs[0])
		}
	case *ast.ValueSpec:
		if len(p.Names) == 1 && len(p.Values) == 1 {
			v = c.varOf(p.Names[0])
		}
	default:
		return nil, true // used where it is made: the method is its literal's
	}
	body := astx.FuncBody(astx.EnclosingFunc(cur))
	if v == nil || !isLocal(v) || body == nil {
		return nil, false
	}
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		as, isAs := x.(*ast.AssignStmt)
		if !isAs || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, l := range as.Lhs {
			sel, isSel := ast.Unparen(l).(*ast.SelectorExpr)
			if isSel && sel.Sel.Name == "Method" && c.varOf(sel.X) == v {
				n++
				if as.Pos() > lit.End() {
					method = as.Rhs[i]
				}
			}
		}
		return true
	})
	switch {
	case n == 0:
		return nil, true
	case n > 1 || method == nil:
		return nil, false
	}
	return method, true
}

// converterField returns the name of the receiver's string field that is
// the method of the request fd returns (KeyFact.Converts): fd is a method
// of a struct type of the user's code that builds a request with
// recv.Field as its method, never assigns that field, and returns the
// request carrying no idempotency key and no header it cannot name other
// than the receiver's own headers.
func (c *checker) converterField(fd *ast.FuncDecl, fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	recv := sig.Recv()
	if recv == nil || sig.Results().Len() == 0 || reqParam(sig.Results().At(0).Type()) != rootReq || isRestyRequest(sig.Results().At(0).Type()) {
		return ""
	}
	n := userStruct(recv.Type())
	if n == nil {
		return ""
	}
	bodyCur, ok := c.find.Find(fd.Body)
	if !ok {
		return ""
	}
	for cur := range bodyCur.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		mi := c.methodArg(call)
		if mi < 0 || astx.EnclosingFunc(cur) != ast.Node(fd) {
			continue
		}
		sel, ok := ast.Unparen(arg(call, mi)).(*ast.SelectorExpr)
		if !ok || c.varOf(sel.X) != recv {
			continue
		}
		f := structField(n.Origin(), sel.Sel.Name)
		if f == nil || c.fieldOf(sel) != f || c.assignsField(fd.Body, recv, f) {
			continue
		}
		r := c.valueRequestFrom(cur, call, "POST", recv)
		if r != nil && r.returned && !r.escapes && !r.dynamic && len(r.keys) == 0 {
			return f.Name()
		}
	}
	return ""
}

// assignsField reports whether body assigns v.f (or takes its address).
func (c *checker) assignsField(body *ast.BlockStmt, v types.Object, f *types.Var) bool {
	is := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && c.varOf(sel.X) == v && c.fieldOf(sel) == f
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				found = found || is(l)
			}
		case *ast.UnaryExpr:
			found = found || n.Op == token.AND && is(n.X)
		}
		return !found
	})
	return found
}

// hookClean reports whether a call of a function value whose type is a
// named function type of the package (type RequestCallback func(*Request))
// sets no idempotency key and no header the pass cannot name on the
// requests it is given: the package makes functions of that type (function
// literals returned, passed, stored or converted as that type, or
// functions converted to it) and none of them does. The functions the
// package's callers supply are theirs to judge.
func (c *checker) hookClean(call *ast.CallExpr) bool {
	named, ok := types.Unalias(c.pass.TypesInfo.TypeOf(call.Fun)).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return false
	}
	if _, isSig := named.Underlying().(*types.Signature); !isSig {
		return false
	}
	if v, ok := c.hooks[named]; ok {
		return v
	}
	if c.hooks == nil {
		c.hooks = map[*types.Named]bool{}
	}
	c.hooks[named] = false // while it is judged
	prods := c.hookProducers(named)
	clean := len(prods) > 0
	for _, p := range prods {
		var sig *types.Signature
		switch p := p.(type) {
		case *ast.FuncLit:
			sig, _ = c.pass.TypesInfo.TypeOf(p).(*types.Signature)
		case *ast.FuncDecl:
			if fn, ok := c.pass.TypesInfo.Defs[p.Name].(*types.Func); ok {
				sig = fn.Type().(*types.Signature)
			}
		}
		if sig == nil || astx.FuncBody(p) == nil {
			clean = false
			break
		}
		// A literal made by a function of the package may set headers
		// that function's caller names (WithHeader(name, value),
		// WithHeaders(h)): they are judged by its calls in the package.
		outer := c.enclosingDecl(p)
		carried := c.withCarrying(callerParams(c.pass.TypesInfo, outer), func() {
			for i := range sig.Params().Len() {
				r := c.heldParam(p, sig.Params().At(i))
				if r == nil {
					continue
				}
				if r.dynamic || len(r.keys) > 0 {
					clean = false
				}
			}
		})
		if len(carried) > 0 {
			// Judged apart from any fact being computed: the verdict
			// is kept for the hook type.
			c.withCarrying(nil, func() {
				if !c.callersName(outer, carried) {
					clean = false
				}
			})
		}
	}
	c.hooks[named] = clean
	return clean
}

// implsClean reports whether a call of fn, a method of an interface
// declared in the package, sets no idempotency key and no header the pass
// cannot name on the request (or request holder) it is given for its
// parameter i: the package implements the interface, and none of its
// implementations does (as hookClean judges the functions of a hook
// type). The implementations the package's callers supply are theirs to
// judge.
func (c *checker) implsClean(fn *types.Func, i int) bool {
	impls := c.implementations(fn)
	if i < 0 || len(impls) == 0 {
		return false
	}
	key := implParam{fn, i}
	if v, ok := c.ifaces[key]; ok {
		return v
	}
	if c.ifaces == nil {
		c.ifaces = map[implParam]bool{}
	}
	// While it is judged, a call of the same method (an option that
	// applies other options) adds no header of its own: the verdict is
	// that of the implementations. Verdicts reached on that assumption
	// are dropped if it fails.
	c.ifaces[key] = true
	judging := len(c.ifaceOrder)
	c.ifaceOrder = append(c.ifaceOrder, key)
	clean := true
	for _, fd := range impls {
		m, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok {
			clean = false
			break
		}
		params := m.Type().(*types.Signature).Params()
		if i >= params.Len() {
			clean = false
			break
		}
		if c.callersOnly(m) {
			continue
		}
		r := c.heldParam(fd, params.At(i))
		if r == nil || r.dynamic || len(r.keys) > 0 {
			clean = false
			break
		}
	}
	if !clean {
		for _, k := range c.ifaceOrder[judging+1:] {
			delete(c.ifaces, k)
		}
		c.ifaceOrder = c.ifaceOrder[:judging+1]
	}
	if judging == 0 {
		// The outermost judgement: no assumption is left to fail.
		c.ifaceOrder = c.ifaceOrder[:0]
	}
	c.ifaces[key] = clean
	return clean
}

// callersOnly reports whether m is a method of a function type of the
// package that the package makes no function of (type PreOptionFunc
// func(*Config) error): it runs only functions its callers make, whose
// headers are theirs, as the options they pass are.
func (c *checker) callersOnly(m *types.Func) bool {
	recv := m.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	named, ok := types.Unalias(recv.Type()).(*types.Named)
	if !ok || named.Obj().Pkg() != c.pass.Pkg {
		return false
	}
	if _, isSig := named.Underlying().(*types.Signature); !isSig {
		return false
	}
	return len(c.hookProducers(named)) == 0
}

// implParam is a parameter of an interface method.
type implParam struct {
	fn *types.Func
	i  int
}

// heldParam follows the parameter p of the function fn when it is a
// request, a header map or a request holder (its request field is the
// request), and returns what fn does to it; or nil.
func (c *checker) heldParam(fn ast.Node, p *types.Var) *request {
	if r, _ := c.paramRequest(fn, p); r != nil {
		return r
	}
	if holderField(p.Type()) == nil {
		return nil
	}
	r := &request{fn: fn, vars: map[types.Object]bool{p: true}, hdrs: map[types.Object]bool{}}
	c.collect(r)
	return r
}

// enclosingDecl returns the function declaration that holds a function
// literal, or nil.
func (c *checker) enclosingDecl(n ast.Node) *ast.FuncDecl {
	if _, isLit := n.(*ast.FuncLit); !isLit {
		return nil
	}
	return c.funcDeclOf(n)
}

// funcDeclOf returns the function declaration that holds n, or nil.
func (c *checker) funcDeclOf(n ast.Node) *ast.FuncDecl {
	cur, ok := c.find.Find(n)
	if !ok {
		return nil
	}
	for p := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		return p.Node().(*ast.FuncDecl)
	}
	return nil
}

// callerParams returns the parameters of fd that name headers on behalf
// of its caller: its strings and its maps.
func callerParams(info *types.Info, fd *ast.FuncDecl) map[types.Object]bool {
	if fd == nil {
		return nil
	}
	fn, ok := info.Defs[fd.Name].(*types.Func)
	if !ok {
		return nil
	}
	out := map[types.Object]bool{}
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		switch p.Type().Underlying().(type) {
		case *types.Basic:
			out[p] = isString(p.Type())
		case *types.Map:
			out[p] = true
		}
	}
	return out
}

// callersName reports whether every call in the package of the function
// fd passes, for each parameter in params, a header name that is no key
// (a constant) or a header map that may hold none (mapKeys). Its callers
// outside the package choose their own headers.
func (c *checker) callersName(fd *ast.FuncDecl, params []types.Object) bool {
	fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Type().(*types.Signature)
	idx := map[types.Object]int{}
	for i := range sig.Params().Len() {
		idx[sig.Params().At(i)] = i
	}
	for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if c.callee(call) != fn {
			continue
		}
		for _, p := range params {
			i, ok := idx[p]
			if !ok || sig.Variadic() && i == sig.Params().Len()-1 {
				return false
			}
			a := arg(call, i)
			if isString(p.Type()) {
				if s, isConst := c.stringConst(a); !isConst || c.isKeyHeader(s) {
					return false
				}
				continue
			}
			if judged, keyed := c.mapKeys(a, 0); !judged || keyed {
				return false
			}
		}
	}
	return true
}

// hookProducers returns the functions the package makes of the named
// function type t: function literals whose expected type is t (returned
// from a function with that result, passed for a parameter of that type,
// stored in a variable, field or element of it, converted to it) and
// functions of the package converted to it.
func (c *checker) hookProducers(t *types.Named) []ast.Node {
	var out []ast.Node
	is := func(x types.Type) bool { return x != nil && types.Identical(x, t) }
	for cur := range c.insp.Root().Preorder((*ast.FuncLit)(nil), (*ast.CallExpr)(nil)) {
		if call, ok := cur.Node().(*ast.CallExpr); ok {
			// T(f): a function of the package converted to T.
			if tv, ok := c.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() && is(tv.Type) && len(call.Args) == 1 {
				if fn, ok := c.objOf(call.Args[0]).(*types.Func); ok && fn.Pkg() == c.pass.Pkg {
					if fd := c.declOf(fn); fd != nil {
						out = append(out, fd)
					}
				}
			}
			continue
		}
		lit := cur.Node().(*ast.FuncLit)
		if is(c.expectedType(cur)) {
			out = append(out, lit)
		}
	}
	return out
}

// expectedType returns the type the context of the expression at cur
// gives it: the result type it is returned as, the parameter type it is
// passed for, the type of what it is assigned or converted to, the field
// or element type of the literal that holds it; or nil.
func (c *checker) expectedType(cur inspector.Cursor) types.Type {
	e := cur.Node().(ast.Expr)
	p := cur.Parent()
	info := c.pass.TypesInfo
	switch pn := p.Node().(type) {
	case *ast.ReturnStmt:
		var sig *types.Signature
		for q := p.Parent(); q.Valid() && sig == nil; q = q.Parent() {
			switch f := q.Node().(type) {
			case *ast.FuncLit:
				sig, _ = info.TypeOf(f).(*types.Signature)
			case *ast.FuncDecl:
				if fn, ok := info.Defs[f.Name].(*types.Func); ok {
					sig = fn.Type().(*types.Signature)
				}
			}
		}
		for i, r := range pn.Results {
			if r == e && sig != nil && sig.Results().Len() == len(pn.Results) {
				return sig.Results().At(i).Type()
			}
		}
	case *ast.CallExpr:
		if tv, ok := info.Types[pn.Fun]; ok && tv.IsType() {
			return tv.Type
		}
		sig, ok := info.TypeOf(pn.Fun).Underlying().(*types.Signature)
		if !ok {
			return nil
		}
		for i, a := range pn.Args {
			if a != e {
				continue
			}
			switch {
			case sig.Variadic() && i >= sig.Params().Len()-1 && !pn.Ellipsis.IsValid():
				if s, ok := sig.Params().At(sig.Params().Len() - 1).Type().(*types.Slice); ok {
					return s.Elem()
				}
			case i < sig.Params().Len():
				return sig.Params().At(i).Type()
			}
		}
	case *ast.KeyValueExpr:
		if pn.Value != e {
			return nil
		}
		if id, ok := pn.Key.(*ast.Ident); ok {
			if v, ok := info.ObjectOf(id).(*types.Var); ok && v.IsField() {
				return v.Type()
			}
		}
		if lit, ok := p.Parent().Node().(*ast.CompositeLit); ok {
			return elemType(info.TypeOf(lit))
		}
	case *ast.CompositeLit:
		if _, isStruct := info.TypeOf(pn).Underlying().(*types.Struct); !isStruct {
			return elemType(info.TypeOf(pn))
		}
	case *ast.AssignStmt:
		for i, r := range pn.Rhs {
			if r == e && len(pn.Lhs) == len(pn.Rhs) {
				return info.TypeOf(pn.Lhs[i])
			}
		}
	case *ast.ValueSpec:
		if pn.Type != nil {
			return info.TypeOf(pn.Type)
		}
	}
	return nil
}

// elemType returns the element type of a slice, array or map type.
func elemType(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return u.Elem()
	case *types.Array:
		return u.Elem()
	case *types.Map:
		return u.Elem()
	}
	return nil
}

// converts reports whether fn is a description's converter
// (KeyFact.Converts).
func (c *checker) converts(fn *types.Func) bool {
	if fn == nil || typesx.IsInterfaceMethod(fn) {
		return false
	}
	f := c.keyFact(fn)
	return f != nil && f.Converts != ""
}

// litHeaders records the headers a request literal sets in its header
// fields: &http.Request{Header: http.Header{...}}.
func (c *checker) litHeaders(r *request, lit *ast.CompositeLit) {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if id, ok := kv.Key.(*ast.Ident); ok {
			if v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var); ok && v.IsField() && typesx.IsNamed(v.Type(), "net/http", "Header") {
				c.headerMap(r, kv, kv.Value)
			}
		}
	}
}

// cleanLit reports whether a request literal sets no idempotency key and
// no header the pass cannot name.
func (c *checker) cleanLit(lit *ast.CompositeLit) bool {
	r := &request{vars: map[types.Object]bool{}, hdrs: map[types.Object]bool{}}
	c.litHeaders(r, lit)
	return !r.dynamic && len(r.keys) == 0
}
