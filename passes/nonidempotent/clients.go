package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// valueIndex records, for every variable and field of the package (or of
// one function body, see bodyValues), the values stored in it, the fields
// assigned on it (c.RetryMax = 0), the methods called on it
// (c.SetRetryCount(3)), and the calls that fill a byte slice with random
// bytes (rand.Read(b)).
type valueIndex struct {
	vals  map[types.Object][]ast.Expr
	cfgs  map[types.Object][]config
	fills map[types.Object][]*ast.CallExpr
	addr  map[types.Object]bool // variables whose address is taken (&v)
	incs  map[types.Object]bool // variables changed by ++, --, op= or a range clause
	defs  map[types.Object]bool // variables declared with a value (v := e, var v = e)
}

// config is a field assignment or a method call on a variable or field.
type config struct {
	field string        // the assigned field, or ""
	value ast.Expr      // its value
	call  *ast.CallExpr // the method call, when field is ""
}

// values returns the package's value index, built on first use.
func (c *checker) values() *valueIndex {
	if c.pkgVals == nil {
		c.pkgVals = newValueIndex()
		for _, f := range c.pass.Files {
			c.index(c.pkgVals, f)
		}
	}
	return c.pkgVals
}

// bodyValues returns the value index of one function body, function
// literals included: all that is known of the variables declared in it,
// at the cost of walking the body alone.
func (c *checker) bodyValues(body *ast.BlockStmt) *valueIndex {
	if c.pkgVals != nil {
		return c.pkgVals
	}
	ix := c.bodyVals[body]
	if ix == nil {
		ix = newValueIndex()
		c.index(ix, body)
		if c.bodyVals == nil {
			c.bodyVals = make(map[*ast.BlockStmt]*valueIndex)
		}
		c.bodyVals[body] = ix
	}
	return ix
}

func newValueIndex() *valueIndex {
	return &valueIndex{
		vals:  make(map[types.Object][]ast.Expr),
		cfgs:  make(map[types.Object][]config),
		fills: make(map[types.Object][]*ast.CallExpr),
		addr:  make(map[types.Object]bool),
		incs:  make(map[types.Object]bool),
		defs:  make(map[types.Object]bool),
	}
}

// index adds to ix the stores, configuration calls and fills under root.
func (c *checker) index(ix *valueIndex, root ast.Node) {
	store := func(lhs, rhs ast.Expr) {
		if obj := c.storeTarget(lhs); obj != nil {
			ix.vals[obj] = append(ix.vals[obj], rhs)
		}
		if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok {
			if s := c.pass.TypesInfo.Selections[sel]; s != nil && s.Kind() == types.FieldVal {
				if obj := c.storeTarget(sel.X); obj != nil {
					ix.cfgs[obj] = append(ix.cfgs[obj], config{field: sel.Sel.Name, value: rhs})
				}
			}
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					if obj := c.storeTarget(l); obj != nil {
						ix.incs[obj] = true
					}
				}
				break
			}
			if len(n.Lhs) == len(n.Rhs) {
				for i := range n.Lhs {
					store(n.Lhs[i], n.Rhs[i])
				}
			} else if len(n.Rhs) == 1 {
				store(n.Lhs[0], n.Rhs[0])
			}
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && c.pass.TypesInfo.Defs[id] != nil {
						ix.defs[c.pass.TypesInfo.Defs[id]] = true
					}
				}
			}
		case *ast.ValueSpec:
			if len(n.Values) > 0 {
				for _, id := range n.Names {
					if obj := c.pass.TypesInfo.Defs[id]; obj != nil {
						ix.defs[obj] = true
					}
				}
			}
			for i, name := range n.Names {
				if len(n.Names) == len(n.Values) {
					store(name, n.Values[i])
				} else if len(n.Values) == 1 && i == 0 {
					store(name, n.Values[0])
				}
			}
		case *ast.CompositeLit:
			for _, elt := range n.Elts {
				kv, ok := elt.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if k, ok := kv.Key.(*ast.Ident); ok {
					if v, ok := c.pass.TypesInfo.Uses[k].(*types.Var); ok && v.IsField() {
						ix.vals[v] = append(ix.vals[v], kv.Value)
					}
				}
			}
		case *ast.CallExpr:
			c.indexCall(ix, n)
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if obj := c.storeTarget(n.X); obj != nil {
					ix.addr[obj] = true
				}
			}
		case *ast.IncDecStmt:
			if obj := c.storeTarget(n.X); obj != nil {
				ix.incs[obj] = true
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if e == nil {
					continue
				}
				if obj := c.storeTarget(e); obj != nil {
					ix.incs[obj] = true
				}
			}
		}
		return true
	})
}

