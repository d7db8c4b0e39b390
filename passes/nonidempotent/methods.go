package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/internal/typesx"
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
// field). The struct may also be a local the wrapper applies its final
// variadic parameter's functional options to (for _, opt := range opts {
// opt(o) }): the method field is then the option's, MethodField names it,
// and a caller's method is the value the last of its options that sets
// the field gives it (WithMethod(http.MethodPost), whose function returns
// func(o *options) { o.method = m }, or such a function literal itself).

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
	if fn := c.callee(call); fn != nil && optionsParam(fn.Signature()) == mi {
		return c.optionValue(call, mi, field)
	}
	return c.fieldValue(a, field, 0)
}

// optionsParam returns the index of sig's final variadic parameter when
// it is a slice of functional options (functions of one pointer parameter
// and no result but an error), else -1.
func optionsParam(sig *types.Signature) int {
	if !sig.Variadic() {
		return -1
	}
	last := sig.Params().Len() - 1
	sl, ok := sig.Params().At(last).Type().Underlying().(*types.Slice)
	if !ok {
		return -1
	}
	opt, ok := sl.Elem().Underlying().(*types.Signature)
	if !ok || opt.Params().Len() != 1 || opt.Results().Len() > 1 || opt.Results().Len() == 1 && !typesx.IsError(opt.Results().At(0).Type()) {
		return -1 // an option may fail (func(*options) error): the call then returns
	}
	if _, ok := opt.Params().At(0).Type().(*types.Pointer); !ok {
		return -1
	}
	return last
}

// optionValue returns the value the last of a call's options from mi on
// gives the field name, or nil: no option sets it, one cannot be read (it
// may set it), or the options are handed on (opts...).
func (c *checker) optionValue(call *ast.CallExpr, mi int, name string) ast.Expr {
	args := call.Args[mi:]
	if call.Ellipsis.IsValid() {
		if len(args) != 1 {
			return nil
		}
		return c.sliceOptionValue(args[0], name)
	}
	return c.lastSet(args, name)
}

// lastSet returns the value the last of opts that sets the field name
// gives it, or nil: none sets it, or one cannot be read.
func (c *checker) lastSet(opts []ast.Expr, name string) ast.Expr {
	var v ast.Expr
	for _, a := range opts {
		x, known := c.optionSets(a, name)
		if !known {
			return nil
		}
		if x != nil {
			v = x
		}
	}
	return v
}

// sliceOptionValue returns the value the options of a local slice handed
// on whole (do(c, opts...)) give the field name: the slice is made once
// from a literal of options and only grown by appends of options
// (opts = append(opts, withUpload(f))), none of which sets the field, so
// the literal's last option that sets it decides; nil otherwise.
func (c *checker) sliceOptionValue(e ast.Expr, name string) ast.Expr {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v := c.varOf(id)
	ix := c.values()
	if v == nil || !isLocal(v) || !ix.defined(v) || ix.addr(v) || ix.incs(v) {
		return nil
	}
	var lit *ast.CompositeLit
	for _, val := range ix.vals(v) {
		switch x := ast.Unparen(val).(type) {
		case *ast.CompositeLit:
			if lit != nil {
				return nil
			}
			lit = x
		case *ast.CallExpr:
			b, isBuiltin := c.pass.TypesInfo.Uses[identOf(x.Fun)].(*types.Builtin)
			if !isBuiltin || b.Name() != "append" || x.Ellipsis.IsValid() || len(x.Args) == 0 || c.varOf(x.Args[0]) != v {
				return nil
			}
			for _, a := range x.Args[1:] {
				if set, known := c.optionSets(a, name); !known || set != nil {
					return nil
				}
			}
		default:
			return nil
		}
	}
	if lit == nil {
		return nil
	}
	for _, elt := range lit.Elts {
		if _, isKV := elt.(*ast.KeyValueExpr); isKV {
			return nil
		}
	}
	return c.lastSet(lit.Elts, name)
}

// identOf returns e as an identifier, or nil.
func identOf(e ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(e).(*ast.Ident)
	return id
}

