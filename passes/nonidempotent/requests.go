package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// reqKind says how a request is built and sent.
type reqKind uint8

const (
	kindValue reqKind = iota // a request value (*http.Request, *retryablehttp.Request) sent later
	kindResty                // a resty request, sent by its Post, Patch or Execute method
	kindPost                 // http.Post and friends: one call builds and sends
)

// request is one POST or PATCH request and what its function does with it.
type request struct {
	kind     reqKind
	method   string            // "POST" or "PATCH"
	call     *ast.CallExpr     // the construction; for resty and kindPost, the sending call; nil for a literal
	lit      *ast.CompositeLit // the construction when it is a literal: &http.Request{Method: ...}, a description's
	pos, end token.Pos         // where a diagnostic goes
	fn       ast.Node          // the *ast.FuncDecl or *ast.FuncLit whose body holds the uses
	vars     map[types.Object]bool
	hdrs     map[types.Object]bool // variables holding the request's header map
	sends    []*ast.CallExpr       // calls that send it, in source order
	keys     []keyEvent            // places that set an idempotency key on it
	dynamic  bool                  // headers are set that the pass cannot name
	escapes  bool                  // the request leaves the function's sight (stored, sent on a channel)
	returned bool                  // the function returns it
	sender   *types.Func           // for kindPost: the function of the user's code that builds and sends it (KeyFact.SendsMethod, Sends)
	// senderRetries: the sender retries it itself (KeyFact.SendsMethod).
	senderRetries bool
	from          types.Object      // in a converter (KeyFact.Converts): the description it converts, whose headers it carries
	handed        []*ast.CallExpr   // function values, interface methods and functions setting headers it cannot name that it is handed to
	rets          []*ast.ReturnStmt // returns of it, which make it the caller's unless it was sent before
	// resty only
	client  ast.Expr      // the client expression (c in c.R()), nil when unknown
	rcall   *ast.CallExpr // the c.R() call of an inline chain
	wrap    *restyWrap    // the wrapper of the user's code that made the request, if one did
	rconstr *ast.CallExpr // the call that made the request: c.R() or the wrapper's
	rambig  bool          // several calls may have made it
}

// keyEvent is a place that sets an idempotency-key header.
type keyEvent struct {
	node   ast.Node      // the call or assignment that sets it
	value  ast.Expr      // the key's value, nil when a helper sets it
	helper *ast.CallExpr // a helper that generates the key itself on every call
}

// requestAt returns the POST or PATCH request that the call at cur builds
// (or builds and sends), or nil.
func (c *checker) requestAt(cur inspector.Cursor) *request {
	if lit, ok := cur.Node().(*ast.CompositeLit); ok {
		// A request literal, or a description's (describe.go).
		me, ok := c.litMethod(lit)
		if !ok || me == nil {
			return nil
		}
		m := c.method(me)
		if m == "" {
			return nil
		}
		return c.valueRequest(cur, lit, m)
	}
	call := cur.Node().(*ast.CallExpr)
	fn := c.callee(call)
	if fn == nil {
		return nil
	}
	path, name, recv := typesx.PkgPath(fn), fn.Name(), typesx.RecvName(fn)
	switch {
	case (path == "net/http" || isRetryable(path)) && recv == "" && (name == "NewRequest" || name == "NewRequestWithContext"):
		mi := 0
		if name == "NewRequestWithContext" {
			mi = 1
		}
		m := c.method(arg(call, mi))
		if m == "" {
			return nil
		}
		return c.valueRequest(cur, call, m)
	case (path == "net/http" || isRetryable(path)) && (recv == "" || recv == "Client") && (name == "Post" || name == "PostForm"):
		r := &request{kind: kindPost, method: "POST", call: call, pos: call.Pos(), end: call.End(), fn: astx.EnclosingFunc(cur)}
		r.sends = []*ast.CallExpr{call}
		return r
	case !typesx.IsInterfaceMethod(fn) && !(path == "net/http" || isRetryable(path) || isResty(path)) && c.methodArg(call) >= 0:
		// A request-building wrapper (KeyFact.Builds): the call is the
		// construction.
		m := c.method(c.methodOf(call, c.methodArg(call)))
		if m == "" {
			return nil
		}
		return c.valueRequest(cur, call, m)
	case !typesx.IsInterfaceMethod(fn) && !(path == "net/http" || isRetryable(path) || isResty(path)) && c.sendsArg(fn) >= 0 && c.carriedKeyless(call, fn):
		// A function that builds the request with the method it is
		// given and sends it, retrying it itself or not
		// (KeyFact.SendsMethod, Sends): the call builds and sends.
		mi, retries := c.sendsMethodArg(fn)
		m := c.method(c.methodOf(call, mi))
		if m == "" {
			return nil
		}
		r := &request{kind: kindPost, method: m, call: call, pos: call.Pos(), end: call.End(), fn: astx.EnclosingFunc(cur), sender: fn, senderRetries: retries}
		r.sends = []*ast.CallExpr{call}
		return r
	case isResty(path) && recv == "Request" && (name == "Post" || name == "Patch" || name == "Execute"):
		m := c.restyMethod(call)
		if m == "" || c.callersMethod(cur, m) {
			return nil
		}
		return c.restyRequest(cur, call, m)
	}
	return nil
}