// storeTarget returns the variable or field that an expression stored to
// names: x, pkg.X, s.f (the field f, whatever s is).
func (c *checker) storeTarget(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		if e.Name == "_" {
			return nil
		}
		if v, ok := c.pass.TypesInfo.ObjectOf(e).(*types.Var); ok {
			return v
		}
	case *ast.SelectorExpr:
		if v, ok := c.pass.TypesInfo.ObjectOf(e.Sel).(*types.Var); ok {
			return v
		}
	case *ast.StarExpr:
		return c.storeTarget(e.X)
	}
	return nil
}

// indexCall records method calls on variables and fields (through method
// chains: c.SetRetryCount(3).SetHeader(...)) and random fills.
func (c *checker) indexCall(ix *valueIndex, call *ast.CallExpr) {
	fn := c.callee(call)
	if fn == nil {
		return
	}
	switch {
	case typesx.IsFunc(fn, "crypto/rand", "Read"), typesx.IsFunc(fn, "math/rand", "Read"),
		typesx.PkgPath(fn) == "math/rand" && typesx.RecvName(fn) == "Rand" && fn.Name() == "Read":
		if obj := c.bufferOf(arg(call, 0)); obj != nil {
			ix.fills[obj] = append(ix.fills[obj], call)
		}
		return
	case typesx.IsFunc(fn, "io", "ReadFull"), typesx.IsFunc(fn, "io", "ReadAtLeast"):
		if v, ok := c.objOf(arg(call, 0)).(*types.Var); ok && v.Name() == "Reader" && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" {
			if obj := c.bufferOf(arg(call, 1)); obj != nil {
				ix.fills[obj] = append(ix.fills[obj], call)
			}
		}
		return
	}
	if !isResty(typesx.PkgPath(fn)) || typesx.RecvName(fn) != "Client" {
		return
	}
	x := ast.Expr(call)
	for depth := 0; depth < 50; depth++ {
		cl, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			break
		}
		sel, ok := ast.Unparen(cl.Fun).(*ast.SelectorExpr)
		if !ok {
			return
		}
		x = sel.X
	}
	if obj := c.storeTarget(x); obj != nil {
		ix.cfgs[obj] = append(ix.cfgs[obj], config{call: call})
	}
}

// bufferOf returns the variable of a byte slice expression: b, b[:], b[i:j].
func (c *checker) bufferOf(e ast.Expr) types.Object {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.SliceExpr:
			e = x.X
			continue
		case *ast.Ident:
			return c.varOf(x)
		}
		return nil
	}
}

// clientInfo describes a retrying client.
type clientInfo struct {
	desc    string   // for messages: "the retryablehttp client"
	at      ast.Node // where it is configured to retry, nil when not visible
	related string
}

// sendClient returns the retrying client a send goes through, or nil.
func (c *checker) sendClient(r *request, send *ast.CallExpr) *clientInfo {
	if r.kind == kindResty {
		if r.client == nil {
			if r.wrap != nil && r.wrap.retries {
				return &clientInfo{desc: "the resty client of " + funcName(c.pass.Pkg, r.wrap.fn)}
			}
			return nil
		}
		return c.restyRetries(r.client, 0)
	}
	fn := c.callee(send)
	if fn == nil {
		return nil
	}
	if ci := c.retryingWrapper(r, send, fn); ci != nil {
		return ci
	}
	sel, _ := ast.Unparen(send.Fun).(*ast.SelectorExpr)
	path, recv := typesx.PkgPath(fn), typesx.RecvName(fn)
	switch {
	case isRetryable(path) && recv == "" && r.kind == kindPost:
		return &clientInfo{desc: "the default retryablehttp client"}
	case isRetryable(path) && recv == "Client" && sel != nil:
		return c.retryableRetries(sel.X, 0)
	case path == "net/http" && recv == "Client" && sel != nil && (fn.Name() == "Do" || r.kind == kindPost):
		return c.httpClientRetries(sel.X, 0)
	}
	return nil
}