// optionSets returns the value an option gives the field name (nil when
// it leaves the field alone), and whether the option can be read: a
// function literal, whose assignment of the field on its parameter gives
// the value (func(o *options) { o.method = "POST" }), or a call of a
// function of the package whose body returns such a literal, the value
// then a constant or a parameter of the function (the call's argument).
func (c *checker) optionSets(a ast.Expr, name string) (ast.Expr, bool) {
	set := func(lit *ast.FuncLit) ast.Expr {
		if len(lit.Type.Params.List) != 1 || len(lit.Type.Params.List[0].Names) != 1 {
			return nil
		}
		p := c.pass.TypesInfo.Defs[lit.Type.Params.List[0].Names[0]]
		var v ast.Expr
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			if as, ok := n.(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
				for i, l := range as.Lhs {
					if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && sel.Sel.Name == name && c.varOf(sel.X) == p {
						v = as.Rhs[i]
					}
				}
			}
			return true
		})
		return v
	}
	switch x := ast.Unparen(a).(type) {
	case *ast.FuncLit:
		return set(x), true
	case *ast.CallExpr:
		fd := c.declOf(c.callee(x))
		if fd == nil || fd.Body == nil || len(fd.Body.List) != 1 {
			return nil, false
		}
		ret, ok := fd.Body.List[0].(*ast.ReturnStmt)
		if !ok || len(ret.Results) != 1 {
			return nil, false
		}
		lit, ok := ast.Unparen(ret.Results[0]).(*ast.FuncLit)
		if !ok {
			return nil, false
		}
		v := set(lit)
		if v == nil {
			return nil, true
		}
		if tv, ok := c.pass.TypesInfo.Types[v]; ok && tv.Value != nil {
			return v, true
		}
		sig := c.pass.TypesInfo.Defs[fd.Name].Type().(*types.Signature)
		for i := range sig.Params().Len() {
			if c.varOf(v) == sig.Params().At(i) && !sig.Variadic() {
				return arg(x, i), true
			}
		}
	}
	return nil, false
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
			return c.optionsMethod(fd, sig, p, x)
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

// optionsMethod returns fd's options parameter (optionsParam) when the
// construction's method me is the string field of a local o that a range
// over that parameter applies every option to (opt(o), opt(&o)), the
// options taking a pointer to o's struct type, and fd reads the field
// once and never assigns it (its literal may give it a default).
func (c *checker) optionsMethod(fd *ast.FuncDecl, sig *types.Signature, o types.Object, me *ast.SelectorExpr) (types.Object, *methodParam) {
	oi := optionsParam(sig)
	if oi < 0 || o == nil || !isLocal(o) {
		return nil, nil
	}
	n := userStruct(o.Type())
	if n == nil {
		return nil, nil
	}
	f := structField(n.Origin(), me.Sel.Name)
	if f == nil || c.fieldOf(me) != f || c.assignsField(fd.Body, o, f) || !c.readsAsMethodOnly(fd.Body, o, f.Name()) {
		return nil, nil
	}
	opts := sig.Params().At(oi)
	opt := opts.Type().Underlying().(*types.Slice).Elem().Underlying().(*types.Signature) // optionsParam checked it
	if !types.Identical(opt.Params().At(0).Type().(*types.Pointer).Elem(), n) {
		return nil, nil
	}
	applied := false
	ast.Inspect(fd.Body, func(x ast.Node) bool {
		rs, ok := x.(*ast.RangeStmt)
		if !ok || c.varOf(rs.X) != opts || rs.Value == nil {
			return !applied
		}
		elem := c.varOf(rs.Value)
		ast.Inspect(rs.Body, func(y ast.Node) bool {
			if call, ok := y.(*ast.CallExpr); ok && len(call.Args) == 1 && elem != nil && c.varOf(call.Fun) == elem {
				a := ast.Unparen(call.Args[0])
				if u, ok := a.(*ast.UnaryExpr); ok && u.Op == token.AND {
					a = ast.Unparen(u.X)
				}
				applied = applied || c.varOf(a) == o
			}
			return true
		})
		return !applied
	})
	if !applied {
		return nil, nil
	}
	return opts, &methodParam{index: oi, field: f.Name()}
}

// readsAsMethodOnly reports whether every selection of field name on v
// in body is the method argument of a request construction (a builder's
// or a sender's call): a wrapper that builds an upload on one branch and
// a plain request on another reads the method of its options twice, and
// decides nothing on it.
func (c *checker) readsAsMethodOnly(body *ast.BlockStmt, v types.Object, name string) bool {
	bodyCur, ok := c.find.Find(body)
	if !ok {
		return false
	}
	n := 0
	for cur := range bodyCur.Preorder((*ast.SelectorExpr)(nil)) {
		sel := cur.Node().(*ast.SelectorExpr)
		if sel.Sel.Name != name || c.varOf(sel.X) != v || c.fieldOf(sel) == nil {
			continue
		}
		n++
		call, ok := cur.Parent().Node().(*ast.CallExpr)
		if !ok {
			return false
		}
		mi := c.methodArg(call)
		if mi < 0 {
			if fn := c.callee(call); fn != nil && !typesx.IsInterfaceMethod(fn) {
				mi = c.sendsArg(fn)
			}
		}
		if mi < 0 || arg(call, mi) != ast.Expr(sel) {
			return false
		}
	}
	return n > 0
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
