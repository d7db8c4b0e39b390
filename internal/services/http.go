package services

import (
	"go/ast"
	"go/token"
	"go/types"
	"net/url"
	"strings"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/astx"
)

const retryablePath = "github.com/hashicorp/go-retryablehttp"

// A urlInfo is what an URL expression says of the path it sends: the
// constant path after the base, or the constant part before a value that
// is not a constant (varTail), or before a parameter of the function
// (param ≥ 0) whose argument gives the rest.
type urlInfo struct {
	path    string
	varTail bool
	param   int
}

// urlOf reads an URL expression in the function declared by fd: a
// constant URL or path, base + "/v1/notify", base + "/kv/" + key,
// fmt.Sprintf("%s/v1/notify", base), url.JoinPath(base, "v1", "notify"),
// u.JoinPath(...).String(), a local variable defined once by one of them,
// or a parameter of fd.
func (a *analyzer) urlOf(fd *ast.FuncDecl, e ast.Expr, depth int) (urlInfo, bool) {
	if depth > 4 || e == nil {
		return urlInfo{}, false
	}
	e = ast.Unparen(e)
	if s, ok := a.str(e); ok {
		p, ok := constPath(s)
		return urlInfo{path: p, param: -1}, ok
	}
	if i := a.paramIndex(fd, e); i >= 0 {
		return urlInfo{param: i}, true
	}
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return urlInfo{}, false
		}
		ops := flattenAdd(x)
		last := -1
		for i, op := range ops {
			if _, ok := a.str(op); !ok {
				last = i
			}
		}
		// A constant with a path segment before the last value puts a
		// value inside the path ("/users/" + id + "/profile"): no path.
		for _, op := range ops[:last] {
			if c, ok := a.str(op); ok && strings.Contains(strings.ReplaceAll(c, "://", ""), "/") && last < len(ops)-1 {
				return urlInfo{}, false
			}
		}
		var suffix strings.Builder
		for _, op := range ops[last+1:] {
			s, _ := a.str(op)
			suffix.WriteString(s)
		}
		if suffix.Len() > 0 {
			// base + "/v1/notify": the path is what follows the base.
			p, ok := constPath(suffix.String())
			if !ok || !strings.HasPrefix(suffix.String(), "/") && !strings.Contains(suffix.String(), "://") {
				return urlInfo{}, false
			}
			return urlInfo{path: p, param: -1}, true
		}
		// base + "/kv/" + key: a constant part before the last value.
		var prefix strings.Builder
		first := 0
		for i := last - 1; i >= 0; i-- {
			if _, ok := a.str(ops[i]); !ok {
				first = i + 1
				break
			}
		}
		for _, op := range ops[first:last] {
			s, _ := a.str(op)
			prefix.WriteString(s)
		}
		pre := prefix.String()
		if first == 0 && pre != "" {
			if strings.Contains(pre, "://") && strings.Count(pre, "/") < 3 {
				return urlInfo{}, false // "http://" + host: the value is the host
			}
			p, ok := constPath(pre)
			if !ok {
				return urlInfo{}, false
			}
			pre = p
		}
		if pre != "" && !strings.HasPrefix(pre, "/") {
			return urlInfo{}, false
		}
		if i := a.paramIndex(fd, ops[last]); i >= 0 {
			return urlInfo{path: pre, param: i}, true
		}
		if pre == "" || pre == "/" {
			return urlInfo{}, false // no constant segment: nothing to match
		}
		return urlInfo{path: pre, varTail: true, param: -1}, true
	case *ast.CallExpr:
		fn := a.callee(x)
		switch {
		case isFuncOf(fn, "fmt", "Sprintf") && len(x.Args) > 0:
			return a.sprintfURL(fd, x)
		case isFuncOf(fn, "net/url", "JoinPath") && len(x.Args) > 0:
			return a.joinPath(x.Args[1:])
		case isMethodOf(fn, "net/url", "JoinPath"):
			return a.joinPath(x.Args)
		case isMethodOf(fn, "net/url", "String"):
			if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok {
				return a.urlOf(fd, sel.X, depth+1)
			}
		}
	case *ast.Ident:
		if v := a.varOf(x); v != nil {
			if def := a.localDef(fd, v); def != nil {
				return a.urlOf(fd, def, depth+1)
			}
		}
	}
	return urlInfo{}, false
}

