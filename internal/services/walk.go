package services

import (
	"go/ast"
	"go/types"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/internal/amplify"
)

// walk visits every function: it links the calls of clients (generated
// client methods, functions with a SendFact) and records the
// registrations of handlers. Two passes first find the functions that
// register what their callers pass (wrappers of RegisterXServer, of a
// router's Handle), wherever they are declared in the package.
func (a *analyzer) walk() {
	a.prepass = true
	for range 2 {
		a.walkOnce()
	}
	a.prepass = false
	a.walkOnce()
}

func (a *analyzer) walkOnce() {
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		litCall := map[*ast.FuncLit]*ast.CallExpr{}
		gorillaMethods := map[*ast.CallExpr][]string{}
		funs := map[ast.Expr]bool{}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				funs[ast.Unparen(n.Fun)] = true
				for _, arg := range n.Args {
					if lit, ok := ast.Unparen(arg).(*ast.FuncLit); ok {
						litCall[lit] = n
					}
				}
				a.noteGorillaMethods(n, gorillaMethods)
				if !a.prepass {
					a.linkCall(fd, n)
				}
				a.registration(fd, fn, n)
				a.route(fd, n, litCall, gorillaMethods)
			case *ast.SelectorExpr:
				if !funs[n] && !a.prepass {
					a.linkMethodValue(n)
				}
			}
			return true
		})
	}
}

// linkCall links a call of a client method or of a function whose send
// the amplification analysis does not see inside it.
func (a *analyzer) linkCall(fd *ast.FuncDecl, call *ast.CallExpr) {
	callee := a.callee(call)
	if callee == nil {
		return
	}
	iface := isInterfaceMethod(callee)
	if iface && callee.Pkg() == a.pass.Pkg {
		return // generated code does not call its own client interface (Twirp's server holds the implementation as one)
	}
	for _, s := range a.sendsOf(callee) {
		if s.Kind == HTTP || s.Inside && !iface {
			continue
		}
		a.link(call, amplify.Link{Kind: s.Kind, Method: s.Method, Via: clientVia(callee, s)})
	}
}

func isInterfaceMethod(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	return recv != nil && types.IsInterface(recv.Type())
}

func clientVia(fn *types.Func, s Send) string {
	what := map[string]string{GRPC: "gRPC", Connect: "connect", Twirp: "Twirp"}[s.Kind]
	v := "generated " + what + " client " + amplify.FuncName(fn)
	if s.Via != "" {
		v += " (" + s.Via + ")"
	}
	return v
}