// restyMethod returns the method a resty request's Post, Patch or Execute
// call sends when it is POST or PATCH; "" otherwise.
func (c *checker) restyMethod(call *ast.CallExpr) string {
	fn := c.callee(call)
	if fn == nil || !isResty(typesx.PkgPath(fn)) || typesx.RecvName(fn) != "Request" {
		return ""
	}
	switch fn.Name() {
	case "Post", "Patch":
		return strings.ToUpper(fn.Name())
	case "Execute":
		return c.method(arg(call, 0))
	}
	return ""
}

// methodCase returns, when the call at cur sends method (POST, PATCH) in
// a case clause of a switch on a string parameter of its function
// declaration, which lists only that method (switch method { case "POST":
// req.Post(endpoint) }, also in a function literal of the declaration),
// the switch's tag: the caller's method chooses the send. nil otherwise.
func (c *checker) methodCase(cur inspector.Cursor, method string) *ast.Ident {
	var fd *ast.FuncDecl
	for p := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		fd = p.Node().(*ast.FuncDecl)
		break
	}
	if fd == nil {
		return nil
	}
	for p := range cur.Enclosing((*ast.CaseClause)(nil)) {
		cc := p.Node().(*ast.CaseClause)
		sw, ok := p.Parent().Parent().Node().(*ast.SwitchStmt)
		if !ok || sw.Init != nil || len(cc.List) == 0 {
			return nil
		}
		tag, ok := ast.Unparen(sw.Tag).(*ast.Ident)
		if !ok {
			return nil
		}
		v, ok := c.pass.TypesInfo.Uses[tag].(*types.Var)
		if !ok || v.Kind() != types.ParamVar || !isString(v.Type()) || !astx.DeclaresParam(c.pass.TypesInfo, fd, v) {
			return nil
		}
		for _, e := range cc.List {
			if s, ok := c.stringConst(e); !ok || !strings.EqualFold(s, method) {
				return nil
			}
		}
		return tag
	}
	return nil
}

// callersMethod reports whether the call at cur sends method only where
// the caller of its function declaration asks for it, a parameter the
// declaration passes on unread but to choose the send (methodCase, and
// KeyFact.SendsMethod or Sends name it): the caller's call is then the
// construction.
func (c *checker) callersMethod(cur inspector.Cursor, method string) bool {
	tag := c.methodCase(cur, method)
	if tag == nil {
		return false
	}
	for p := range cur.Enclosing((*ast.FuncDecl)(nil)) {
		fn, ok := c.pass.TypesInfo.Defs[p.Node().(*ast.FuncDecl).Name].(*types.Func)
		if !ok {
			return false
		}
		i := c.sendsArg(fn)
		sig := fn.Type().(*types.Signature)
		return i >= 0 && i < sig.Params().Len() && sig.Params().At(i) == c.pass.TypesInfo.Uses[tag]
	}
	return false
}

