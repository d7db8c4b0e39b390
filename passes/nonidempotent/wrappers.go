package nonidempotent

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// resends reports whether a function resends its request parameter r
// whatever its method: it sends it inside a retry site of its own, or
// every send of it goes through a retrying client.
func (c *checker) resends(r *request) bool {
	for _, send := range r.sends {
		if len(c.regionsOf(send, true)) > 0 {
			return true
		}
	}
	if len(r.sends) == 0 {
		return false
	}
	for _, send := range r.sends {
		if ci := c.sendClient(r, send); ci == nil || ci.when != nil {
			return false
		}
	}
	return true
}

// resendsWhen returns the index in sig of the boolean parameter of r's
// function whose truth makes it resend r, a request it sends: every send
// of r goes through a retrying client (or a send wrapper that resends)
// whatever the flag, or when the flag is true, or sends it once only where
// the flag is false (in the body of if !retry {...}, or the else of if
// retry {...}), and some send retries. It returns -1 otherwise.
func (c *checker) resendsWhen(r *request, sig *types.Signature) int {
	if len(r.sends) == 0 {
		return -1
	}
	var flag *types.Var
	agree := func(v *types.Var) bool {
		if flag == nil {
			flag = v
		}
		return flag == v
	}
	var plain []*ast.CallExpr
	retried := false
	for _, send := range r.sends {
		ci := c.sendClient(r, send)
		switch {
		case ci == nil:
			plain = append(plain, send)
		case ci.when != nil:
			if !agree(ci.when) {
				return -1
			}
			retried = true
		default:
			retried = true
		}
	}
	if !retried {
		return -1
	}
	for _, send := range plain {
		v := c.falseOnly(r.fn, send)
		if v == nil || !agree(v) {
			return -1
		}
	}
	if flag == nil {
		return -1
	}
	for i := range sig.Params().Len() {
		if sig.Params().At(i) == flag {
			return i
		}
	}
	return -1
}

// falseOnly returns the boolean parameter of fn that is false wherever n
// runs: n lies in the body of an if statement whose condition is the
// parameter's negation, or in the else of one whose condition is the
// parameter; nil otherwise.
func (c *checker) falseOnly(fn ast.Node, n ast.Node) *types.Var {
	var found *types.Var
	ast.Inspect(fn, func(x ast.Node) bool {
		is, ok := x.(*ast.IfStmt)
		if !ok || found != nil {
			return found == nil
		}
		if is.Pos() > n.Pos() || n.End() > is.End() {
			return true
		}
		within := func(b ast.Node) bool { return b != nil && b.Pos() <= n.Pos() && n.End() <= b.End() }
		cond := ast.Unparen(is.Cond)
		if u, ok := cond.(*ast.UnaryExpr); ok && u.Op == token.NOT && within(is.Body) {
			found = c.boolParam(fn, u.X)
		} else if within(is.Else) {
			found = c.boolParam(fn, cond)
		}
		return found == nil
	})
	return found
}