func flattenAdd(e ast.Expr) []ast.Expr {
	if b, ok := ast.Unparen(e).(*ast.BinaryExpr); ok && b.Op == token.ADD {
		return append(flattenAdd(b.X), flattenAdd(b.Y)...)
	}
	return []ast.Expr{e}
}

// constPath returns the path of a constant URL ("http://notify/v1/x",
// "/v1/x"); a constant that is neither is no path.
func constPath(s string) (string, bool) {
	if i := strings.Index(s, "://"); i >= 0 {
		u, err := url.Parse(s)
		if err != nil {
			return "", false
		}
		if u.Path == "" {
			return "/", true
		}
		return u.Path, true
	}
	if strings.HasPrefix(s, "/") {
		if i := strings.IndexAny(s, "?#"); i >= 0 {
			s = s[:i]
		}
		return s, true
	}
	return "", false
}

// sprintfURL reads fmt.Sprintf("%s/v1/notify", base) and
// fmt.Sprintf("%s/kv/%s", base, key).
func (a *analyzer) sprintfURL(fd *ast.FuncDecl, call *ast.CallExpr) (urlInfo, bool) {
	format, ok := a.str(call.Args[0])
	if !ok {
		return urlInfo{}, false
	}
	verbs := verbSpans(format)
	if len(verbs) == 0 {
		p, ok := constPath(format)
		return urlInfo{path: p, param: -1}, ok
	}
	lastV := verbs[len(verbs)-1]
	if tail := format[lastV[1]:]; tail != "" {
		if !strings.HasPrefix(tail, "/") || strings.Contains(tail, "%") {
			return urlInfo{}, false
		}
		p, ok := constPath(tail)
		return urlInfo{path: p, param: -1}, ok
	}
	// The format ends with a value: the constant part before it.
	start := 0
	if len(verbs) > 1 {
		start = verbs[len(verbs)-2][1]
	}
	pre := format[start:lastV[0]]
	if start == 0 {
		p, ok := constPath(pre)
		if !ok {
			return urlInfo{}, false
		}
		pre = p
	}
	if !strings.HasPrefix(pre, "/") {
		return urlInfo{}, false
	}
	if n := len(call.Args) - 1; n == len(verbs) {
		if i := a.paramIndex(fd, call.Args[n]); i >= 0 {
			return urlInfo{path: pre, param: i}, true
		}
	}
	return urlInfo{path: pre, varTail: true, param: -1}, true
}

// verbSpans returns the byte spans of a format's verbs ("%%" left out).
func verbSpans(f string) [][2]int {
	var out [][2]int
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		if i+1 < len(f) && f[i+1] == '%' {
			i++
			continue
		}
		j := i + 1
		for j < len(f) && strings.IndexByte("+-# 0123456789.*[]", f[j]) >= 0 {
			j++
		}
		if j < len(f) {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j - 1
	}
	return out
}

func (a *analyzer) joinPath(elems []ast.Expr) (urlInfo, bool) {
	var parts []string
	for _, e := range elems {
		s, ok := a.str(e)
		if !ok {
			return urlInfo{}, false
		}
		parts = append(parts, strings.Trim(s, "/"))
	}
	return urlInfo{path: "/" + strings.Join(parts, "/"), param: -1}, true
}

// A reqInfo is what a request's construction says: its method (or the
// parameter that gives it) and its URL.
type reqInfo struct {
	method      string
	methodParam int
	url         urlInfo
	reqParam    int // the request is a parameter of the function
	keyHeader   bool
	lib         string
}