// method returns "POST" or "PATCH" when e is a constant naming one of them
// in any case, or a local variable assigned once, from such a constant
// (method := http.MethodPatch), and never through a pointer; else "".
func (c *checker) method(e ast.Expr) string {
	s, ok := c.stringConst(e)
	if !ok {
		v := c.varOf(e)
		if v == nil || !isLocal(v) {
			return ""
		}
		ix := c.values()
		vals := ix.vals(v)
		if len(vals) != 1 || !ix.defined(v) || ix.addr(v) || ix.incs(v) {
			return ""
		}
		if s, ok = c.stringConst(vals[0]); !ok {
			return ""
		}
	}
	switch {
	case strings.EqualFold(s, "POST"):
		return "POST"
	case strings.EqualFold(s, "PATCH"):
		return "PATCH"
	}
	return ""
}

// valueRequest follows the request value that ctor (a call, or a
// request literal) builds through the variables of its function.
func (c *checker) valueRequest(cur inspector.Cursor, ctor ast.Expr, method string) *request {
	return c.valueRequestFrom(cur, ctor, method, nil)
}

// valueRequestFrom is valueRequest for the request a converter builds
// from the description from (KeyFact.Converts): the headers copied from
// the description's own header fields are the description's.
func (c *checker) valueRequestFrom(cur inspector.Cursor, ctor ast.Expr, method string, from types.Object) *request {
	var obj types.Object
	if u, ok := cur.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
		cur = cur.Parent()
	}
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Rhs) == 1 && len(p.Lhs) >= 1 {
			obj = c.varOf(p.Lhs[0])
		}
	case *ast.ValueSpec:
		if len(p.Values) == 1 && len(p.Names) >= 1 {
			obj = c.varOf(p.Names[0])
		}
	}
	fn := astx.EnclosingFunc(cur)
	if obj == nil || fn == nil {
		return nil
	}
	r := &request{
		kind: kindValue, method: method, pos: ctor.Pos(), end: ctor.End(), fn: fn,
		vars: map[types.Object]bool{obj: true}, hdrs: map[types.Object]bool{}, from: from,
	}
	switch ctor := ctor.(type) {
	case *ast.CallExpr:
		r.call = ctor
	case *ast.CompositeLit:
		r.lit = ctor
		c.litHeaders(r, ctor)
	}
	c.collect(r)
	return r
}

// ctorArgs returns the expressions the request's construction is made
// of: the call's arguments, the literal's element values.
func (r *request) ctorArgs() []ast.Expr {
	if r.lit != nil {
		var out []ast.Expr
		for _, e := range r.lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			out = append(out, e)
		}
		return out
	}
	if r.call != nil {
		return r.call.Args
	}
	return nil
}

// restyRequest follows a resty request sent by call: the inline chain from
// c.R() and, when the chain starts at a variable, that variable's uses.
func (c *checker) restyRequest(cur inspector.Cursor, call *ast.CallExpr, method string) *request {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	fn := astx.EnclosingFunc(cur)
	if !ok || fn == nil {
		return nil
	}
	r := &request{
		kind: kindResty, method: method, call: call, pos: sel.Sel.Pos(), end: call.End(), fn: fn,
		vars: map[types.Object]bool{}, hdrs: map[types.Object]bool{},
	}
	r.sends = []*ast.CallExpr{call}
	c.restyFrom(r, sel.X)
	if r.rconstr != nil && !r.rambig {
		// The construction is the R() call (docs/design.md, Where diagnostics go).
		r.pos, r.end = r.rconstr.Pos(), r.rconstr.End()
	}
	return r
}