// methodArg returns the index of the argument that is the method of the
// request a call builds: http.NewRequest, http.NewRequestWithContext,
// their go-retryablehttp equivalents, and request-building wrappers
// (KeyFact.Builds); -1 for other calls.
func (c *checker) methodArg(call *ast.CallExpr) int {
	fn := c.callee(call)
	if fn == nil {
		return -1
	}
	path, name, recv := typesx.PkgPath(fn), fn.Name(), typesx.RecvName(fn)
	if (path == "net/http" || isRetryable(path)) && recv == "" {
		switch name {
		case "NewRequest":
			return 0
		case "NewRequestWithContext":
			return 1
		}
		return -1
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || typesx.IsInterfaceMethod(fn) || sig.Results().Len() == 0 {
		return -1
	}
	if rt := sig.Results().At(0).Type(); c.reqParam(rt) != rootReq && holderField(rt) == nil && !typesx.IsNamed(rt, "net/http", "Request") {
		return -1
	}
	if f := c.keyFact(fn); f != nil && len(f.Builds) > 0 && c.carriedKeyless(call, fn) {
		return f.Builds[0]
	}
	return -1
}

// builderParams returns the method parameters of a function (string
// parameters, or string fields of struct parameters) whose value is the
// method of the request it builds and returns, when it sets no
// idempotency key and no header it cannot name on it: the request-building
// wrapper c.NewRequest(ctx, method, path, body).
func (c *checker) builderParams(fd *ast.FuncDecl, fn *types.Func) []methodParam {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 {
		return nil
	}
	if rt := sig.Results().At(0).Type(); !typesx.IsNamedPtr(rt, "net/http", "Request") && !typesx.IsNamed(rt, "net/http", "Request") && !isLibPtr(rt, retryapi.RetryableHTTP, "Request") && holderField(rt) == nil && c.descField(rt) == nil {
		return nil
	}
	bodyCur, ok := c.find.Find(fd.Body)
	if !ok {
		return nil
	}
	var out []methodParam
	for cur := range bodyCur.Preorder((*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)) {
		ctor, me := c.construction(cur)
		if ctor == nil || astx.EnclosingFunc(cur) != ast.Node(fd) {
			continue
		}
		field := ""
		if call, ok := ctor.(*ast.CallExpr); ok {
			field = c.methodField(call)
			me = arg(call, c.methodArg(call))
		}
		_, mp := c.paramMethod(fd, me, field)
		if mp == nil || slices.Contains(out, *mp) {
			continue
		}
		if c.returnsClean(cur, ctor) {
			out = append(out, *mp)
		}
	}
	return out
}

// changed reports whether a variable is assigned in body, or its address
// taken.
func (c *checker) changed(body *ast.BlockStmt, v types.Object) bool {
	ix := c.values()
	return len(ix.vals(v)) > 0 || ix.addr(v) || ix.incs(v)
}

// changedBeyondDefault reports whether a method parameter is changed
// other than by a default for an empty value (if method == "" { method =
// http.MethodPost }): then the caller's method is not the request's.
func (c *checker) changedBeyondDefault(body *ast.BlockStmt, v types.Object) bool {
	ix := c.values()
	if ix.addr(v) || ix.incs(v) {
		return true
	}
	for _, val := range ix.vals(v) {
		if _, ok := c.stringConst(val); !ok {
			return true
		}
		cur, ok := c.find.Find(val)
		if !ok {
			return true
		}
		as, ok := cur.Parent().Node().(*ast.AssignStmt)
		if !ok || len(as.Lhs) != 1 {
			return true
		}
		ifs, ok := cur.Parent().Parent().Parent().Node().(*ast.IfStmt)
		if !ok || !c.testsEmpty(ifs.Cond, v) {
			return true
		}
	}
	return false
}

// testsEmpty reports whether cond is v == "".
func (c *checker) testsEmpty(cond ast.Expr, v types.Object) bool {
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || b.Op != token.EQL {
		return false
	}
	x, y := b.X, b.Y
	if c.varOf(x) != v {
		x, y = y, x
	}
	s, isConst := c.stringConst(y)
	return c.varOf(x) == v && isConst && s == ""
}

// construction returns the request construction at cur and its method
// argument: a call with a method argument (methodArg), or a request
// literal with a method element (litMethod); nil for anything else.
func (c *checker) construction(cur inspector.Cursor) (ctor, method ast.Expr) {
	switch n := cur.Node().(type) {
	case *ast.CallExpr:
		if mi := c.methodArg(n); mi >= 0 {
			return n, c.methodOf(n, mi)
		}
	case *ast.CompositeLit:
		if me, ok := c.litMethod(n); ok && me != nil {
			return n, me
		}
	}
	return nil, nil
}

// returnsClean reports whether the request a builder's construction
// makes is returned by its function with no idempotency key, nothing set
// on it that the pass cannot name, and not kept anywhere else.
func (c *checker) returnsClean(cur inspector.Cursor, ctor ast.Expr) bool {
	up := cur
	if u, ok := up.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
		up = up.Parent()
	}
	if ret, ok := up.Parent().Node().(*ast.ReturnStmt); ok {
		if _, isLit := ctor.(*ast.CompositeLit); isLit && !c.cleanLit(ctor.(*ast.CompositeLit)) {
			return false
		}
		return len(ret.Results) > 0 && ret.Results[0] == up.Node()
	}
	r := c.valueRequest(cur, ctor, "POST")
	return r != nil && r.returned && !r.escapes && !r.dynamic && len(r.keys) == 0
}

