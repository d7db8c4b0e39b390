// Package inherit tells which context a function inherited from its
// caller, as freshtimeout and blindsleep understand it: a parameter that
// carries the caller's context, of the function around the code or of a
// function whose literal runs while that function runs.
//
// A parameter carries the caller's context when its type is
// context.Context (or a type parameter constrained by it), *http.Request
// (r.Context()), *gin.Context, echo.Context, *fiber.Ctx, or a type with a
// method Context() context.Context (a gRPC server stream, a cobra
// command; not the testing package's types, whose context is the test's).
// A function literal passes its enclosing function's context on when it is
// called, or passed to a call, while that function runs; a literal started
// by go or defer, or handed to a function that runs it later
// (time.AfterFunc, context.AfterFunc, a test's Cleanup, sync.Once), runs
// detached, and one stored or returned runs at an unknown time: neither
// inherits anything.
package inherit

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"
)

// Kind says how a parameter carries its context.
type Kind uint8

const (
	Context Kind = iota + 1 // context.Context, or a type parameter constrained by it
	Request                 // *net/http.Request
	Gin                     // *gin.Context
	Echo                    // echo.Context
	Fiber                   // *fiber.Ctx (v2)
	Method                  // a value with a method Context() context.Context
)

// Param is a parameter that carries an inherited context.
type Param struct {
	Kind  Kind
	Var   *types.Var // nil when the parameter is unnamed
	Ident *ast.Ident // the parameter's name; nil when unnamed
	Field *ast.Field // the parameter's field in the function's type
	Func  ast.Node   // the *ast.FuncDecl or *ast.FuncLit declaring it
}

// Named reports whether the parameter has a name code can use (not _).
func (p *Param) Named() bool { return p.Ident != nil && p.Ident.Name != "_" }

// Expr returns the expression that denotes the context in code where the
// parameter's name resolves to it ("ctx", "r.Context()"), or "" when the
// parameter has no usable name.
func (p *Param) Expr() string {
	if !p.Named() {
		return ""
	}
	name := p.Ident.Name
	switch p.Kind {
	case Request, Method:
		return name + ".Context()"
	case Gin:
		return name + ".Request.Context()"
	case Echo:
		return name + ".Request().Context()"
	case Fiber:
		return name + ".UserContext()"
	}
	return name
}

// Describe names the context in a message: its expression, or "the
// unnamed context.Context parameter".
func (p *Param) Describe() string {
	if e := p.Expr(); e != "" {
		return e
	}
	how := "unnamed"
	if p.Ident != nil {
		how = "blank"
	}
	if p.Kind == Context {
		return "the " + how + " context.Context parameter"
	}
	return "the context of the " + how + " parameter"
}

// Of returns the context that the code at cur inherited, or nil when it
// inherited none or runs detached from its caller (see the package
// documentation).
func Of(info *types.Info, cur inspector.Cursor) *Param {
	for fc := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch fn := fc.Node().(type) {
		case *ast.FuncDecl:
			return ParamOf(info, fn)
		case *ast.FuncLit:
			use := literalUse(info, fc)
			if use == detached {
				return nil
			}
			if p := ParamOf(info, fn); p != nil {
				return p
			}
			if use != during {
				return nil
			}
		}
	}
	return nil
}

// ParamOf returns the parameter of fn (a *ast.FuncDecl or *ast.FuncLit)
// that carries a context: a context.Context before the other kinds, the
// first of a kind, a named one before an unnamed one of the same field.
func ParamOf(info *types.Info, fn ast.Node) *Param {
	ft := astx.FuncType(fn)
	if ft == nil || ft.Params == nil {
		return nil
	}
	var best *Param
	for _, field := range ft.Params.List {
		t := info.TypeOf(field.Type)
		if t == nil {
			continue
		}
		k := kindOf(t)
		if k == 0 || best != nil && best.Kind <= k {
			continue
		}
		p := &Param{Kind: k, Field: field, Func: fn}
		for i, id := range field.Names {
			if i == 0 || p.Ident.Name == "_" && id.Name != "_" {
				p.Ident = id
			}
		}
		if p.Ident != nil {
			p.Var, _ = info.Defs[p.Ident].(*types.Var)
		}
		best = p
	}
	return best
}