// linkMethodValue links a method value of a client (c.ledger.Post passed
// to a retry helper): the amplification analysis asks for the operation.
func (a *analyzer) linkMethodValue(sel *ast.SelectorExpr) {
	s, ok := a.pass.TypesInfo.Selections[sel]
	if !ok || s.Kind() != types.MethodVal {
		return
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok {
		return
	}
	iface := isInterfaceMethod(fn)
	if iface && fn.Pkg() == a.pass.Pkg {
		return
	}
	for _, snd := range a.sendsOf(fn) {
		if snd.Kind == HTTP || snd.Inside && !iface {
			continue
		}
		a.link(sel, amplify.Link{Kind: snd.Kind, Method: snd.Method, Via: clientVia(fn, snd)})
	}
}

// registration records the handlers a call of a registration function
// registers (RegisterLedgerServer(s, impl), NewLedgerHandler(impl),
// s.RegisterService(&desc, impl)); a registration of the function's own
// parameter makes the function a registration function.
func (a *analyzer) registration(fd *ast.FuncDecl, fn *types.Func, call *ast.CallExpr) {
	callee := a.callee(call)
	if callee == nil {
		return
	}
	var regs []Reg
	if isGRPC(callee, "RegisterService") && len(call.Args) == 2 {
		if d := a.descOf(call.Args[0]); d != nil {
			if a.paramIndex(fd, call.Args[1]) >= 0 {
				return // a registration function's own body (rpcFacts)
			}
			regs = []Reg{{Kind: GRPC, Service: d.Service, Methods: d.Methods, Impl: 1, Via: "RegisterService " + d.Service}}
		}
	} else {
		regs = a.regsOf(callee)
	}
	for _, r := range regs {
		if r.Impl >= len(call.Args) {
			continue
		}
		if r.Kind == HTTP {
			a.wrappedRoute(fd, fn, callee, call, r)
			continue
		}
		impl := call.Args[r.Impl]
		if i := a.paramIndex(fd, impl); i >= 0 && callee.Origin() != fn {
			w := r
			w.Impl = i
			w.Via = "through " + amplify.FuncName(callee)
			a.addRegOnce(fn, w)
			continue
		}
		if a.prepass {
			continue
		}
		t := a.implType(fd, impl, 0)
		via := amplify.FuncName(callee) + " at " + a.short(call.Pos()) + " registers " + r.Service
		for _, m := range r.Methods {
			s := Served{Kind: r.Kind, Method: m.Name, Pos: a.pos(call.Pos()), Via: via, at: call.Pos()}
			if t != nil {
				if h := a.methodOf(t, m.Go); h != nil {
					a.setHandler(&s, h)
				} else {
					s.Name = "(" + types.TypeString(t, (*types.Package).Name) + " has no method " + m.Go + ")"
				}
			} else {
				s.Name = "(implementation not known statically: " + types.TypeString(a.pass.TypesInfo.TypeOf(impl), (*types.Package).Name) + ")"
			}
			a.res.Served = append(a.res.Served, s)
		}
	}
}

func (a *analyzer) addRegOnce(fn *types.Func, r Reg) {
	for _, old := range a.regs[fn] {
		if old.Kind == r.Kind && old.Service == r.Service && old.Impl == r.Impl {
			return
		}
	}
	a.regs[fn] = append(a.regs[fn], r)
}

func (a *analyzer) setHandler(s *Served, h *types.Func) {
	s.Handler = Key(h)
	s.Name = amplify.FuncName(h)
	s.HandlerPos = a.pos(h.Pos())
	a.res.Handlers[s.Handler] = h
}

// methodOf returns the method name of t (or *t).
func (a *analyzer) methodOf(t types.Type, name string) *types.Func {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, name)
	if fn, ok := obj.(*types.Func); ok {
		return fn
	}
	if _, isPtr := t.(*types.Pointer); !isPtr {
		obj, _, _ = types.LookupFieldOrMethod(types.NewPointer(t), true, nil, name)
		if fn, ok := obj.(*types.Func); ok {
			return fn
		}
	}
	return nil
}

// implType returns the concrete type of an implementation expression:
// its static type when it is not an interface, or what the variable or
// the constructor it comes from gives.
func (a *analyzer) implType(fd *ast.FuncDecl, e ast.Expr, depth int) types.Type {
	if depth > 3 || e == nil {
		return nil
	}
	t := a.pass.TypesInfo.TypeOf(e)
	if t != nil && !types.IsInterface(t) {
		return t
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.Ident:
		if v := a.varOf(x); v != nil {
			if def := a.localDef(fd, v); def != nil {
				return a.implType(fd, def, depth+1)
			}
		}
	case *ast.CallExpr:
		fn := a.callee(x)
		if fn == nil {
			return nil
		}
		cfd := a.decls[fn.Origin()]
		if cfd == nil {
			return nil
		}
		var found types.Type
		ok := true
		ast.Inspect(cfd.Body, func(n ast.Node) bool {
			if _, isLit := n.(*ast.FuncLit); isLit {
				return false
			}
			ret, isRet := n.(*ast.ReturnStmt)
			if !isRet || len(ret.Results) == 0 {
				return true
			}
			rt := a.implType(cfd, ret.Results[0], depth+1)
			if rt == nil || found != nil && !types.Identical(rt, found) {
				ok = false
			}
			found = rt
			return true
		})
		if ok {
			return found
		}
	}
	return nil
}

// Route registrations.

// httpMethods maps the routers' method-named registrations to methods.
var httpMethods = map[string]string{
	"Get": "GET", "Post": "POST", "Put": "PUT", "Patch": "PATCH", "Delete": "DELETE",
	"Head": "HEAD", "Options": "OPTIONS", "Connect": "CONNECT", "Trace": "TRACE",
	"GET": "GET", "POST": "POST", "PUT": "PUT", "PATCH": "PATCH", "DELETE": "DELETE",
	"HEAD": "HEAD", "OPTIONS": "OPTIONS", "CONNECT": "CONNECT", "TRACE": "TRACE",
}

// routerOf names the router package of a function, "" for none.
func routerOf(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	p := trimVendor(fn.Pkg().Path())
	switch {
	case p == "net/http":
		return routerNetHTTP
	case samePkg(p, "github.com/go-chi/chi"):
		return routerChi
	case p == "github.com/gorilla/mux":
		return routerGorilla
	case p == "github.com/gin-gonic/gin":
		return routerGin
	case samePkg(p, "github.com/labstack/echo"):
		return routerEcho
	}
	return ""
}