// restyChain walks a resty request chain down from x (x.SetHeader(...)...)
// recording header events, to the client's R() call, whose client it
// records; it returns the variable the chain starts at, if any. inline
// says whether the R() call belongs to the chain of the sending call.
func (c *checker) restyChain(r *request, x ast.Expr, inline bool) types.Object {
	for depth := 0; depth < 50; depth++ {
		x = ast.Unparen(x)
		call, ok := x.(*ast.CallExpr)
		if !ok {
			break
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		f := c.callee(call)
		if f != nil && !isResty(typesx.PkgPath(f)) && !typesx.IsInterfaceMethod(f) {
			if kf := c.keyFact(f); kf != nil && kf.Resty {
				// A wrapper of the user's code that returns a new request.
				r.wrap = &restyWrap{fn: f, retries: kf.RestyRetries}
				r.constructed(call)
				if inline {
					r.rcall = call
				}
				return nil
			}
		}
		if !ok || f == nil || !isResty(typesx.PkgPath(f)) {
			r.dynamic = true // built by code we do not follow
			return nil
		}
		switch typesx.RecvName(f) {
		case "Client":
			if f.Name() == "R" || f.Name() == "NewRequest" {
				r.client = sel.X
				r.constructed(call)
				if inline {
					r.rcall = call
				}
				return nil
			}
			r.dynamic = true
			return nil
		case "Request":
			c.restyEvent(r, call, f.Name())
			x = sel.X
			continue
		}
		r.dynamic = true
		return nil
	}
	if id, ok := x.(*ast.Ident); ok {
		if v := c.varOf(id); v != nil {
			return v
		}
	}
	r.dynamic = true
	return nil
}

// restyEvent records what a resty request method does to headers.
func (c *checker) restyEvent(r *request, call *ast.CallExpr, name string) {
	switch name {
	case "SetHeader", "SetHeaderVerbatim":
		c.headerEvent(r, call, arg(call, 0), arg(call, 1))
	case "SetHeaders", "SetHeaderMultiValues":
		c.headerMap(r, call, arg(call, 0))
	}
}

// headerEvent records a header set with the given name and value.
func (c *checker) headerEvent(r *request, node ast.Node, name, value ast.Expr) {
	s, ok := c.stringConst(name)
	if !ok && r.from != nil && c.copiedFrom(node, name, r.from) {
		return // the description's own headers: their keys are set on it
	}
	if !ok {
		if v := c.varOf(name); v != nil && c.carrying[v] {
			c.carried[v] = true // named by the caller (hookClean)
			return
		}
		if judged, keyed := c.resultName(name); judged {
			if keyed {
				r.keys = append(r.keys, keyEvent{node: node, value: value})
			}
			return
		}
		if judged, keyed := c.copiedHeader(node, name); !judged || keyed {
			r.dynamic = true
		}
		return
	}
	if c.isKeyHeader(s) {
		r.keys = append(r.keys, keyEvent{node: node, value: value})
	}
}

// headerMap records the headers of a map literal; any other map may hold
// anything.
func (c *checker) headerMap(r *request, node ast.Node, m ast.Expr) {
	m = ast.Unparen(m)
	if u, ok := m.(*ast.UnaryExpr); ok && u.Op == token.AND {
		m = ast.Unparen(u.X)
	}
	if call, ok := m.(*ast.CallExpr); ok {
		if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
			if b, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok && b.Name() == "make" {
				return // an empty map
			}
		}
	}
	lit, ok := m.(*ast.CompositeLit)
	if !ok {
		if judged, keyed := c.mapKeys(m, 0); !judged || keyed {
			r.dynamic = true
		}
		return
	}
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			r.dynamic = true
			continue
		}
		c.headerEvent(r, node, kv.Key, kv.Value)
	}
}

// collect finds the aliases of the request's variables and classifies
// every use of them in the function.
func (c *checker) collect(r *request) {
	body := astx.FuncBody(r.fn)
	if body == nil {
		return
	}
	c.aliases(r, body)
	bodyCur, ok := c.find.Find(body)
	if !ok {
		return
	}
	for cur := range bodyCur.Preorder((*ast.Ident)(nil)) {
		obj := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)]
		if obj == nil || !r.vars[obj] && !r.hdrs[obj] {
			continue
		}
		c.classify(r, cur, r.hdrs[obj])
	}
	slices.SortFunc(r.sends, func(a, b *ast.CallExpr) int { return int(a.Pos() - b.Pos()) })
	for _, h := range r.handed {
		if !c.afterSends(r, h, body) {
			r.dynamic = true
		}
	}
	for _, ret := range r.rets {
		if !c.returnsSent(r, ret, body) {
			r.returned = true
		}
	}
}

// returnsSent reports whether a return of the request comes after every
// send of it, in the function's own body (not a function literal's), with
// no goto that can bring it before one: the function returns a request it
// sent, with its response ((res, req, err)), and is no builder.
func (c *checker) returnsSent(r *request, ret *ast.ReturnStmt, body *ast.BlockStmt) bool {
	if len(r.sends) == 0 || ret.Pos() < r.sends[len(r.sends)-1].End() {
		return false
	}
	back := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BranchStmt:
			back = back || n.Tok == token.GOTO
		case *ast.FuncLit:
			back = back || n.Pos() <= ret.Pos() && ret.Pos() < n.End()
		}
		return !back
	})
	return !back
}