// IsContext reports whether t is context.Context or a type parameter
// constrained by it.
func IsContext(t types.Type) bool {
	if typesx.IsNamed(t, "context", "Context") {
		return true
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	if !ok {
		return false
	}
	if typesx.IsNamed(tp.Constraint(), "context", "Context") {
		return true
	}
	iface, ok := tp.Constraint().Underlying().(*types.Interface)
	if !ok {
		return false
	}
	for e := range iface.EmbeddedTypes() {
		if typesx.IsNamed(e, "context", "Context") {
			return true
		}
	}
	return false
}

func kindOf(t types.Type) Kind {
	if IsContext(t) {
		return Context
	}
	if typesx.IsNamedPtr(t, "net/http", "Request") {
		return Request
	}
	if k := FrameworkKind(t); k != 0 {
		return k
	}
	if HasContextMethod(t) {
		return Method
	}
	return 0
}

// frameworks are the web frameworks' request contexts: the one table of
// them, which this package, freshtimeout and the amplification analysis
// read. kind is Method for a context that its Context method returns.
var frameworks = []struct {
	path, name string
	ptr        bool // the handler is given a pointer to the type
	kind       Kind
}{
	{"github.com/gin-gonic/gin", "Context", true, Gin},
	{"github.com/labstack/echo/v4", "Context", false, Echo},
	{"github.com/gofiber/fiber/v2", "Ctx", true, Fiber},
	{"github.com/gofiber/fiber/v3", "Ctx", false, Method},
}

// FrameworkKind returns the kind of a web framework's request context
// type as its handlers are given it (*gin.Context, echo.Context,
// *fiber.Ctx), or 0 for any other type.
func FrameworkKind(t types.Type) Kind {
	for _, f := range frameworks {
		if f.ptr && typesx.IsNamedPtr(t, f.path, f.name) || !f.ptr && typesx.IsNamed(t, f.path, f.name) {
			if f.kind == Method && !HasContextMethod(t) {
				continue
			}
			return f.kind
		}
	}
	return 0
}

// IsFrameworkContext reports whether t is a web framework's request
// context as its handlers are given it.
func IsFrameworkContext(t types.Type) bool {
	for _, f := range frameworks {
		if f.ptr && typesx.IsNamedPtr(t, f.path, f.name) || !f.ptr && typesx.IsNamed(t, f.path, f.name) {
			return true
		}
	}
	return false
}

// HasContextMethod reports whether t has a method Context()
// context.Context, which returns the context its value carries (a gRPC
// stream's, a cobra command's), except the testing package's types: a
// test's Context is the test's lifetime, not a deadline a caller set.
func HasContextMethod(t types.Type) bool {
	base := t
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		base = ptr.Elem()
	}
	if n, ok := types.Unalias(base).(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "testing" {
		return false
	}
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Context")
	fn, ok := obj.(*types.Func)
	if !ok {
		return false
	}
	sig := fn.Signature()
	return sig.Params().Len() == 0 && sig.Results().Len() == 1 && typesx.IsNamed(sig.Results().At(0).Type(), "context", "Context")
}

// use says when a function literal runs.
type use uint8

const (
	unknown  use = iota // stored, returned, sent: at a time the pass cannot see
	during              // called, or passed to a call, while its enclosing function runs
	detached            // started by go, deferred, or handed to a callee that runs it later
)

// literalUse says when the function literal at lit runs: where it stands,
// or, bound to a local variable, through every read of the variable.
func literalUse(info *types.Info, lit inspector.Cursor) use {
	u, v := exprUse(info, lit)
	if v == nil {
		return u
	}
	fc := lit.Parent()
	for fc.Valid() {
		if _, ok := fc.Node().(*ast.BlockStmt); ok {
			break
		}
		fc = fc.Parent()
	}
	if !fc.Valid() {
		return unknown
	}
	result := unknown
	for cur := range fc.Preorder((*ast.Ident)(nil)) {
		if info.Uses[cur.Node().(*ast.Ident)] != v {
			continue
		}
		if k, _ := cur.ParentEdge(); k == edge.AssignStmt_Lhs {
			return unknown // another value stored in it
		}
		w, again := exprUse(info, cur)
		if again != nil {
			return unknown
		}
		switch w {
		case detached:
			return detached
		case unknown:
			return unknown
		}
		result = during
	}
	return result
}

// exprUse says when the function value at cur runs; when it is bound to
// a local variable, it returns the variable.
func exprUse(info *types.Info, cur inspector.Cursor) (use, *types.Var) {
	for cur.ParentEdgeKind() == edge.ParenExpr_X {
		cur = cur.Parent()
	}
	k, idx := cur.ParentEdge()
	parent := cur.Parent()
	switch k {
	case edge.CallExpr_Fun, edge.CallExpr_Args:
		switch parent.ParentEdgeKind() {
		case edge.GoStmt_Call, edge.DeferStmt_Call:
			return detached, nil
		}
		if k == edge.CallExpr_Args {
			call := parent.Node().(*ast.CallExpr)
			if RunsLater(info, call) {
				return detached, nil
			}
			if _, ok := typeutil.Callee(info, call).(*types.Builtin); ok {
				return unknown, nil // appended to a list: run later, by someone
			}
		}
		return during, nil
	case edge.AssignStmt_Rhs:
		as := parent.Node().(*ast.AssignStmt)
		if len(as.Lhs) == len(as.Rhs) && (as.Tok == token.DEFINE || as.Tok == token.ASSIGN) {
			if v := LocalVar(info, as.Lhs[idx]); v != nil {
				return during, v
			}
		}
	case edge.ValueSpec_Values:
		spec := parent.Node().(*ast.ValueSpec)
		if len(spec.Names) == len(spec.Values) {
			if v := LocalVar(info, spec.Names[idx]); v != nil {
				return during, v
			}
		}
	}
	return unknown, nil
}

// LocalVar returns the local variable e names, or nil.
func LocalVar(info *types.Info, e ast.Expr) *types.Var {
	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || v.Parent() == nil || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil
	}
	return v
}