// request reads the request an expression holds in the function declared
// by fd: a local defined by http.NewRequest(WithContext) or
// go-retryablehttp's NewRequest(WithContext), or a parameter.
func (a *analyzer) request(fd *ast.FuncDecl, e ast.Expr) (reqInfo, bool) {
	if i := a.paramIndex(fd, e); i >= 0 {
		return reqInfo{methodParam: -1, reqParam: i}, true
	}
	v := a.varOf(e)
	def := ast.Expr(nil)
	if v != nil {
		def = a.localDef(fd, v)
	} else {
		def = e
	}
	call, ok := ast.Unparen(def).(*ast.CallExpr)
	if !ok {
		return reqInfo{}, false
	}
	fn := a.callee(call)
	args := call.Args
	info := reqInfo{methodParam: -1, reqParam: -1, lib: "net/http"}
	switch {
	case isFuncOf(fn, "net/http", "NewRequest"), isFuncOf(fn, retryablePath, "NewRequest"):
	case isFuncOf(fn, "net/http", "NewRequestWithContext"), isFuncOf(fn, retryablePath, "NewRequestWithContext"):
		if len(args) > 0 {
			args = args[1:]
		}
	default:
		return reqInfo{}, false
	}
	if isFuncOf(fn, retryablePath, "NewRequest", "NewRequestWithContext") {
		info.lib = "go-retryablehttp"
	}
	if len(args) < 2 {
		return reqInfo{}, false
	}
	if m, ok := a.str(args[0]); ok {
		info.method = strings.ToUpper(m)
	} else if i := a.paramIndex(fd, args[0]); i >= 0 {
		info.methodParam = i
	} else {
		return reqInfo{}, false
	}
	u, ok := a.urlOf(fd, args[1], 0)
	if !ok {
		return reqInfo{}, false
	}
	info.url = u
	info.keyHeader = v != nil && a.setsKey(fd, v)
	return info, true
}

// idempotencyHeaders are the headers that make net/http's Transport take
// a request as idempotent.
var idempotencyHeaders = []string{"idempotency-key", "x-idempotency-key"}

