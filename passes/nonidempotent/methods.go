package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
)

// Method parameters.
//
// A wrapper that builds a request (KeyFact.Builds) or builds and sends one
// (SendsMethod, Sends) takes the request's method from a string parameter,
// c.call(ctx, method, path, body), or from a string field of a struct
// parameter, c.do(ctx, CallOptions{Method: "POST", Path: path})
// (KeyFact.MethodField). The caller's argument gives the method: the
// constant itself, or the field's element of the struct literal passed
// (or of the literal a local variable holds, when nothing else sets the
// field).

// methodParam is a parameter of a wrapper that is the method of the
// request it builds: the parameter itself, or its field.
type methodParam struct {
	index int
	field string
}

// methodOf returns the expression that is the method of the request a
// call builds, its argument mi being the method (methodArg,
// sendsMethodArg): the argument itself, or the method field of the struct
// it is, when the callee's fact says so; nil when it cannot be read.
func (c *checker) methodOf(call *ast.CallExpr, mi int) ast.Expr {
	a := arg(call, mi)
	field := c.methodField(call)
	if field == "" || a == nil {
		return a
	}
	return c.fieldValue(a, field, 0)
}

// methodField returns KeyFact.MethodField of the callee of a call.
func (c *checker) methodField(call *ast.CallExpr) string {
	fn := c.callee(call)
	if fn == nil {
		return ""
	}
	if f := c.keyFact(fn); f != nil {
		return f.MethodField
	}
	return ""
}

// fieldValue returns the value a struct expression gives its field name:
// the element of a literal (&Options{Method: "POST"}), or of the literal
// a local variable is defined with when no other value is stored in it,
// its address is not taken and the field is not set elsewhere.
func (c *checker) fieldValue(e ast.Expr, name string, depth int) ast.Expr {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch x := e.(type) {
	case *ast.CompositeLit:
		for _, elt := range x.Elts {
			kv, ok := elt.(*ast.KeyValueExpr)
			if !ok {
				return nil
			}
			if id, ok := kv.Key.(*ast.Ident); ok && id.Name == name {
				return kv.Value
			}
		}
	case *ast.Ident:
		v := c.varOf(x)
		if v == nil || !isLocal(v) || depth > 2 {
			return nil
		}
		ix := c.values()
		vals := ix.vals(v)
		if len(vals) != 1 || !ix.defined(v) || ix.addr(v) || ix.incs(v) {
			return nil
		}
		for _, cf := range ix.cfgs(v) {
			if cf.Field == name {
				return nil
			}
		}
		return c.fieldValue(vals[0], name, depth+1)
	}
	return nil
}

// paramMethod returns the parameter of fd that a construction's method
// expression me is, calleeField being the method field of the callee
// (for a call whose method is a field of its argument): a string
// parameter (me is p), a struct parameter's string field (me is p.Method),
// or a struct parameter passed on whole to a callee reading its field. It
// returns nil when me is none of them, when fd changes the parameter (but
// for a default for an empty method) or its field, or reads it more than
// once.
func (c *checker) paramMethod(fd *ast.FuncDecl, me ast.Expr, calleeField string) (types.Object, *methodParam) {
	sig, ok := c.pass.TypesInfo.Defs[fd.Name].Type().(*types.Signature)
	if !ok {
		return nil, nil
	}
	index := func(p types.Object) int {
		for i := range sig.Params().Len() {
			if sig.Params().At(i) == p {
				return i
			}
		}
		return -1
	}
	me = ast.Unparen(me)
	switch x := me.(type) {
	case *ast.Ident:
		p := c.pass.TypesInfo.Uses[x]
		i := index(p)
		if i < 0 {
			return nil, nil
		}
		if calleeField != "" {
			// The struct passed on whole: its field is the method.
			n := userStruct(p.Type())
			if n == nil || structField(n, calleeField) == nil || c.assignsField(fd.Body, p, structField(n, calleeField)) || c.fieldReads(fd.Body, p, calleeField) > 0 {
				return nil, nil
			}
			return p, &methodParam{index: i, field: calleeField}
		}
		if !isString(p.Type()) || c.changedBeyondDefault(fd.Body, p) {
			return nil, nil
		}
		return p, &methodParam{index: i}
	case *ast.SelectorExpr:
		if calleeField != "" {
			return nil, nil
		}
		p := c.varOf(x.X)
		i := index(p)
		if i < 0 {
			return nil, nil
		}
		n := userStruct(p.Type())
		if n == nil {
			return nil, nil
		}
		f := structField(n.Origin(), x.Sel.Name)
		if f == nil || c.fieldOf(x) != f || c.assignsField(fd.Body, p, f) || c.fieldReads(fd.Body, p, f.Name()) != 1 || c.values().addr(p) {
			return nil, nil
		}
		return p, &methodParam{index: i, field: f.Name()}
	}
	return nil, nil
}

// fieldReads counts the selections of field name on v in body.
func (c *checker) fieldReads(body *ast.BlockStmt, v types.Object, name string) int {
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if sel, ok := x.(*ast.SelectorExpr); ok && sel.Sel.Name == name && c.varOf(sel.X) == v && c.fieldOf(sel) != nil {
			n++
		}
		return true
	})
	return n
}

// methodParams splits the method parameters found into the fact's
// index lists and its MethodField: the parameters themselves when there
// are any, else the struct parameters of the first field found.
func methodParams(lists ...[]methodParam) (out [][]int, field string) {
	plain := false
	for _, l := range lists {
		for _, mp := range l {
			if mp.field == "" {
				plain = true
			} else if field == "" {
				field = mp.field
			}
		}
	}
	if plain {
		field = ""
	}
	for _, l := range lists {
		var idx []int
		for _, mp := range l {
			if mp.field == field && !slices.Contains(idx, mp.index) {
				idx = append(idx, mp.index)
			}
		}
		slices.Sort(idx)
		out = append(out, idx)
	}
	return out, field
}