// noteGorillaMethods records r.HandleFunc(...).Methods("POST"): the
// methods of the route the inner call registers.
func (a *analyzer) noteGorillaMethods(call *ast.CallExpr, methods map[*ast.CallExpr][]string) {
	fn := a.callee(call)
	if routerOf(fn) != routerGorilla || fn.Name() != "Methods" {
		return
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return
	}
	inner, ok := ast.Unparen(sel.X).(*ast.CallExpr)
	if !ok {
		return
	}
	for _, arg := range call.Args {
		if m, ok := a.str(arg); ok {
			methods[inner] = append(methods[inner], strings.ToUpper(m))
		}
	}
}

// route records an HTTP route registration with a constant pattern.
func (a *analyzer) route(fd *ast.FuncDecl, call *ast.CallExpr, litCall map[*ast.FuncLit]*ast.CallExpr, gorillaMethods map[*ast.CallExpr][]string) {
	fn := a.callee(call)
	router := routerOf(fn)
	if router == "" {
		return
	}
	var recv ast.Expr
	if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
		recv = sel.X
	}
	name := fn.Name()
	var methods []string
	var pattern string
	var handler ast.Expr
	args := call.Args
	arg := func(i int) ast.Expr {
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	patternParam := -1
	afterBase := false
	patternAt := func(i int) bool {
		p, ok := a.str(arg(i))
		pattern = p
		if !ok {
			if p, ok := a.afterBase(arg(i)); ok {
				pattern, afterBase = p, true
				return true
			}
			patternParam = a.paramIndex(fd, arg(i))
			return patternParam >= 0
		}
		return ok
	}
	switch router {
	case routerNetHTTP:
		if name != "Handle" && name != "HandleFunc" || recv != nil && !isNamedType(derefType(fn.Signature().Recv().Type()), "net/http", "ServeMux") {
			return
		}
		if !patternAt(0) {
			return
		}
		handler = arg(1)
		methods = []string{""}
	case routerChi:
		switch {
		case httpMethods[name] != "" && name != strings.ToUpper(name):
			methods = []string{httpMethods[name]}
			if !patternAt(0) {
				return
			}
			handler = arg(1)
		case name == "Method" || name == "MethodFunc":
			m, ok := a.str(arg(0))
			if !ok || !patternAt(1) {
				return
			}
			methods, handler = []string{strings.ToUpper(m)}, arg(2)
		case name == "Handle" || name == "HandleFunc":
			if !patternAt(0) {
				return
			}
			methods, handler = []string{""}, arg(1)
		default:
			return
		}
	case routerGorilla:
		switch name {
		case "Handle", "HandleFunc":
			if recv == nil || !isNamedType(derefType(fn.Signature().Recv().Type()), "github.com/gorilla/mux", "Router") || !patternAt(0) {
				return
			}
			methods, handler = gorillaMethods[call], arg(1)
		case "Handler", "HandlerFunc":
			// r.Path("/x").Methods("POST").HandlerFunc(h)
			p, ms, root, ok := a.gorillaChain(recv)
			if !ok {
				return
			}
			pattern, methods, handler, recv = p, ms, arg(0), root
		default:
			return
		}
		if len(methods) == 0 {
			methods = []string{""}
		}
	case routerGin, routerEcho:
		switch {
		case httpMethods[name] != "" && name == strings.ToUpper(name):
			if !patternAt(0) {
				return
			}
			methods = []string{httpMethods[name]}
		case name == "Any":
			if !patternAt(0) {
				return
			}
			methods = []string{""}
		case name == "Handle" && router == routerGin, name == "Add" && router == routerEcho:
			m, ok := a.str(arg(0))
			if !ok || !patternAt(1) {
				return
			}
			methods = []string{strings.ToUpper(m)}
			args = args[1:]
		default:
			return
		}
		// gin: handlers after the path, the last one serves; echo: the
		// handler, then middleware.
		if router == routerGin {
			handler = args[len(args)-1]
		} else {
			handler = arg(1)
		}
		if call.Ellipsis.IsValid() {
			return
		}
	}
	if handler == nil {
		return
	}
	prefix := ""
	if recv != nil {
		p, ok := a.prefixOf(fd, recv, litCall, 0)
		if !ok {
			return
		}
		prefix = p
	}
	if patternParam >= 0 {
		// A router's wrapper: its callers register the routes.
		if h := a.paramIn(fd, handler, 0); h >= 0 && len(methods) == 1 {
			fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
			a.addRegOnce(fn, Reg{Kind: HTTP, Router: router, Prefix: prefix, PatternParam: patternParam, Impl: h,
				Methods: []RegMethod{{Name: methods[0]}}, Via: "through " + amplify.FuncName(fn)})
		}
		return
	}
	if a.prepass {
		return
	}
	via := ""
	if afterBase {
		via = "after a base path that is not a constant"
	}
	a.addRoute(fd, call, router, methods, joinRoute(prefix, pattern), handler, via)
}