// setsKey reports whether the function sets an idempotency key header on
// the request in v: req.Header.Set("Idempotency-Key", k), .Add, or
// req.Header["Idempotency-Key"] = ...
func (a *analyzer) setsKey(fd *ast.FuncDecl, v *types.Var) bool {
	isKey := func(e ast.Expr) bool {
		s, ok := a.str(e)
		if !ok {
			return false
		}
		for _, h := range idempotencyHeaders {
			if strings.EqualFold(s, h) {
				return true
			}
		}
		return false
	}
	onReq := func(e ast.Expr) bool {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		return ok && sel.Sel.Name == "Header" && a.varOf(sel.X) == v
	}
	found := false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && (sel.Sel.Name == "Set" || sel.Sel.Name == "Add") &&
				len(n.Args) == 2 && onReq(sel.X) && isKey(n.Args[0]) {
				found = true
			}
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok && onReq(ix.X) && isKey(ix.Index) {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// replayable reports whether net/http's Transport may replay a request of
// this method: GET, HEAD, OPTIONS, TRACE, or one with an idempotency key.
func replayable(method string, key bool) bool {
	switch method {
	case "GET", "HEAD", "OPTIONS", "TRACE":
		return true
	}
	return key
}

// replayLink adds net/http's replay to a link when it applies.
func replayLink(l amplify.Link, method string, netHTTP, key bool, client string) amplify.Link {
	if !netHTTP || !replayable(method, key) {
		return l
	}
	l.Transport = amplify.Mult{Kind: amplify.Count, Value: 2}
	what := "an idempotent " + method
	if key && !replayable(method, false) {
		what = "a " + method + " with an idempotency key"
	}
	l.TransportWhy = "net/http's Transport (" + client + ") replays " + what + " once when a reused connection drops"
	return l
}

// netHTTPClient reports whether a client expression sends through
// net/http's Transport, as far as the package shows, and names it:
// http.DefaultClient, a variable or a field holding &http.Client{} with
// no Transport or with an *http.Transport (or http.DefaultTransport).
func (a *analyzer) netHTTPClient(fd *ast.FuncDecl, e ast.Expr, depth int) (bool, string) {
	if depth > 3 || e == nil {
		return false, ""
	}
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	switch x := e.(type) {
	case *ast.CompositeLit:
		if !isNamedType(a.pass.TypesInfo.TypeOf(x), "net/http", "Client") {
			return false, ""
		}
		t := astx.Field(x, "Transport")
		if t == nil {
			return true, "an http.Client with no Transport"
		}
		if a.netHTTPTransport(t) {
			return true, "an http.Client with an *http.Transport"
		}
		return false, ""
	case *ast.CallExpr:
		if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok && id.Name == "new" && len(x.Args) == 1 &&
			isNamedType(a.pass.TypesInfo.TypeOf(x.Args[0]), "net/http", "Client") {
			return true, "an http.Client with no Transport"
		}
		return false, ""
	}
	obj := a.objOf(e)
	v, ok := obj.(*types.Var)
	if !ok {
		return false, ""
	}
	if v.Pkg() != nil && v.Pkg().Path() == "net/http" && v.Name() == "DefaultClient" {
		return true, "http.DefaultClient"
	}
	if v.IsField() {
		return a.fieldClient(v, depth)
	}
	if def := a.localDef(fd, v); def != nil {
		return a.netHTTPClient(fd, def, depth+1)
	}
	if v.Parent() == a.pass.Pkg.Scope() {
		if def := a.pkgVarDef(v); def != nil {
			return a.netHTTPClient(nil, def, depth+1)
		}
	}
	return false, ""
}

func (a *analyzer) netHTTPTransport(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = ast.Unparen(u.X)
	}
	if lit, ok := e.(*ast.CompositeLit); ok {
		return isNamedType(a.pass.TypesInfo.TypeOf(lit), "net/http", "Transport")
	}
	if v, ok := a.objOf(e).(*types.Var); ok && v.Pkg() != nil && v.Pkg().Path() == "net/http" && v.Name() == "DefaultTransport" {
		return true
	}
	return isNamedType(derefType(a.pass.TypesInfo.TypeOf(e)), "net/http", "Transport")
}

func derefType(t types.Type) types.Type {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		return p.Elem()
	}
	return t
}

// fieldClient judges a client held in a struct field: every value the
// package stores there must be net/http's.
func (a *analyzer) fieldClient(field *types.Var, depth int) (bool, string) {
	var inits []ast.Expr
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok && a.pass.TypesInfo.Uses[id] == field {
					inits = append(inits, n.Value)
				}
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if sel, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && a.pass.TypesInfo.Uses[sel.Sel] == field {
							inits = append(inits, n.Rhs[i])
						}
					}
				}
			}
			return true
		})
	}
	if len(inits) == 0 {
		return false, ""
	}
	why := ""
	for _, e := range inits {
		fd := a.enclosing(e.Pos())
		ok, w := a.netHTTPClient(fd, e, depth+1)
		if !ok {
			return false, ""
		}
		why = w
	}
	return true, why
}

// pkgVarDef returns the initialiser of a package-level variable.
func (a *analyzer) pkgVarDef(v *types.Var) ast.Expr {
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if a.pass.TypesInfo.Defs[id] == v && i < len(vs.Values) {
						return vs.Values[i]
					}
				}
			}
		}
	}
	return nil
}

// An httpSend is one HTTP request a function sends.
type httpSend struct {
	call    *ast.CallExpr
	req     reqInfo
	netHTTP bool
	client  string
}