// afterSends reports whether a call that takes the request runs only
// after it was sent: it follows every send, and no loop or goto of the
// function can bring it back before one (a callback told of a request
// sent, as hooks(req, resp) after the send).
func (c *checker) afterSends(r *request, call *ast.CallExpr, body *ast.BlockStmt) bool {
	if len(r.sends) == 0 || call.Pos() < r.sends[len(r.sends)-1].End() {
		return false
	}
	back := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			back = back || n.Pos() <= call.Pos() && call.Pos() < n.End()
		case *ast.BranchStmt:
			back = back || n.Tok == token.GOTO
		case *ast.FuncLit:
			back = back || n.Pos() <= call.Pos() && call.Pos() < n.End()
		}
		return !back
	})
	return !back
}

// aliases adds to the request's variables those assigned from them:
// w := req, req2 := req.WithContext(ctx), rr, _ := retryablehttp.FromRequest(req),
// h := req.Header.
func (c *checker) aliases(r *request, body *ast.BlockStmt) {
	for changed := true; changed; {
		changed = false
		consider := func(lhs ast.Expr, rhs ast.Expr) {
			v := c.varOf(lhs)
			if v == nil || r.vars[v] || r.hdrs[v] {
				return
			}
			switch c.rootKind(r, rhs, 0) {
			case rootReq:
				r.vars[v], changed = true, true
			case rootHdr:
				r.hdrs[v], changed = true, true
			}
		}
		ast.Inspect(body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i := range n.Lhs {
						consider(n.Lhs[i], n.Rhs[i])
					}
				} else if len(n.Rhs) == 1 {
					consider(n.Lhs[0], n.Rhs[0])
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for i := range n.Names {
						consider(n.Names[i], n.Values[i])
					}
				} else if len(n.Values) == 1 {
					consider(n.Names[0], n.Values[0])
				}
			}
			return true
		})
	}
}

const (
	rootNone = iota
	rootReq
	rootHdr
)

// rootKind says whether x denotes the request (or a copy sharing its
// headers) or its header map.
func (c *checker) rootKind(r *request, x ast.Expr, depth int) int {
	if depth > 10 {
		return rootNone
	}
	switch x := ast.Unparen(x).(type) {
	case *ast.UnaryExpr:
		if x.Op == token.AND && c.rootKind(r, x.X, depth+1) == rootReq {
			return rootReq // the address of a request value
		}
	case *ast.Ident:
		obj := c.pass.TypesInfo.Uses[x]
		switch {
		case r.vars[obj]:
			return rootReq
		case r.hdrs[obj]:
			return rootHdr
		}
	case *ast.SelectorExpr:
		if sel := c.pass.TypesInfo.Selections[x]; sel != nil && sel.Kind() == types.FieldVal {
			if holderField(c.pass.TypesInfo.TypeOf(x.X)) == sel.Obj() && c.rootKind(r, x.X, depth+1) == rootReq {
				return rootReq
			}
			switch {
			case x.Sel.Name == "Request":
				if c.rootKind(r, x.X, depth+1) == rootReq {
					return rootReq
				}
			case c.isHeaderField(x):
				if c.rootKind(r, x.X, depth+1) == rootReq {
					return rootHdr
				}
			}
		}
	case *ast.CompositeLit:
		// A request holder built around the request: cfg :=
		// RequestConfig{Request: req} holds it.
		if hf := holderField(c.pass.TypesInfo.TypeOf(x)); hf != nil {
			for _, el := range x.Elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				if key, ok := kv.Key.(*ast.Ident); ok && c.pass.TypesInfo.ObjectOf(key) == hf && c.rootKind(r, kv.Value, depth+1) == rootReq {
					return rootReq
				}
			}
		}
	case *ast.CallExpr:
		f := c.callee(x)
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		switch {
		case f == nil:
		case (typesx.PkgPath(f) == "net/http" || isRetryable(typesx.PkgPath(f))) && typesx.RecvName(f) == "Request" && (f.Name() == "WithContext" || f.Name() == "Clone") && ok:
			return c.rootKind(r, sel.X, depth+1)
		case isLibFunc(f, retryapi.RetryableHTTP, "FromRequest"):
			return c.rootKind(r, arg(x, 0), depth+1)
		case isResty(typesx.PkgPath(f)) && typesx.RecvName(f) == "Request" && ok && isRestyRequest(c.pass.TypesInfo.TypeOf(x)):
			return c.rootKind(r, sel.X, depth+1)
		case ok && c.converts(f):
			// A description's converter: its result is the request.
			if c.rootKind(r, sel.X, depth+1) == rootReq {
				return rootReq
			}
		}
	}
	return rootNone
}