// afterBase reads a route pattern that follows a base path from a
// variable, base + "/cart": the constant part, which starts with a slash.
func (a *analyzer) afterBase(e ast.Expr) (string, bool) {
	ops := flattenAdd(e)
	if len(ops) < 2 {
		return "", false
	}
	if _, ok := a.str(ops[0]); ok {
		return "", false
	}
	var b strings.Builder
	for _, op := range ops[1:] {
		c, ok := a.str(op)
		if !ok {
			return "", false
		}
		b.WriteString(c)
	}
	if p := b.String(); strings.HasPrefix(p, "/") {
		return p, true
	}
	return "", false
}

// paramIn returns the index of the parameter of fd that an expression is,
// or that a call in it (a middleware: nethttp.Middleware(tracer, h))
// takes; -1 for none.
func (a *analyzer) paramIn(fd *ast.FuncDecl, e ast.Expr, depth int) int {
	if i := a.paramIndex(fd, e); i >= 0 || depth > 3 {
		return i
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		for _, arg := range x.Args {
			if i := a.paramIn(fd, arg, depth+1); i >= 0 {
				return i
			}
		}
	case *ast.Ident:
		if v := a.varOf(x); v != nil {
			if def := a.localDef(fd, v); def != nil {
				return a.paramIn(fd, def, depth+1)
			}
		}
	}
	return -1
}

// wrappedRoute records the route a call of a router's wrapper registers.
func (a *analyzer) wrappedRoute(fd *ast.FuncDecl, fn, callee *types.Func, call *ast.CallExpr, r Reg) {
	if r.PatternParam >= len(call.Args) || r.Impl >= len(call.Args) || call.Ellipsis.IsValid() {
		return
	}
	pattern, ok := a.str(call.Args[r.PatternParam])
	if !ok {
		// A wrapper of the wrapper.
		if p := a.paramIndex(fd, call.Args[r.PatternParam]); p >= 0 {
			if h := a.paramIn(fd, call.Args[r.Impl], 0); h >= 0 && callee.Origin() != fn {
				w := r
				w.PatternParam, w.Impl, w.Via = p, h, "through "+amplify.FuncName(callee)
				a.addRegOnce(fn, w)
			}
		}
		return
	}
	if a.prepass {
		return
	}
	method := ""
	if len(r.Methods) > 0 {
		method = r.Methods[0].Name
	}
	a.addRoute(fd, call, r.Router, []string{method}, joinRoute(r.Prefix, pattern), call.Args[r.Impl], amplify.FuncName(callee))
}

// addRoute records the route of a registration call with a constant
// pattern, for each method; wrapper names the router's wrapper called,
// if any.
func (a *analyzer) addRoute(fd *ast.FuncDecl, call *ast.CallExpr, router string, methods []string, full string, handler ast.Expr, wrapper string) {
	if a.rpcServer(fd, handler) {
		return // an RPC server mounted on its path: its registration stands
	}
	h := a.handlerOf(fd, handler, 0)
	if h.router {
		return // a router mounted on a path: its own routes are registered
	}
	for _, m := range methods {
		s := Served{Kind: HTTP, Router: router, RouteMethod: m, Pattern: full, Pos: a.pos(call.Pos()), at: call.Pos()}
		s.Method = routeText(router, m, full)
		s.Via = router + " route " + quote(routeText(router, m, full)) + " at " + a.short(call.Pos())
		switch {
		case strings.HasPrefix(wrapper, "after "):
			s.Via += " " + wrapper
		case wrapper != "":
			s.Via += " through " + wrapper
		}
		if h.via != "" {
			s.Via += " (" + h.via + ")"
		}
		switch {
		case h.fn != nil:
			a.setHandler(&s, h.fn)
		case h.std != "":
			s.Handler, s.Name = StdKey(h.std), h.std+" (the standard library's)"
		case h.lit != nil:
			s.Handler = LitKey(a.pos(h.lit.Pos()))
			s.Name = a.funcName(a.enclosing(h.lit.Pos())) + " (func literal)"
			s.HandlerPos = a.pos(h.lit.Pos())
			a.lits[h.lit] = true
		default:
			s.Name = "(handler not known statically)"
		}
		a.res.Served = append(a.res.Served, s)
	}
}