// A Callback says how a function runs the function it is given.
type Callback uint8

const (
	// After: it keeps the function to run it after the caller may have
	// returned (time.AfterFunc, t.Cleanup, a handler registered on a mux).
	After Callback = iota + 1
	// Shared: it runs it once for many callers (sync.Once.Do,
	// singleflight): not the caller's own work.
	Shared
	// Goroutine: it starts it as a goroutine (errgroup.Go, WaitGroup.Go).
	Goroutine
	// Handler: it registers it to serve requests (http.HandleFunc): it
	// runs later, for requests of its own, with their contexts.
	Handler
)

// callbacks is the one table of the functions that run a function
// argument other than in their caller's flow, keyed as typesx.FuncKey
// keys them, with the argument's index.
var callbacks = map[string]struct {
	arg  int
	kind Callback
}{
	"time.AfterFunc":                              {1, After},
	"context.AfterFunc":                           {1, After},
	"runtime.SetFinalizer":                        {1, After},
	"runtime.AddCleanup":                          {1, After},
	"testing.common.Cleanup":                      {0, After},
	"testing.TB.Cleanup":                          {0, After},
	"net/http.Server.RegisterOnShutdown":          {0, After},
	"net/http.HandleFunc":                         {1, Handler},
	"net/http.Handle":                             {1, Handler},
	"net/http.ServeMux.HandleFunc":                {1, Handler},
	"net/http.ServeMux.Handle":                    {1, Handler},
	"sync.OnceFunc":                               {0, After},
	"sync.OnceValue":                              {0, After},
	"sync.OnceValues":                             {0, After},
	"sync.Once.Do":                                {0, Shared},
	"golang.org/x/sync/singleflight.Group.Do":     {1, Shared},
	"golang.org/x/sync/singleflight.Group.DoChan": {1, Shared},
	"sync.WaitGroup.Go":                           {0, Goroutine},
	"golang.org/x/sync/errgroup.Group.Go":         {0, Goroutine},
	"golang.org/x/sync/errgroup.Group.TryGo":      {0, Goroutine},
}

// CallbackOf returns how fn runs a function argument, and its index, when
// the table lists fn.
func CallbackOf(fn *types.Func) (arg int, kind Callback, ok bool) {
	if fn == nil || fn.Pkg() == nil {
		return 0, 0, false
	}
	c, ok := callbacks[typesx.FuncKey(fn)]
	return c.arg, c.kind, ok
}

// RunsLater reports whether call hands its function arguments to
// something that runs them after the caller may have returned, or once
// for many callers.
func RunsLater(info *types.Info, call *ast.CallExpr) bool {
	fn, ok := typeutil.Callee(info, call).(*types.Func)
	if !ok {
		return false
	}
	_, kind, ok := CallbackOf(fn)
	return ok && (kind == After || kind == Shared)
}