// classify judges one use of a request variable (or of its header map).
func (c *checker) classify(r *request, e inspector.Cursor, isHdr bool) {
	for depth := 0; depth < 50; depth++ {
		p := e.Parent()
		node := e.Node()
		switch pn := p.Node().(type) {
		case *ast.ParenExpr:
			e = p
			continue
		case *ast.SelectorExpr:
			if pn.X != node {
				return
			}
			if sel := c.pass.TypesInfo.Selections[pn]; sel != nil && sel.Kind() == types.FieldVal {
				if !isHdr && holderField(c.pass.TypesInfo.TypeOf(pn.X)) == sel.Obj() {
					e = p // the holder's request
					continue
				}
				switch {
				case c.isHeaderField(pn) && !isHdr:
					isHdr = true
					e = p
					continue
				case pn.Sel.Name == "Request" && !isHdr:
					e = p
					continue
				}
				return // another field: URL, Body, ... hold no header
			}
			call, ok := p.Parent().Node().(*ast.CallExpr)
			if !ok || call.Fun != pn {
				return // a method value
			}
			if isHdr {
				if pn.Sel.Name == "Set" || pn.Sel.Name == "Add" {
					c.headerEvent(r, call, arg(call, 0), arg(call, 1))
				}
				return
			}
			f := c.callee(call)
			switch {
			case f == nil:
				return
			case isResty(typesx.PkgPath(f)) && typesx.RecvName(f) == "Request":
				c.restyEvent(r, call, f.Name())
				if isRestyRequest(c.pass.TypesInfo.TypeOf(call)) {
					e = p.Parent() // the chain goes on with the same request
					continue
				}
			case (typesx.PkgPath(f) == "net/http" || isRetryable(typesx.PkgPath(f))) && typesx.RecvName(f) == "Request" && (f.Name() == "WithContext" || f.Name() == "Clone"):
				e = p.Parent()
				continue
			case holderField(c.pass.TypesInfo.TypeOf(pn.X)) != nil || c.descField(c.pass.TypesInfo.TypeOf(pn.X)) != nil:
				// A method of a request holder or description: it may
				// send the request, or set headers on it.
				if fact := c.keyFact(f); fact != nil {
					if fact.RecvHeaders {
						r.dynamic = true
					}
					if fact.RecvRetries {
						r.sends = append(r.sends, call)
					}
				}
			}
			return
		case *ast.CallExpr:
			if pn.Fun == node {
				return
			}
			c.argUse(r, pn, node, isHdr)
			return
		case *ast.IndexExpr:
			if isHdr && pn.X == node {
				if as, ok := p.Parent().Node().(*ast.AssignStmt); ok && len(as.Lhs) == len(as.Rhs) {
					for i, l := range as.Lhs {
						if l == pn {
							c.headerEvent(r, as, pn.Index, as.Rhs[i])
						}
					}
				}
			}
			return
		case *ast.AssignStmt:
			for _, l := range pn.Lhs {
				if l == node {
					if isHdr {
						if _, isSel := node.(*ast.SelectorExpr); isSel {
							// req.Header = ...
							if len(pn.Lhs) == len(pn.Rhs) {
								for i := range pn.Lhs {
									if pn.Lhs[i] == node {
										c.headerMap(r, pn, pn.Rhs[i])
									}
								}
							} else {
								r.dynamic = true
							}
						}
					}
					return // the variable itself is (re)assigned
				}
			}
			// On the right: an alias when its left side is a variable.
			for i, rhs := range pn.Rhs {
				if rhs != node {
					continue
				}
				l := pn.Lhs[0]
				if len(pn.Lhs) == len(pn.Rhs) {
					l = pn.Lhs[i]
				}
				if id, ok := ast.Unparen(l).(*ast.Ident); !ok || c.packageVar(id) {
					r.escapes = true // stored in a field, an element or a package variable
				}
			}
			return
		case *ast.ValueSpec:
			return
		case *ast.ReturnStmt:
			if isHdr {
				r.escapes = true
			} else {
				r.rets = append(r.rets, pn)
			}
			return
		case *ast.KeyValueExpr:
			if pn.Value == node && c.returnedHolder(p, isHdr) {
				if !isHdr {
					r.returned = true
				}
				return
			}
			if pn.Value == node && !isHdr && c.heldBy(r, p) {
				return // the request field of a holder that is one of its variables
			}
			r.escapes = true
			return
		case *ast.UnaryExpr:
			if t := c.pass.TypesInfo.TypeOf(node.(ast.Expr)); pn.Op == token.AND && !isHdr && (typesx.IsNamed(t, "net/http", "Request") || holderField(t) != nil) {
				e = p // &req of a request value, &cfg of a holder: the request itself
				continue
			}
			r.escapes = true
			return
		case *ast.CompositeLit, *ast.SendStmt:
			r.escapes = true
			return
		}
		return
	}
}