// retryingWrapper returns the function of the user's code a send goes
// through when it resends the request inside a retry site (KeyFact.Retries).
func (c *checker) retryingWrapper(r *request, send *ast.CallExpr, fn *types.Func) *clientInfo {
	if r.kind != kindValue || typesx.IsInterfaceMethod(fn) {
		return nil
	}
	f := c.keyFact(fn)
	if f == nil || len(f.Retries) == 0 {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	for i, a := range send.Args {
		pi := i
		if sig.Variadic() && pi >= sig.Params().Len()-1 {
			pi = sig.Params().Len() - 1
		}
		if c.rootKind(r, a, 0) == rootReq && slices.Contains(f.Retries, pi) {
			return &clientInfo{desc: funcName(c.pass.Pkg, fn)}
		}
	}
	return nil
}

// funcName names a function for messages: f, pkg.F, T.M.
func funcName(from *types.Package, fn *types.Func) string {
	if recv := typesx.RecvName(fn); recv != "" {
		return recv + "." + fn.Name()
	}
	if fn.Pkg() != nil && fn.Pkg() != from {
		return fn.Pkg().Name() + "." + fn.Name()
	}
	return fn.Name()
}

// retryableRetries judges a *retryablehttp.Client expression. Such a
// client retries by default (RetryMax 4): it does not when every value
// stored in it is a literal without RetryMax, or RetryMax is set to 0.
func (c *checker) retryableRetries(x ast.Expr, depth int) *clientInfo {
	def := &clientInfo{desc: "the retryablehttp client"}
	if depth > 4 {
		return def
	}
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	switch e := x.(type) {
	case *ast.CallExpr:
		if en := c.clientConstructor(e); en != nil {
			return &clientInfo{desc: def.desc, at: e, related: "retryablehttp client built here (" + en.Default.Note + ")"}
		}
		return def
	case *ast.CompositeLit:
		return c.retryableLit(e)
	}
	obj := c.storeTarget(x)
	if obj == nil {
		return def
	}
	ix := c.values()
	for _, cf := range ix.cfgs[obj] {
		if cf.field != retryableClient().CountField {
			continue
		}
		if n, ok := c.intConst(cf.value); ok && n <= 0 {
			return nil
		}
		return &clientInfo{desc: def.desc, at: cf.value, related: "retries configured here"}
	}
	known := 0
	for _, v := range ix.vals[obj] {
		v = ast.Unparen(v)
		if u, ok := v.(*ast.UnaryExpr); ok && u.Op == token.AND {
			v = ast.Unparen(u.X)
		}
		switch v := v.(type) {
		case *ast.CompositeLit:
			if ci := c.retryableLit(v); ci != nil {
				return ci
			}
			known++
		case *ast.CallExpr:
			if en := c.clientConstructor(v); en != nil {
				return &clientInfo{desc: def.desc, at: v, related: "retryablehttp client built here (" + en.Default.Note + ")"}
			}
		case *ast.Ident:
			if _, isNil := c.pass.TypesInfo.Uses[v].(*types.Nil); isNil {
				known++
				break
			}
			// A local variable: what is stored in it.
			if lv := c.varOf(v); lv != nil && isLocal(lv) && lv != obj {
				ci := c.retryableRetries(v, depth+1)
				switch {
				case ci == nil:
					known++
				case ci.at != nil:
					return ci
				}
			}
		}
	}
	if known > 0 && known == len(ix.vals[obj]) {
		return nil // only literals without retries (and nil)
	}
	return def
}

// clientConstructor returns the table entry of a go-retryablehttp call
// that builds a client retrying by default (NewClient), or nil.
func (c *checker) clientConstructor(call *ast.CallExpr) *retryapi.Entry {
	e := retryapi.Of(c.callee(call))
	if e == nil || e.Library != retryapi.RetryableHTTP || e.Form != retryapi.ClientConfig || e.CountField == "" {
		return nil
	}
	return e
}

// retryableClient is the table entry of a go-retryablehttp Client
// literal: its count field.
func retryableClient() *retryapi.Entry { return retryapi.Lookup(retryapi.RetryableClient) }

// retryableLit judges &retryablehttp.Client{...}: the zero RetryMax makes
// one attempt.
func (c *checker) retryableLit(lit *ast.CompositeLit) *clientInfo {
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == retryableClient().CountField {
			if n, ok := c.intConst(kv.Value); ok && n <= 0 {
				return nil
			}
			return &clientInfo{desc: "the retryablehttp client", at: lit, related: "retryablehttp client built here"}
		}
	}
	return nil
}

// httpClientRetries judges an *http.Client expression: it retries when it
// is a retryablehttp client's StandardClient or its Transport is a
// retryablehttp.RoundTripper.
func (c *checker) httpClientRetries(x ast.Expr, depth int) *clientInfo {
	if depth > 4 {
		return nil
	}
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	switch e := x.(type) {
	case *ast.CallExpr:
		return c.standardClient(e)
	case *ast.CompositeLit:
		return c.httpClientLit(e, depth)
	}
	obj := c.storeTarget(x)
	if obj == nil {
		return nil
	}
	ix := c.values()
	for _, cf := range ix.cfgs[obj] {
		if cf.field == "Transport" {
			if ci := c.transportRetries(cf.value, depth+1); ci != nil {
				return ci
			}
		}
	}
	for _, v := range ix.vals[obj] {
		if ci := c.httpClientRetries(v, depth+1); ci != nil {
			return ci
		}
	}
	return nil
}