// restyWrapper reports whether a function returns a new resty request
// made by a client's R() (or by another such wrapper), with no
// idempotency key and no header the pass cannot name, on every return of
// a request; and whether that client retries.
func (c *checker) restyWrapper(fd *ast.FuncDecl, fn *types.Func) (ok, retries bool) {
	sig := fn.Type().(*types.Signature)
	if sig.Results().Len() == 0 || !isRestyRequest(sig.Results().At(0).Type()) {
		return false, false
	}
	bad := false
	astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
		ret, isRet := n.(*ast.ReturnStmt)
		if !isRet || bad {
			return !bad
		}
		if len(ret.Results) == 0 {
			bad = true // a named result
			return false
		}
		e := ast.Unparen(ret.Results[0])
		if id, isID := e.(*ast.Ident); isID {
			if _, isNil := c.pass.TypesInfo.Uses[id].(*types.Nil); isNil {
				return false
			}
		}
		r := &request{kind: kindResty, fn: fd, vars: map[types.Object]bool{}, hdrs: map[types.Object]bool{}}
		c.restyFrom(r, e)
		if r.client == nil && r.wrap == nil || r.dynamic || r.escapes || len(r.keys) > 0 {
			bad = true
			return false
		}
		ok = true
		switch {
		case r.wrap != nil:
			retries = retries || r.wrap.retries
		case c.restyRetries(r.client, 0) != nil:
			retries = true
		}
		return false
	})
	if bad || !ok {
		return false, false
	}
	return true, retries
}

// restyWrap is a function of the user's code that returns a new resty
// request (KeyFact.Resty).
type restyWrap struct {
	fn      *types.Func
	retries bool // its client retries
}

// restyFrom follows a resty request expression x: its chain down to the
// client's R() (or a wrapper's call) and, when the chain starts at a
// variable, that variable's values and uses.
func (c *checker) restyFrom(r *request, x ast.Expr) {
	if root := c.restyChain(r, x, true); root != nil {
		r.vars[root] = true
		for _, v := range c.values().vals(root) {
			c.restyChain(r, v, false)
		}
		c.collect(r)
	}
	if r.client != nil && c.restyClientKey(r.client, 0) {
		r.dynamic = true // the client sets the key, or headers we cannot name, on every request
	}
}

// constructed records the call that makes a resty request: a client's
// R() or NewRequest, or a wrapper's call.
func (r *request) constructed(call *ast.CallExpr) {
	switch {
	case r.rconstr == nil:
		r.rconstr = call
	case r.rconstr != call:
		r.rambig = true
	}
}

// sendsMethodArg returns the index of the argument of a call of fn that
// is the method of the request fn builds and sends (KeyFact.SendsMethod
// and Sends), or -1; retries says whether fn retries it itself.
func (c *checker) sendsMethodArg(fn *types.Func) (i int, retries bool) {
	if f := c.keyFact(fn); f != nil {
		switch {
		case len(f.SendsMethod) > 0:
			return f.SendsMethod[0], true
		case len(f.Sends) > 0:
			return f.Sends[0], false
		}
	}
	return -1, false
}