// argUse judges the request (or its header map) passed to a call.
func (c *checker) argUse(r *request, call *ast.CallExpr, arg ast.Node, isHdr bool) {
	if tv, ok := c.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
		return // a conversion
	}
	if id, ok := ast.Unparen(call.Fun).(*ast.Ident); ok {
		if _, ok := c.pass.TypesInfo.Uses[id].(*types.Builtin); ok {
			r.escapes = true // append, copy...
			return
		}
	}
	f := c.callee(call)
	if f == nil || typesx.IsInterfaceMethod(f) {
		// A function value or an interface method: a Do(req) that
		// returns a response sends it; anything else may set headers.
		switch {
		case c.returnsResponse(call):
			r.sends = append(r.sends, call)
		case f == nil && c.hookClean(call):
			// A hook of the package's own type whose functions set no
			// key and no header the pass cannot name.
		case f != nil && c.implsClean(f, argParam(call, f, arg)):
			// A method of the package's own interface whose
			// implementations in the package set none either.
		default:
			r.handed = append(r.handed, call) // may set headers, unless it runs after the send
		}
		return
	}
	if isLibFunc(f, retryapi.RetryableHTTP, "FromRequest") || nonSending[typesx.PkgPath(f)] {
		return // an alias, followed by aliases; or formatting, logging
	}
	idx := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == arg })
	if idx < 0 {
		return
	}
	pi := argParam(call, f, arg)
	if fact := c.keyFact(f); fact != nil {
		if slices.ContainsFunc(fact.Copies, func(cp [2]int) bool { return cp[0] == pi }) {
			// It copies a header map onto the request: a key where
			// that map may hold one, headers the pass cannot name
			// where it cannot tell.
			judged, keyed, _ := c.copiedBy(call, call.Args[idx], 0)
			switch {
			case !judged:
				r.handed = append(r.handed, call)
				return
			case keyed:
				r.keys = append(r.keys, keyEvent{node: call})
				return
			}
		}
		if slices.Contains(fact.Dynamic, pi) {
			// It sets headers the pass cannot name, unless it runs
			// after the send (a callback told of a request sent).
			r.handed = append(r.handed, call)
			return
		}
		if slices.Contains(fact.Sets, pi) {
			k := keyEvent{node: call}
			if slices.Contains(fact.Fresh, pi) {
				k.helper = call
			}
			r.keys = append(r.keys, k)
			return
		}
	}
	if isHdr {
		return // a function that reads the header map
	}
	if c.returnsResponse(call) || c.returnsError(call) {
		r.sends = append(r.sends, call)
	}
}

