// Package services finds where one service of a monorepo calls the next,
// and what each service serves, from what the code states: the calls
// that leave the process and the handlers a program registers. The audit
// links the two once every package is analyzed, and follows a request
// from one binary into the next.
//
// A call leaves the process (it is a link, in internal/amplify's terms)
// when it is
//   - a call of a method of a generated gRPC client: the generated method
//     calls Invoke or NewStream with its full method name constant
//     ("/ledger.v1.Ledger/Post"), and the client interface's method has no
//     other implementation in its package;
//   - a call of a method of a generated connect-go client (its field holds
//     connect.NewClient(httpClient, baseURL+procedure)) or Twirp client
//     (the generated method names its package, service and method with
//     ctxsetters): the procedure constant;
//   - an HTTP request whose method and URL path are constants after the
//     base (base + "/v1/notify", url.JoinPath(base, "v1", "notify"), a
//     constant URL; a path that ends in a value, "/kv/" + key, is kept
//     with a variable last segment), sent by net/http (http.Get, a Client's
//     Do, Get, Post...), go-retryablehttp, or a function of the analyzed
//     code that sends such a request with a method or a path its caller
//     passes (a SendFact on it).
//
// net/http's Transport replays a request once on a dropped reused
// connection when it is idempotent (GET, HEAD, OPTIONS, TRACE, or carrying
// an Idempotency-Key or X-Idempotency-Key header): where the client is
// net/http's (http.DefaultClient, the package's Get/Post, an http.Client
// whose Transport is unset or an *http.Transport, as far as the package
// shows), a link says so with a transport factor of 2.
//
// A handler is registered by
//   - a generated gRPC RegisterXServer(s, impl) (or s.RegisterService with
//     the generated service descriptor): every method of the descriptor,
//     served by impl's method of the name the descriptor's handler calls;
//   - a generated connect-go NewXHandler(impl) or Twirp NewXServer(impl);
//   - an HTTP route with a constant pattern: net/http's ServeMux (Go 1.22
//     patterns with methods and wildcards), chi, gorilla/mux, gin and echo
//     routes (groups and subrouters with a constant prefix included),
//     served by the function, method or literal given (through an
//     http.HandlerFunc conversion or a middleware call that takes it).
//
// A function that registers handlers (directly or through the functions
// it calls, starts or refers to) carries a ServesFact; the binary of a
// main package serves what its main and init functions reach.
//
// The analyzer reports nothing. Its result implements amplify.Linker, so
// the amplification analyzer built with it (amplify.New(site, Analyzer))
// carries the ends of each function.
package services

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/srcpos"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Analyzer finds the calls that leave the process and the handlers each
// package registers.
var Analyzer = &analysis.Analyzer{
	Name:       "services",
	Doc:        "find calls from one service to another and the handlers services register",
	URL:        "https://pkg.go.dev/github.com/retrylint/retrylint/internal/services",
	ResultType: reflect.TypeFor[*Result](),
	FactTypes:  []analysis.Fact{new(SendFact), new(RegisterFact), new(ServesFact), new(DescFact)},
	Run:        run,
}

// Kinds of link.
const (
	GRPC    = "grpc"
	Connect = "connect"
	Twirp   = "twirp"
	HTTP    = "http"
)

// A Send is what calling a function sends out of the process.
type Send struct {
	Kind string
	// Method is the full method name or procedure ("/ledger.v1.Ledger/Post"),
	// or for HTTP the request's method ("" when MethodParam gives it).
	Method string
	// Path is an HTTP request's path, or the constant part before the path
	// parameter when PathParam gives the rest ("/v1/"); VarTail says a
	// value that is not a constant ends it.
	Path    string
	VarTail bool
	// MethodParam and PathParam are the indices of the parameters that
	// give the HTTP method and the rest of the path, ReqParam of the one
	// that gives the whole request; -1 when none does.
	MethodParam, PathParam, ReqParam int
	// NetHTTP says the request goes through net/http's Transport (Client
	// names the client); KeyHeader that it carries an idempotency key
	// header.
	NetHTTP, KeyHeader bool
	Client             string
	// Inside says the function makes the send by a call the amplification
	// analysis links itself (the generated gRPC method's Invoke): a call
	// of the function is followed, not linked.
	Inside bool
	Via    string // the evidence
}

