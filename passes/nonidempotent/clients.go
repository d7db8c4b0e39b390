package nonidempotent

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/typesx"
	"github.com/retrylint/retrylint/internal/varindex"
)

// valueIndex is what the package does with its variables and fields, as
// the retry-site analysis's variable index records it (internal/varindex:
// the values stored to each, the fields set and methods called on it),
// with the random fills of byte slices this pass reads keys from.
type valueIndex struct {
	vx    *varindex.Index
	fills map[types.Object][]*ast.CallExpr // crypto/rand.Read(b) and the like, by buffer
}

func (ix *valueIndex) vals(o types.Object) []ast.Expr {
	if u := ix.vx.Of(o); u != nil {
		return u.Values
	}
	return nil
}

func (ix *valueIndex) cfgs(o types.Object) []varindex.Config {
	if u := ix.vx.Of(o); u != nil {
		return u.Configs
	}
	return nil
}

// defined reports whether o is declared with a value (v := e, var v = e).
func (ix *valueIndex) defined(o types.Object) bool {
	u := ix.vx.Of(o)
	return u != nil && u.Init != nil
}

// addr reports whether o's address is taken.
func (ix *valueIndex) addr(o types.Object) bool {
	u := ix.vx.Of(o)
	return u != nil && u.Addr
}

// incs reports whether o changes other than by a store (++, op=, range).
func (ix *valueIndex) incs(o types.Object) bool {
	u := ix.vx.Of(o)
	return u != nil && u.Changed
}

// values returns the package's value index, built on first use.
func (c *checker) values() *valueIndex {
	if c.pkgVals == nil {
		c.pkgVals = &valueIndex{vx: retrysite.Of(c.pass).Vars(), fills: map[types.Object][]*ast.CallExpr{}}
		c.insp.Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(n ast.Node) {
			c.indexFill(c.pkgVals, n.(*ast.CallExpr))
		})
	}
	return c.pkgVals
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

// indexFill records the random fills of byte slices (crypto/rand.Read(b),
// io.ReadFull(rand.Reader, b)).
func (c *checker) indexFill(ix *valueIndex, call *ast.CallExpr) {
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
	case typesx.IsFunc(fn, "io", "ReadFull"), typesx.IsFunc(fn, "io", "ReadAtLeast"):
		if v, ok := c.objOf(arg(call, 0)).(*types.Var); ok && v.Name() == "Reader" && v.Pkg() != nil && v.Pkg().Path() == "crypto/rand" {
			if obj := c.bufferOf(arg(call, 1)); obj != nil {
				ix.fills[obj] = append(ix.fills[obj], call)
			}
		}
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
	// when, for a send wrapper that retries only when a flag of it is
	// true (KeyFact.RetriesWhen), is the boolean parameter of the
	// sending function passed as that flag: the send retries when it is
	// true. nil for a send that retries whatever its function is given.
	when *types.Var
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
	if r.sender != nil && r.senderRetries && send == r.call {
		return &clientInfo{desc: funcName(c.pass.Pkg, r.sender)}
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
	if f != nil && f.RecvRetries {
		if sel, ok := ast.Unparen(send.Fun).(*ast.SelectorExpr); ok && c.rootKind(r, sel.X, 0) == rootReq {
			return &clientInfo{desc: funcName(c.pass.Pkg, fn)}
		}
	}
	if f == nil || len(f.Retries) == 0 && len(f.RetriesWhen) == 0 {
		return nil
	}
	sig := fn.Type().(*types.Signature)
	for i, a := range send.Args {
		pi := i
		if sig.Variadic() && pi >= sig.Params().Len()-1 {
			pi = sig.Params().Len() - 1
		}
		if c.rootKind(r, a, 0) != rootReq {
			continue
		}
		if slices.Contains(f.Retries, pi) {
			return &clientInfo{desc: funcName(c.pass.Pkg, fn)}
		}
		for _, rw := range f.RetriesWhen {
			if rw[0] != pi || rw[1] >= len(send.Args) || sig.Variadic() && rw[1] >= sig.Params().Len()-1 {
				continue
			}
			flag := send.Args[rw[1]]
			if v, ok := constant.Val(c.constValue(flag)).(bool); ok {
				if v {
					return &clientInfo{desc: funcName(c.pass.Pkg, fn)}
				}
				continue
			}
			if q := c.boolParam(r.fn, flag); q != nil {
				return &clientInfo{desc: funcName(c.pass.Pkg, fn), when: q}
			}
		}
	}
	return nil
}

// constValue returns the constant value of e, or nil.
func (c *checker) constValue(e ast.Expr) constant.Value {
	if tv, ok := c.pass.TypesInfo.Types[e]; ok {
		return tv.Value
	}
	return nil
}

// boolParam returns the boolean parameter of fn that e names, or nil.
func (c *checker) boolParam(fn ast.Node, e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.Kind() != types.ParamVar || !isBoolType(v.Type()) || !astx.DeclaresParam(c.pass.TypesInfo, fn, v) {
		return nil
	}
	return v
}

func isBoolType(t types.Type) bool {
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool
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
	for _, cf := range ix.cfgs(obj) {
		if cf.Field != retryableClient().CountField {
			continue
		}
		if n, ok := c.intConst(cf.Value); ok && n <= 0 {
			return nil
		}
		return &clientInfo{desc: def.desc, at: cf.Value, related: "retries configured here"}
	}
	known := 0
	for _, v := range ix.vals(obj) {
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
	if known > 0 && known == len(ix.vals(obj)) {
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
	for _, cf := range ix.cfgs(obj) {
		if cf.Field == "Transport" {
			if ci := c.transportRetries(cf.Value, depth+1); ci != nil {
				return ci
			}
		}
	}
	for _, v := range ix.vals(obj) {
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
		if !retryapi.IsType(c.pass.TypesInfo.TypeOf(lit), retryapi.RetryableHTTP, "RoundTripper") {
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
	for _, v := range c.values().vals(obj) {
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
	for _, cf := range ix.cfgs(obj) {
		if cf.Call != nil {
			c.walkChain(cf.Call, check)
		}
	}
	if found != nil {
		return found
	}
	for _, v := range ix.vals(obj) {
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
		// A header its function's caller names (func (c *Client)
		// SetHeader(name, value string) { c.resty.SetHeader(name,
		// value) }) is judged by that function's calls in the package.
		outer := c.funcDeclOf(call)
		carried := c.withCarrying(callerParams(c.pass.TypesInfo, outer), func() {
			switch fn.Name() {
			case "SetHeader", "SetHeaderVerbatim":
				c.headerEvent(r, call, arg(call, 0), arg(call, 1))
			case "SetHeaders":
				c.headerMap(r, call, arg(call, 0))
			}
		})
		if len(carried) > 0 {
			c.withCarrying(nil, func() {
				if !c.callersName(outer, carried) {
					found = true
				}
			})
		}
		if r.dynamic || len(r.keys) > 0 {
			found = true
		}
	}
	root := c.walkChain(x, check)
	if obj := c.storeTarget(root); obj != nil && !found {
		ix := c.values()
		for _, cf := range ix.cfgs(obj) {
			if cf.Call != nil {
				c.walkChain(cf.Call, check)
			}
		}
		for _, v := range ix.vals(obj) {
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