// packageVar reports whether id denotes a package-level variable.
func (c *checker) packageVar(id *ast.Ident) bool {
	v, ok := c.pass.TypesInfo.ObjectOf(id).(*types.Var)
	return ok && v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// heldBy reports whether kv, an element of a composite literal, is the
// request field of a holder literal (or of its address) given to a
// variable that follows the request: cfg := RequestConfig{Request: req}.
func (c *checker) heldBy(r *request, kv inspector.Cursor) bool {
	val, up, ok := c.holderElem(kv, false)
	if !ok {
		return false
	}
	switch as := up.Node().(type) {
	case *ast.AssignStmt:
		for i, rhs := range as.Rhs {
			if rhs == val && len(as.Lhs) == len(as.Rhs) {
				id, ok := ast.Unparen(as.Lhs[i]).(*ast.Ident)
				return ok && !c.packageVar(id) && r.vars[c.varOf(id)]
			}
		}
	case *ast.ValueSpec:
		for i, v := range as.Values {
			if v == val && len(as.Names) == len(as.Values) {
				return !c.packageVar(as.Names[i]) && r.vars[c.pass.TypesInfo.Defs[as.Names[i]]]
			}
		}
	}
	return false
}

// argParam returns the index of the parameter of f that the argument arg
// of call is passed for (the final one for the arguments of a variadic
// parameter), or -1.
func argParam(call *ast.CallExpr, f *types.Func, arg ast.Node) int {
	idx := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return a == arg })
	if idx < 0 {
		return -1
	}
	sig := f.Type().(*types.Signature)
	if sig.Variadic() && idx >= sig.Params().Len()-1 {
		return sig.Params().Len() - 1
	}
	return idx
}

// nonSending lists standard packages whose functions take a request
// without sending it (fmt.Errorf("...%v", req) returns an error).
var nonSending = map[string]bool{
	"fmt": true, "log": true, "log/slog": true, "errors": true, "net/http/httputil": true,
	"testing": true, "reflect": true, "encoding/json": true,
}

// returnsResponse reports whether the call's results include a
// *net/http.Response or a resty response.
func (c *checker) returnsResponse(call *ast.CallExpr) bool {
	return c.resultsAny(call, func(t types.Type) bool {
		return typesx.IsNamedPtr(t, "net/http", "Response") || isLibPtr(t, retryapi.Resty, "Response")
	})
}

func (c *checker) returnsError(call *ast.CallExpr) bool {
	return c.resultsAny(call, func(t types.Type) bool { return typesx.IsError(t) })
}

func (c *checker) resultsAny(call *ast.CallExpr, pred func(types.Type) bool) bool {
	tv, ok := c.pass.TypesInfo.Types[call]
	if !ok || tv.Type == nil {
		return false
	}
	if tuple, ok := tv.Type.(*types.Tuple); ok {
		for v := range tuple.Variables() {
			if pred(v.Type()) {
				return true
			}
		}
		return false
	}
	return pred(tv.Type)
}

func isRestyRequest(t types.Type) bool { return isLibPtr(t, retryapi.Resty, "Request") }

// stringConst returns the constant string value of e.
func (c *checker) stringConst(e ast.Expr) (string, bool) {
	return typesx.StringConst(c.pass.TypesInfo, e)
}

// intConst returns the constant integer value of e.
func (c *checker) intConst(e ast.Expr) (int64, bool) { return typesx.IntConst(c.pass.TypesInfo, e) }

// returnedHolder reports whether kv, an element of a composite literal,
// stores the request in the request field of a holder (or, for its header
// map, in any field of it) that the function returns as its first result:
// return &ClientRequest{req: req, Header: req.Header}, nil.
func (c *checker) returnedHolder(kv inspector.Cursor, isHdr bool) bool {
	val, up, ok := c.holderElem(kv, isHdr)
	if !ok {
		return false
	}
	ret, ok := up.Node().(*ast.ReturnStmt)
	return ok && len(ret.Results) > 0 && ret.Results[0] == val
}

// holderElem reports whether kv, an element of a composite literal, is
// the request field of a holder literal (with isHdr, any field of one),
// and returns the holder's value (the literal or its address) and the
// node that holds that value.
func (c *checker) holderElem(kv inspector.Cursor, isHdr bool) (ast.Node, inspector.Cursor, bool) {
	lit, ok := kv.Parent().Node().(*ast.CompositeLit)
	if !ok {
		return nil, inspector.Cursor{}, false
	}
	hf := holderField(c.pass.TypesInfo.TypeOf(lit))
	key, ok := kv.Node().(*ast.KeyValueExpr).Key.(*ast.Ident)
	if hf == nil || !ok || !isHdr && c.pass.TypesInfo.ObjectOf(key) != hf {
		return nil, inspector.Cursor{}, false
	}
	var val ast.Node = lit
	up := kv.Parent().Parent()
	if u, ok := up.Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
		val, up = u, up.Parent()
	}
	return val, up, true
}