// SendFact marks a function or an interface method whose call sends
// requests out of the process.
type SendFact struct {
	Sends []Send
}

func (*SendFact) AFact() {}

func (f *SendFact) String() string {
	var parts []string
	for _, s := range f.Sends {
		m := s.Method
		if s.Kind == HTTP && s.ReqParam >= 0 {
			m = "req$" + itoa(s.ReqParam)
		} else if s.Kind == HTTP {
			if m == "" {
				m = "$" + itoa(s.MethodParam)
			}
			m += " " + s.Path
			if s.PathParam >= 0 {
				m += "$" + itoa(s.PathParam)
			}
		}
		parts = append(parts, s.Kind+" "+m)
	}
	return "sends(" + strings.Join(parts, ", ") + ")"
}

// A RegMethod is one method a registration serves: its full name (or
// procedure) and the Go method of the implementation that serves it.
type RegMethod struct {
	Name, Go string
}

// A Reg is what a registration function registers: the methods of a
// service, served by the implementation its parameter Impl takes.
type Reg struct {
	Kind    string
	Service string
	Methods []RegMethod
	Impl    int
	Via     string
	// An HTTP route registration function (a router's wrapper: the
	// TracedServeMux.Handle(pattern, handler) that calls mux.Handle):
	// the parameter that gives the pattern, the router, the prefix of the
	// router it registers on; Methods[0].Name is the method, if fixed.
	PatternParam int
	Router       string
	Prefix       string
}

// RegisterFact marks a function that registers the implementation it is
// passed (a generated RegisterXServer, NewXHandler, NewXServer).
type RegisterFact struct {
	Regs []Reg
}

func (*RegisterFact) AFact() {}

func (f *RegisterFact) String() string {
	var parts []string
	for _, r := range f.Regs {
		if r.Kind == HTTP {
			parts = append(parts, r.Kind+" "+r.Router+" $"+itoa(r.PatternParam)+" $"+itoa(r.Impl))
			continue
		}
		parts = append(parts, r.Kind+" "+r.Service+"$"+itoa(r.Impl))
	}
	return "registers(" + strings.Join(parts, ", ") + ")"
}

// DescFact marks a gRPC service descriptor variable with its service.
type DescFact struct {
	Service string
	Methods []RegMethod
}

func (*DescFact) AFact() {}

func (f *DescFact) String() string { return "desc(" + f.Service + ")" }

// Served is one handler registered for one method or route.
type Served struct {
	Kind string
	// Method is what the handler serves: the full method name, or the
	// route as registered, its method first ("POST /v1/notify").
	Method string
	// Router, RouteMethod and Pattern are an HTTP route's, to match
	// requests against it.
	Router, RouteMethod, Pattern string
	// Handler is the key of the function or literal that serves it (Key,
	// LitKey); "" when it is not known statically. Name names it for the
	// reports, HandlerPos is where it is declared.
	Handler, Name, HandlerPos string
	Pos                       string // the registration
	Via                       string // the evidence
	at                        token.Pos
}

// ServesFact lists the handlers a function registers, itself or through
// what it calls, in position order.
type ServesFact struct {
	Served []Served
}

func (*ServesFact) AFact() {}

func (f *ServesFact) String() string {
	var parts []string
	for _, s := range f.Served {
		parts = append(parts, s.Method+" "+s.Name)
	}
	return "serves(" + strings.Join(parts, ", ") + ")"
}

// Result is what the analyzer finds in one package. It implements
// amplify.Linker.
type Result struct {
	links   map[ast.Node][]amplify.Link
	entries []*ast.FuncLit
	// Served lists the registrations made in this package's code, in
	// position order.
	Served []Served
	// Handlers maps the keys of the named handlers of Served to their
	// functions (which may belong to another package).
	Handlers map[string]*types.Func
	// Main serves: for a main package, what its binary registers (main,
	// init and package-level initialisers, and what they reach).
	Main []Served
}

// Links implements amplify.Linker.
func (r *Result) Links(n ast.Node) []amplify.Link { return r.links[n] }

// Entries implements amplify.Linker.
func (r *Result) Entries() []*ast.FuncLit { return r.entries }

// Any implements amplify.Linker.
func (r *Result) Any() bool { return len(r.links) > 0 || len(r.entries) > 0 }