// routeText is a route as the reports show it: "POST /v1/notify"; a
// net/http pattern keeps its own method.
func routeText(router, method, pattern string) string {
	if router == routerNetHTTP || method == "" {
		return pattern
	}
	return method + " " + pattern
}

// joinRoute joins a group's prefix and a route's pattern; a net/http
// pattern keeps its method in front.
func joinRoute(prefix, pattern string) string {
	if prefix == "" {
		return pattern
	}
	m, rest, hasMethod := strings.Cut(pattern, " ")
	if !hasMethod {
		m, rest = "", pattern
	}
	p := strings.TrimSuffix(prefix, "/") + "/" + strings.TrimPrefix(rest, "/")
	if rest == "" || rest == "/" {
		p = prefix
	}
	if hasMethod {
		return m + " " + p
	}
	return p
}

// gorillaChain reads r.Path("/x").Methods("POST") (and PathPrefix),
// returning the path, the methods and the router at the chain's root.
func (a *analyzer) gorillaChain(e ast.Expr) (string, []string, ast.Expr, bool) {
	var path string
	var methods []string
	for depth := 0; depth < 8; depth++ {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok {
			return path, methods, e, path != ""
		}
		fn := a.callee(call)
		if routerOf(fn) != routerGorilla {
			return path, methods, e, path != ""
		}
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return "", nil, nil, false
		}
		switch fn.Name() {
		case "Path", "PathPrefix":
			p, ok := a.str(call.Args[0])
			if !ok {
				p, ok = a.afterBase(call.Args[0])
			}
			if !ok || path != "" {
				return "", nil, nil, false
			}
			path = p
			if fn.Name() == "PathPrefix" && !strings.HasSuffix(p, "/") {
				path += "/"
			}
		case "Methods":
			for _, arg := range call.Args {
				if m, ok := a.str(arg); ok {
					methods = append(methods, strings.ToUpper(m))
				}
			}
		case "Name", "Schemes", "Headers", "Queries", "Host", "NewRoute":
		default:
			return "", nil, nil, false
		}
		if isNamedType(derefType(fn.Signature().Recv().Type()), "github.com/gorilla/mux", "Router") {
			return path, methods, sel.X, path != ""
		}
		e = sel.X
	}
	return "", nil, nil, false
}

// prefixOf returns the path prefix routes registered on a router
// expression get: a gin or echo group, a gorilla subrouter, a chi Route
// or Group function's router, a chi With chain; "" for a router made
// here or passed in.
func (a *analyzer) prefixOf(fd *ast.FuncDecl, e ast.Expr, litCall map[*ast.FuncLit]*ast.CallExpr, depth int) (string, bool) {
	if depth > 6 {
		return "", false
	}
	e = ast.Unparen(e)
	switch x := e.(type) {
	case *ast.CallExpr:
		fn := a.callee(x)
		sel, isSel := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		router := routerOf(fn)
		switch {
		case router == "" || !isSel || fn.Signature().Recv() == nil:
			return "", true // a constructor: chi.NewRouter(), mux.NewRouter()
		case fn.Name() == "Group" && (router == routerGin || router == routerEcho):
			p, ok := a.str(x.Args[0])
			if !ok {
				return "", false
			}
			base, ok := a.prefixOf(fd, sel.X, litCall, depth+1)
			return joinRoute(base, p), ok
		case fn.Name() == "Subrouter" && router == routerGorilla:
			p, _, root, ok := a.gorillaChain(sel.X)
			if !ok {
				return "", false
			}
			base, ok := a.prefixOf(fd, root, litCall, depth+1)
			return joinRoute(base, strings.TrimSuffix(p, "/")), ok
		case router == routerChi && (fn.Name() == "With" || fn.Name() == "Group"):
			return a.prefixOf(fd, sel.X, litCall, depth+1)
		case router == routerChi && fn.Name() == "Route":
			p, ok := a.str(x.Args[0])
			if !ok {
				return "", false
			}
			base, ok := a.prefixOf(fd, sel.X, litCall, depth+1)
			return joinRoute(base, p), ok
		}
		return "", true
	case *ast.Ident:
		v := a.varOf(x)
		if v == nil {
			return "", true
		}
		// The router parameter of a chi Route or Group function literal.
		for lit, call := range litCall {
			if lit.Type.Params == nil || v.Pos() < lit.Type.Params.Pos() || v.Pos() >= lit.Type.Params.End() {
				continue
			}
			fn := a.callee(call)
			sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
			if routerOf(fn) != routerChi || !ok {
				return "", true
			}
			base, ok := a.prefixOf(fd, sel.X, litCall, depth+1)
			if !ok {
				return "", false
			}
			if fn.Name() == "Route" {
				p, ok := a.str(call.Args[0])
				if !ok {
					return "", false
				}
				return joinRoute(base, p), true
			}
			return base, true
		}
		if def := a.localDef(fd, v); def != nil {
			return a.prefixOf(fd, def, litCall, depth+1)
		}
	}
	return "", true
}