// sendsMethodParams returns the string parameters of a function whose
// value is the method of a request it builds and sends, with no
// idempotency key and no header it cannot name set on it, and that it
// reads nowhere else (a function that compares the method may retry
// only some): those it retries itself (inside a retry site of its own,
// through a retrying client or a send wrapper that resends, or by a call
// of a function that does, KeyFact.SendsMethod), and those it sends once
// (KeyFact.Sends). A request it also returns counts only when every
// return of it follows every send (the response and the request it was
// made from, (res, req, err)).
func (c *checker) sendsMethodParams(fd *ast.FuncDecl, fn *types.Func) (retried, once []methodParam) {
	bodyCur, ok := c.find.Find(fd.Body)
	if !ok {
		return nil, nil
	}
	var uses map[types.Object]int // counted when a call takes a parameter as its method
	used := func(p types.Object) int {
		if uses == nil {
			uses = map[types.Object]int{}
			for cur := range bodyCur.Preorder((*ast.Ident)(nil)) {
				if o := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)]; o != nil {
					if v, ok := o.(*types.Var); ok && !v.IsField() && v.Parent() != nil && v.Parent().Parent() != nil && !c.operand(cur) {
						uses[o]++
					}
				}
			}
		}
		return uses[p]
	}
	var seen []methodParam
	keep := func(r *request, mp *methodParam) {
		if r == nil || r.dynamic || r.escapes || r.returned || len(r.keys) > 0 || len(r.sends) == 0 {
			return
		}
		seen = append(seen, *mp)
		if c.sendsOwn(r) {
			retried = append(retried, *mp)
		} else {
			once = append(once, *mp)
		}
	}
	for cur := range bodyCur.Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if m := c.restyMethod(call); m != "" {
			// switch method { case "POST": req.Post(endpoint) }, also
			// in a function literal of fd: the method parameter
			// chooses the send, read nowhere else.
			if tag := c.methodCase(cur, m); tag != nil {
				if p, mp := c.paramMethod(fd, tag, ""); mp != nil && !slices.Contains(seen, *mp) && used(p) == 1 {
					keep(c.restyRequest(cur, call, m), mp)
				}
			}
			continue
		}
		mi := c.methodArg(call)
		var sender *types.Func
		senderRetries := false
		if mi < 0 {
			if f := c.callee(call); f != nil && f.Pkg() != nil && !typesx.IsInterfaceMethod(f) && libOf(f.Pkg().Path()) == "" {
				mi, senderRetries = c.sendsMethodArg(f)
				if !c.carriedKeyless(call, f) {
					mi = -1 // the headers it is handed may hold a key
				}
				sender = f
			}
		}
		if mi < 0 || astx.EnclosingFunc(cur) != ast.Node(fd) {
			continue
		}
		p, mp := c.paramMethod(fd, arg(call, mi), c.methodField(call))
		if mp == nil || slices.Contains(seen, *mp) || mp.field == "" && used(p) != 1 {
			continue
		}
		var r *request
		if sender != nil {
			// A call of a function that builds and sends it: the call
			// builds and sends.
			r = &request{kind: kindPost, method: "POST", call: call, fn: fd, sender: sender, senderRetries: senderRetries}
			r.sends = []*ast.CallExpr{call}
		} else {
			r = c.valueRequest(cur, call, "POST")
		}
		keep(r, mp)
	}
	return retried, once
}

// sendsOwn reports whether the function of r, a request it builds with
// the method of its parameter, retries it itself: it sends it inside a
// retry site of its own, or through a retrying client, a send wrapper
// that resends or a function that builds, sends and retries it, without
// reading its method.
func (c *checker) sendsOwn(r *request) bool {
	for _, send := range r.sends {
		if len(c.regionsOf(send, true)) > 0 {
			return true
		}
	}
	if r.sender != nil {
		return r.senderRetries
	}
	return !c.methodAware(r) && c.resends(r)
}

// operand reports whether the identifier at cur is an operand of a
// format: an argument passed to a final ...any parameter
// (log.Printf("retry %d of %s %s", i, method, uri), fmt.Errorf), which
// says what the value is and does not decide on it; so a function that
// names its method in a log line or an error still reads it nowhere
// else.
func (c *checker) operand(cur inspector.Cursor) bool {
	call, ok := cur.Parent().Node().(*ast.CallExpr)
	if !ok || call.Ellipsis.IsValid() {
		return false
	}
	t := c.pass.TypesInfo.TypeOf(call.Fun)
	if t == nil {
		return false
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || !sig.Variadic() {
		return false
	}
	last := sig.Params().Len() - 1
	i := slices.Index(call.Args, ast.Expr(cur.Node().(*ast.Ident)))
	if i < last {
		return false
	}
	sl, ok := sig.Params().At(last).Type().(*types.Slice)
	if !ok {
		return false
	}
	it, ok := sl.Elem().Underlying().(*types.Interface)
	return ok && it.Empty()
}

// holdsRegion reports whether a body that runs once per attempt of a retry
// site lies in fd.
func (c *checker) holdsRegion(fd *ast.FuncDecl) bool {
	for body := range c.regions {
		if fd.Pos() <= body.Pos() && body.End() <= fd.End() {
			return true
		}
	}
	return false
}

// stringParams returns the string parameters of sig, with their indices.
func stringParams(sig *types.Signature) map[types.Object]int {
	params := make(map[types.Object]int)
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		if b, ok := p.Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			params[p] = i
		}
	}
	return params
}

// sendsArg is sendsMethodArg's index alone.
func (c *checker) sendsArg(fn *types.Func) int {
	i, _ := c.sendsMethodArg(fn)
	return i
}