// Key names a function for the handler index: "path.Func",
// "path.Type.Method".
func Key(fn *types.Func) string {
	fn = fn.Origin()
	path := ""
	if fn.Pkg() != nil {
		path = fn.Pkg().Path()
	}
	if r := typesx.RecvName(fn); r != "" {
		return path + "." + r + "." + fn.Name()
	}
	return path + "." + fn.Name()
}

// StdKey names a handler of the standard library (http.FileServer): it
// serves from the process and calls nothing out of it.
func StdKey(name string) string { return "std:" + name }

// LitKey names a function literal handler by its position.
func LitKey(pos string) string { return "lit:" + pos }

type analyzer struct {
	pass  *analysis.Pass
	res   *Result
	decls map[*types.Func]*ast.FuncDecl
	order []*ast.FuncDecl
	// facts of this package, also before they are exported
	sends map[types.Object][]Send
	regs  map[*types.Func][]Reg
	descs map[*types.Var]*DescFact
	// connect clients: the procedure a struct field or variable holds
	connectProcs map[types.Object]string
	lits         map[*ast.FuncLit]bool
	prepass      bool // walk: find registration wrappers only
}

func run(pass *analysis.Pass) (any, error) {
	res := &Result{links: map[ast.Node][]amplify.Link{}, Handlers: map[string]*types.Func{}}
	if len(pass.Files) == 0 || !relevant(pass) {
		return res, nil
	}
	a := &analyzer{
		pass: pass, res: res,
		decls:        map[*types.Func]*ast.FuncDecl{},
		sends:        map[types.Object][]Send{},
		regs:         map[*types.Func][]Reg{},
		descs:        map[*types.Var]*DescFact{},
		connectProcs: map[types.Object]string{},
		lits:         map[*ast.FuncLit]bool{},
	}
	for _, f := range pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
					a.decls[fn] = fd
					a.order = append(a.order, fd)
				}
			}
		}
	}
	a.rpcFacts()
	a.httpSendFacts()
	a.interfaceSends()
	a.walk()
	for obj, ss := range a.sends {
		pass.ExportObjectFact(obj, &SendFact{Sends: ss})
	}
	for fn, rs := range a.regs {
		pass.ExportObjectFact(fn, &RegisterFact{Regs: rs})
	}
	for v, d := range a.descs {
		pass.ExportObjectFact(v, d)
	}
	a.reach()
	for lit := range a.lits {
		res.entries = append(res.entries, lit)
	}
	sort.Slice(res.entries, func(i, j int) bool { return srcpos.Compare(pass.Fset, res.entries[i].Pos(), res.entries[j].Pos()) < 0 })
	return res, nil
}

// linkedImports are the packages whose use makes a package worth
// walking: clients, servers and routers.
var linkedImports = []string{
	"net/http",
	"google.golang.org/grpc",
	"connectrpc.com/connect", "github.com/bufbuild/connect-go",
	"github.com/twitchtv/twirp",
	"github.com/go-chi/chi", "github.com/gorilla/mux", "github.com/gin-gonic/gin", "github.com/labstack/echo",
	"github.com/hashicorp/go-retryablehttp",
}

// relevant reports whether a package can link or register anything: it
// imports a client, server or router package, or a package with facts of
// this analyzer.
func relevant(pass *analysis.Pass) bool {
	for _, imp := range pass.Pkg.Imports() {
		p := typesx.TrimVendor(imp.Path())
		for _, l := range linkedImports {
			if p == l || strings.HasPrefix(p, l+"/") {
				return true
			}
		}
	}
	return len(pass.AllObjectFacts()) > 0
}

// callee returns the function a call calls, statically.
func (a *analyzer) callee(call *ast.CallExpr) *types.Func {
	fn, _ := typeutil.Callee(a.pass.TypesInfo, call).(*types.Func)
	return fn
}