// rpcServer reports whether a handler expression is (a variable defined
// by) a call of a registration function: a Twirp server or a connect
// handler, whose methods its registration serves.
func (a *analyzer) rpcServer(fd *ast.FuncDecl, e ast.Expr) bool {
	e = ast.Unparen(e)
	if v := a.varOf(e); v != nil {
		if def := a.localDef(fd, v); def != nil {
			e = ast.Unparen(def)
		}
	}
	call, ok := e.(*ast.CallExpr)
	return ok && len(a.regsOf(a.callee(call))) > 0
}

// A handlerRef is what serves a route: a function or method, a literal,
// or a router of its own (mounted; its routes count).
type handlerRef struct {
	fn     *types.Func
	lit    *ast.FuncLit
	router bool
	std    string // a handler of the standard library: http.FileServer
	via    string
}

// routerTypes are handlers that route to handlers of their own.
var routerTypes = [][2]string{
	{"net/http", "ServeMux"}, {"github.com/go-chi/chi/v5", "Mux"}, {"github.com/go-chi/chi", "Mux"},
	{"github.com/gorilla/mux", "Router"}, {"github.com/gin-gonic/gin", "Engine"},
}

// handlerOf resolves a handler expression: a literal, a function or
// method value, through an http.HandlerFunc conversion, a local variable,
// a middleware call that takes the handler, or a value with a ServeHTTP
// method.
func (a *analyzer) handlerOf(fd *ast.FuncDecl, e ast.Expr, depth int) handlerRef {
	if depth > 4 || e == nil {
		return handlerRef{}
	}
	e = ast.Unparen(e)
	if lit, ok := e.(*ast.FuncLit); ok {
		return handlerRef{lit: lit}
	}
	if fn := a.funcOf(e); fn != nil {
		if isInterfaceMethod(fn) {
			return handlerRef{}
		}
		return handlerRef{fn: fn}
	}
	t := a.pass.TypesInfo.TypeOf(e)
	for _, rt := range routerTypes {
		if isNamedType(derefType(t), rt[0], rt[1]) {
			return handlerRef{router: true}
		}
	}
	switch x := e.(type) {
	case *ast.CallExpr:
		if tv, ok := a.pass.TypesInfo.Types[x.Fun]; ok && tv.IsType() && len(x.Args) == 1 {
			return a.handlerOf(fd, x.Args[0], depth+1)
		}
		callee := a.callee(x)
		if callee != nil && isFuncOf(callee, "net/http", "FileServer", "FileServerFS", "NotFoundHandler", "RedirectHandler") {
			return handlerRef{std: "http." + callee.Name()}
		}
		if callee != nil && isFuncOf(callee, "net/http", "StripPrefix", "TimeoutHandler", "MaxBytesHandler") && len(x.Args) > 1 {
			h := a.handlerOf(fd, x.Args[1], depth+1)
			if h.via == "" {
				h.via = "through http." + callee.Name()
			}
			return h
		}
		for _, arg := range x.Args {
			h := a.handlerOf(fd, arg, depth+1)
			if h.fn != nil || h.lit != nil {
				if callee != nil {
					h.via = "through " + amplify.FuncName(callee)
				}
				return h
			}
		}
	case *ast.Ident:
		if v := a.varOf(x); v != nil {
			if def := a.localDef(fd, v); def != nil {
				return a.handlerOf(fd, def, depth+1)
			}
		}
	}
	if t != nil && !types.IsInterface(t) {
		if h := a.methodOf(t, "ServeHTTP"); h != nil {
			return handlerRef{fn: h}
		}
	}
	return handlerRef{}
}