// httpSends finds the requests sent in the function declared by fd:
// net/http's Get, Head, Post, PostForm (package functions and Client
// methods), Client.Do; go-retryablehttp's the same.
func (a *analyzer) httpSends(fd *ast.FuncDecl) []httpSend {
	var out []httpSend
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		fn := a.callee(call)
		if fn == nil || fn.Pkg() == nil {
			return true
		}
		path := trimVendor(fn.Pkg().Path())
		if path != "net/http" && path != retryablePath {
			return true
		}
		var recv ast.Expr
		if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
			recv = sel.X
			if !isNamedType(derefType(fn.Signature().Recv().Type()), path, "Client") {
				return true
			}
		}
		s := httpSend{call: call}
		lib := "net/http"
		if path == retryablePath {
			lib = "go-retryablehttp"
		}
		implied := map[string]string{"Get": "GET", "Head": "HEAD", "Post": "POST", "PostForm": "POST"}
		switch m := implied[fn.Name()]; {
		case m != "" && len(call.Args) > 0:
			u, ok := a.urlOf(fd, call.Args[0], 0)
			if !ok {
				return true
			}
			s.req = reqInfo{method: m, methodParam: -1, url: u, reqParam: -1, lib: lib}
		case fn.Name() == "Do" && recv != nil && len(call.Args) == 1:
			r, ok := a.request(fd, call.Args[0])
			if !ok {
				return true
			}
			if r.lib == "" {
				r.lib = lib
			}
			s.req = r
		default:
			return true
		}
		if path == "net/http" {
			if recv == nil {
				s.netHTTP, s.client = true, "http.DefaultClient"
			} else {
				s.netHTTP, s.client = a.netHTTPClient(fd, recv, 0)
			}
		}
		out = append(out, s)
		return true
	})
	return out
}

// httpSendFacts links the constant requests of every function, and gives
// a SendFact to the functions that send a request whose method, path or
// whole request their caller passes; calls of such functions (in this
// package and through facts) are linked where the arguments are
// constants, or pass the parameter on.
func (a *analyzer) httpSendFacts() {
	type sendsOf struct {
		fd    *ast.FuncDecl
		fn    *types.Func
		sends []httpSend
	}
	var all []sendsOf
	for _, fd := range a.order {
		ss := a.httpSends(fd)
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		all = append(all, sendsOf{fd, fn, ss})
		var params []Send
		for _, s := range ss {
			if ps, ok := a.resolveHTTP(fd, s.call, s.req, Send{Kind: HTTP, NetHTTP: s.netHTTP, Client: s.client, MethodParam: -1, PathParam: -1, ReqParam: -1}); ok {
				params = append(params, ps...)
			}
		}
		if len(params) > 0 {
			a.sends[fn] = dedupSends(append(a.sends[fn], params...))
		}
	}
	// Calls of the functions that take the method or the path: three
	// rounds pass them through wrappers of wrappers in the package.
	for range 3 {
		changed := false
		for _, so := range all {
			ast.Inspect(so.fd.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				callee := a.callee(call)
				if callee == nil || callee == so.fn {
					return true
				}
				for _, s := range a.sendsOf(callee) {
					if s.Kind != HTTP || s.MethodParam < 0 && s.PathParam < 0 && s.ReqParam < 0 {
						continue
					}
					params, ok := a.resolveCall(so.fd, call, s)
					if !ok || len(params) == 0 {
						continue
					}
					before := len(a.sends[so.fn])
					a.sends[so.fn] = dedupSends(append(a.sends[so.fn], params...))
					changed = changed || len(a.sends[so.fn]) != before
				}
				return true
			})
		}
		if !changed {
			break
		}
	}
}