// isMethodOf reports whether fn is a method named one of names of a type
// (or interface) of a package whose path has prefix pkg.
func isMethodOf(fn *types.Func, pkg string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() == nil {
		return false
	}
	p := typesx.TrimVendor(fn.Pkg().Path())
	if p != pkg && !strings.HasPrefix(p, pkg+"/") {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// isFuncOf reports whether fn is a package-level function of package pkg
// (exactly, or a major version of it: pkg/v5) named one of names.
func isFuncOf(fn *types.Func, pkg string, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() != nil {
		return false
	}
	if !samePkg(typesx.TrimVendor(fn.Pkg().Path()), pkg) {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// samePkg reports whether path is pkg or a major version of it.
func samePkg(path, pkg string) bool {
	if path == pkg {
		return true
	}
	rest, ok := strings.CutPrefix(path, pkg+"/v")
	if !ok || rest == "" {
		return false
	}
	for _, r := range rest {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func (a *analyzer) pos(p token.Pos) string { return a.pass.Fset.Position(p).String() }

// short is a position for evidence text: the file's base name and line.
func (a *analyzer) short(p token.Pos) string {
	ps := a.pass.Fset.Position(p)
	name := ps.Filename
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return name + ":" + itoa(ps.Line)
}

func (a *analyzer) str(e ast.Expr) (string, bool) { return typesx.StringConst(a.pass.TypesInfo, e) }

// funcOf returns the function an expression names: a function, a method
// value or method expression, an instantiated generic function.
func (a *analyzer) funcOf(e ast.Expr) *types.Func {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		fn, _ := a.pass.TypesInfo.Uses[e].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		fn, _ := a.pass.TypesInfo.Uses[e.Sel].(*types.Func)
		return fn
	case *ast.IndexExpr:
		return a.funcOf(e.X)
	case *ast.IndexListExpr:
		return a.funcOf(e.X)
	}
	return nil
}

// enclosing returns the function declaration holding pos.
func (a *analyzer) enclosing(p token.Pos) *ast.FuncDecl {
	for _, fd := range a.order {
		if fd.Pos() <= p && p < fd.End() {
			return fd
		}
	}
	return nil
}

// funcName names a declared function as amplify does.
func (a *analyzer) funcName(fd *ast.FuncDecl) string {
	if fd == nil {
		return ""
	}
	if fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
		return amplify.FuncName(fn)
	}
	return fd.Name.Name
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

// paramIndex returns the index of the parameter of the function declared
// by fd that e names, or -1.
func (a *analyzer) paramIndex(fd *ast.FuncDecl, e ast.Expr) int {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok || fd == nil {
		return -1
	}
	obj := a.pass.TypesInfo.Uses[id]
	if obj == nil {
		return -1
	}
	fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return -1
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		if params.At(i) == obj {
			return i
		}
	}
	return -1
}

// localDef returns the expression a local variable is defined with, when
// the function assigns it once (a := e, var a = e); methods that keep a
// request's method and URL (req = req.WithContext(ctx)) do not count as
// assignments.
func (a *analyzer) localDef(fd *ast.FuncDecl, v *types.Var) ast.Expr {
	if fd == nil || v == nil || v.Parent() == nil || v.Parent() == a.pass.Pkg.Scope() {
		return nil
	}
	var def ast.Expr
	n := 0
	ast.Inspect(fd, func(node ast.Node) bool {
		switch s := node.(type) {
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				id, ok := ast.Unparen(l).(*ast.Ident)
				if !ok {
					continue
				}
				obj := a.pass.TypesInfo.Defs[id]
				if obj == nil {
					obj = a.pass.TypesInfo.Uses[id]
				}
				if obj != v {
					continue
				}
				var rhs ast.Expr
				switch {
				case len(s.Rhs) == len(s.Lhs):
					rhs = s.Rhs[i]
				case len(s.Rhs) == 1 && i == 0:
					rhs = s.Rhs[0] // req, err := http.NewRequest(...)
				}
				if rhs != nil && a.keepsRequest(rhs, v) {
					continue
				}
				n++
				def = rhs
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if a.pass.TypesInfo.Defs[id] != v {
					continue
				}
				n++
				switch {
				case len(s.Values) == len(s.Names):
					def = s.Values[i]
				case len(s.Values) == 1 && i == 0:
					def = s.Values[0]
				}
			}
		}
		return true
	})
	if n != 1 {
		return nil
	}
	return def
}

// keepsRequest reports whether e is v.WithContext(...) or v.Clone(...):
// the same request with another context.
func (a *analyzer) keepsRequest(e ast.Expr, v *types.Var) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || (sel.Sel.Name != "WithContext" && sel.Sel.Name != "Clone") {
		return false
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	return ok && a.pass.TypesInfo.Uses[id] == v
}

// varOf returns the variable an identifier expression uses.
func (a *analyzer) varOf(e ast.Expr) *types.Var {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := a.pass.TypesInfo.Uses[id].(*types.Var)
	return v
}