// reach gives each function the registrations it makes or reaches
// (ServesFact), and a main package the registrations of its binary.
func (a *analyzer) reach() {
	sortServed(a.res.Served)
	memo := map[*types.Func][]Served{}
	busy := map[*types.Func]bool{}
	var of func(fn *types.Func) []Served
	of = func(fn *types.Func) []Served {
		fn = fn.Origin()
		if fn.Pkg() != a.pass.Pkg {
			var f ServesFact
			if a.pass.ImportObjectFact(fn, &f) {
				return f.Served
			}
			return nil
		}
		if s, ok := memo[fn]; ok || busy[fn] {
			return s
		}
		fd := a.decls[fn]
		if fd == nil {
			return nil
		}
		busy[fn] = true
		var out []Served
		for _, s := range a.res.Served {
			if fd.Pos() <= s.at && s.at < fd.End() {
				out = append(out, s)
			}
		}
		// A call through an interface reaches the method of each
		// concrete type the function builds (a constructor's result, a
		// composite literal) that implements it: var srv server =
		// geo.New(); srv.Run().
		var built []types.Type
		var viaIface []*types.Func
		addBuilt := func(t types.Type) {
			if t == nil || types.IsInterface(t) {
				return
			}
			for _, b := range built {
				if types.Identical(b, t) {
					return
				}
			}
			built = append(built, t)
		}
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			var ref *types.Func
			switch x := n.(type) {
			case *ast.Ident:
				ref, _ = a.pass.TypesInfo.Uses[x].(*types.Func)
			case *ast.CompositeLit:
				addBuilt(a.pass.TypesInfo.TypeOf(x))
			case *ast.CallExpr:
				if c := a.callee(x); c != nil && isInterfaceMethod(c) && c.Pkg() == a.pass.Pkg {
					viaIface = append(viaIface, c)
				}
				if c := a.callee(x); c != nil && c.Signature().Results().Len() > 0 {
					addBuilt(c.Signature().Results().At(0).Type())
				}
			}
			if ref != nil && ref.Origin() != fn && !isInterfaceMethod(ref) {
				out = append(out, of(ref)...)
			}
			return true
		})
		for _, m := range viaIface {
			iface, ok := m.Signature().Recv().Type().Underlying().(*types.Interface)
			if !ok {
				continue
			}
			for _, t := range built {
				if !types.Implements(t, iface) {
					continue
				}
				if impl := a.methodOf(t, m.Name()); impl != nil && impl.Origin() != fn {
					out = append(out, of(impl)...)
				}
			}
		}
		busy[fn] = false
		out = dedupServed(out)
		memo[fn] = out
		return out
	}
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if s := of(fn); len(s) > 0 {
			a.pass.ExportObjectFact(fn, &ServesFact{Served: s})
		}
	}
	if a.pass.Pkg.Name() != "main" {
		return
	}
	var main []Served
	for _, fd := range a.order {
		if fd.Recv == nil && (fd.Name.Name == "main" || fd.Name.Name == "init") {
			main = append(main, of(a.pass.TypesInfo.Defs[fd.Name].(*types.Func))...)
		}
	}
	for _, s := range a.res.Served {
		if a.enclosing(s.at) == nil {
			main = append(main, s) // package-level initialisers
		}
	}
	a.res.Main = dedupServed(main)
}

func dedupServed(ss []Served) []Served {
	seen := map[string]bool{}
	var out []Served
	for _, s := range ss {
		k := s.Pos + "\x00" + s.Method + "\x00" + s.Handler
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	sortServed(out)
	return out
}

func sortServed(ss []Served) {
	sort.SliceStable(ss, func(i, j int) bool {
		fa, la, ca, _ := amplify.ParsePos(ss[i].Pos)
		fb, lb, cb, _ := amplify.ParsePos(ss[j].Pos)
		switch {
		case fa != fb:
			return fa < fb
		case la != lb:
			return la < lb
		case ca != cb:
			return ca < cb
		}
		return ss[i].Method < ss[j].Method
	})
}