// resolveCall resolves a call of a function whose send takes parameters:
// a link where the arguments make it constant, or sends of the caller's
// own parameters.
func (a *analyzer) resolveCall(fd *ast.FuncDecl, call *ast.CallExpr, s Send) ([]Send, bool) {
	arg := func(i int) ast.Expr {
		if i >= 0 && i < len(call.Args) && !call.Ellipsis.IsValid() {
			return call.Args[i]
		}
		return nil
	}
	via := "through " + amplify.FuncName(a.callee(call))
	if s.Via != "" {
		via += " (" + s.Via + ")"
	}
	if s.ReqParam >= 0 {
		r, ok := a.request(fd, arg(s.ReqParam))
		if !ok {
			return nil, false
		}
		r.keyHeader = r.keyHeader || s.KeyHeader
		return a.resolveHTTP(fd, call, r, Send{Kind: HTTP, NetHTTP: s.NetHTTP, Client: s.Client, Via: via, MethodParam: -1, PathParam: -1, ReqParam: -1})
	}
	r := reqInfo{method: s.Method, methodParam: -1, reqParam: -1, keyHeader: s.KeyHeader, url: urlInfo{path: s.Path, varTail: s.VarTail, param: -1}}
	if s.MethodParam >= 0 {
		e := arg(s.MethodParam)
		if m, ok := a.str(e); ok {
			r.method = strings.ToUpper(m)
		} else if i := a.paramIndex(fd, e); i >= 0 {
			r.methodParam = i
		} else {
			return nil, false
		}
	}
	if s.PathParam >= 0 {
		e := arg(s.PathParam)
		if e == nil {
			return nil, false
		}
		if s.Path == "" {
			u, ok := a.urlOf(fd, e, 0)
			if !ok {
				return nil, false
			}
			r.url = u
		} else if c, ok := a.str(e); ok && !strings.Contains(c, "://") {
			r.url = urlInfo{path: s.Path + c, param: -1}
		} else if i := a.paramIndex(fd, e); i >= 0 {
			r.url = urlInfo{path: s.Path, param: i}
		} else if strings.HasSuffix(s.Path, "/") {
			r.url = urlInfo{path: s.Path, varTail: true, param: -1}
		} else {
			return nil, false
		}
	}
	return a.resolveHTTP(fd, call, r, Send{Kind: HTTP, NetHTTP: s.NetHTTP, Client: s.Client, Via: via, MethodParam: -1, PathParam: -1, ReqParam: -1})
}

// resolveHTTP links a request at call when its method and path are
// constants, and otherwise returns the send of the function's parameters
// that it is (base is the send's kind, client and evidence).
func (a *analyzer) resolveHTTP(fd *ast.FuncDecl, call *ast.CallExpr, r reqInfo, base Send) ([]Send, bool) {
	if r.reqParam >= 0 {
		base.ReqParam = r.reqParam
		return []Send{base}, true
	}
	if r.methodParam < 0 && r.url.param < 0 {
		if r.method == "" {
			return nil, false
		}
		p, ok := parseReqPath(r.url.path, r.url.varTail)
		if !ok {
			return nil, false
		}
		m := r.method + " " + p.String()
		via := "HTTP " + r.method + " request at " + a.short(call.Pos())
		if base.Via != "" {
			via += " " + base.Via
		}
		if base.Client != "" {
			via += ", sent by " + base.Client
		}
		l := amplify.Link{Kind: HTTP, Method: m, Via: via}
		a.link(call, replayLink(l, r.method, base.NetHTTP, r.keyHeader, base.Client))
		return nil, true
	}
	s := base
	s.Method = r.method
	s.MethodParam = r.methodParam
	s.Path, s.VarTail = r.url.path, r.url.varTail
	s.PathParam = r.url.param
	s.KeyHeader = r.keyHeader
	return []Send{s}, true
}

// ParseHTTPMethod splits a link's HTTP method text ("POST /v1/notify",
// "PUT /kv/…") into the request's method and path.
func ParseHTTPMethod(text string) (method string, p reqPath, ok bool) {
	m, path, found := strings.Cut(text, " ")
	if !found {
		return "", reqPath{}, false
	}
	varTail := strings.HasSuffix(path, "…")
	path = strings.TrimSuffix(path, "…")
	p, ok = parseReqPath(path, varTail)
	return m, p, ok
}

// MatchHTTP reports whether a request ("POST /v1/notify") reaches a
// registered route, and how specifically (a larger score wins).
func MatchHTTP(s Served, request string) (int, bool) {
	if s.Kind != HTTP {
		return 0, false
	}
	m, p, ok := ParseHTTPMethod(request)
	if !ok {
		return 0, false
	}
	r, ok := parseRoute(s.Router, s.RouteMethod, s.Pattern)
	if !ok {
		return 0, false
	}
	return r.match(m, p)
}