// standardClient judges rc.StandardClient().
func (c *checker) standardClient(call *ast.CallExpr) *clientInfo {
	fn := c.callee(call)
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || fn == nil || !isRetryable(typesx.PkgPath(fn)) || fn.Name() != "StandardClient" {
		return nil
	}
	return c.retryableRetries(sel.X, 1)
}

func (c *checker) httpClientLit(lit *ast.CompositeLit, depth int) *clientInfo {
	if !typesx.IsNamed(c.pass.TypesInfo.TypeOf(lit), "net/http", "Client") {
		return nil
	}
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Transport" {
				return c.transportRetries(kv.Value, depth+1)
			}
		}
	}
	return nil
}

// transportRetries judges an http.RoundTripper expression.
func (c *checker) transportRetries(x ast.Expr, depth int) *clientInfo {
	if depth > 4 {
		return nil
	}
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	if lit, ok := x.(*ast.CompositeLit); ok {
		if !isLibNamed(c.pass.TypesInfo.TypeOf(lit), retryapi.RetryableHTTP, "RoundTripper") {
			return nil
		}
		for _, elt := range lit.Elts {
			if kv, ok := elt.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Client" {
					return c.retryableRetries(kv.Value, depth+1)
				}
			}
		}
		// A RoundTripper without a Client makes a default one.
		return &clientInfo{desc: "the retryablehttp round tripper", at: lit, related: "retrying transport built here"}
	}
	obj := c.storeTarget(x)
	if obj == nil {
		return nil
	}
	for _, v := range c.values().vals[obj] {
		if ci := c.transportRetries(v, depth+1); ci != nil {
			return ci
		}
	}
	return nil
}

// restyRetries judges a resty client expression: it retries when a
// SetRetryCount with a positive (or non-constant) count is applied to it,
// in its own chain, on the variable in the function, or on the field
// anywhere in the package.
func (c *checker) restyRetries(x ast.Expr, depth int) *clientInfo {
	if depth > 4 {
		return nil
	}
	var found *clientInfo
	check := func(call *ast.CallExpr) {
		e := retryapi.Of(c.callee(call))
		if found != nil || e == nil || e.Library != retryapi.Resty || e.Count < 0 {
			return
		}
		if n, ok := c.intConst(arg(call, e.Count)); ok && n <= 0 {
			return
		}
		found = &clientInfo{desc: "resty", at: call, related: "retries enabled here"}
	}
	root := c.walkChain(x, check)
	if found != nil {
		return found
	}
	obj := c.storeTarget(root)
	if obj == nil {
		return nil
	}
	ix := c.values()
	for _, cf := range ix.cfgs[obj] {
		if cf.call != nil {
			c.walkChain(cf.call, check)
		}
	}
	if found != nil {
		return found
	}
	for _, v := range ix.vals[obj] {
		if ci := c.restyRetries(v, depth+1); ci != nil {
			return ci
		}
	}
	return nil
}

// restyClientKey reports whether a resty client sets an idempotency key,
// or headers the pass cannot name, on every request.
func (c *checker) restyClientKey(x ast.Expr, depth int) bool {
	if depth > 4 {
		return false
	}
	found := false
	check := func(call *ast.CallExpr) {
		fn := c.callee(call)
		if fn == nil || !isResty(typesx.PkgPath(fn)) || typesx.RecvName(fn) != "Client" {
			return
		}
		r := &request{}
		switch fn.Name() {
		case "SetHeader", "SetHeaderVerbatim":
			c.headerEvent(r, call, arg(call, 0), arg(call, 1))
		case "SetHeaders":
			c.headerMap(r, call, arg(call, 0))
		}
		if r.dynamic || len(r.keys) > 0 {
			found = true
		}
	}
	root := c.walkChain(x, check)
	if obj := c.storeTarget(root); obj != nil && !found {
		ix := c.values()
		for _, cf := range ix.cfgs[obj] {
			if cf.call != nil {
				c.walkChain(cf.call, check)
			}
		}
		for _, v := range ix.vals[obj] {
			found = found || c.restyClientKey(v, depth+1)
		}
	}
	return found
}

// walkChain calls f for every call of a method chain x = a.M1(...).M2(...)
// and returns the chain's root a.
func (c *checker) walkChain(x ast.Expr, f func(*ast.CallExpr)) ast.Expr {
	for depth := 0; depth < 50; depth++ {
		call, ok := ast.Unparen(x).(*ast.CallExpr)
		if !ok {
			break
		}
		f(call)
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return call
		}
		x = sel.X
	}
	return x
}
