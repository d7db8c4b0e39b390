package freshtimeout

// This file finds the context a function inherited (a parameter), how
// function literals are used (run during the call, or detached), and
// whether the new context is handed to work that outlives the function.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/typesx"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// An inheritance is the context that a function inherited from its
// caller: a parameter and the expression that denotes its context.
type inheritance struct {
	kind  paramKind
	param *types.Var // nil for an unnamed parameter
	field *ast.Field // the parameter's field
	ident *ast.Ident // the parameter's name, nil if unnamed
	at    ast.Node   // where to point: the name, or the type if unnamed
	fn    ast.Node   // the *ast.FuncDecl or *ast.FuncLit that declares it
	ftype *ast.FuncType
	typ   string // for kindMethod, the parameter's type as written in messages
}

type paramKind int

const (
	kindContext paramKind = iota // context.Context, or an interface or type parameter that is one
	kindRequest                  // *net/http.Request
	kindGin                      // *gin.Context
	kindEcho                     // echo.Context
	kindFiber                    // *fiber.Ctx (v2)
	kindMethod                   // a type with a method Context() context.Context (grpc.ServerStream, *cobra.Command)
)

// expr returns the expression for the request-scoped context, given the
// parameter's name.
func (k paramKind) expr(name string) string {
	switch k {
	case kindRequest, kindMethod:
		return name + ".Context()"
	case kindGin:
		return name + ".Request.Context()"
	case kindEcho:
		return name + ".Request().Context()"
	case kindFiber:
		return name + ".UserContext()"
	}
	return name
}

// freshName is the name a fix gives to a parameter named _.
func (k paramKind) freshName() string {
	switch k {
	case kindContext:
		return "ctx"
	case kindRequest:
		return "r"
	}
	return "c"
}

func (k paramKind) typeString() string {
	switch k {
	case kindMethod:
		return "context-carrying"
	case kindRequest:
		return "*http.Request"
	case kindGin:
		return "*gin.Context"
	case kindEcho:
		return "echo.Context"
	case kindFiber:
		return "*fiber.Ctx"
	}
	return "context.Context"
}

func (inh *inheritance) named() bool {
	return inh.ident != nil && inh.ident.Name != "_"
}

// describe names the inherited context in a diagnostic.
func (inh *inheritance) describe() string {
	if inh.named() {
		return inh.kind.expr(inh.ident.Name)
	}
	how := "unnamed"
	if inh.ident != nil {
		how = "blank"
	}
	if inh.kind == kindContext {
		return "the " + how + " context.Context parameter"
	}
	return "the context of the " + how + " " + inh.typeString() + " parameter"
}

// typeString names the parameter's type in messages.
func (inh *inheritance) typeString() string {
	if inh.kind == kindMethod && inh.typ != "" {
		return inh.typ
	}
	return inh.kind.typeString()
}

// label names the parameter in related information.
func (inh *inheritance) label() string {
	if inh.named() {
		return inh.ident.Name
	}
	if inh.ident != nil {
		return "blank " + inh.typeString() + " parameter"
	}
	return "unnamed " + inh.typeString() + " parameter"
}

// inherited returns the context inherited by the function enclosing cur,
// looking through function literals that run while their enclosing
// function runs. It returns nil if there is none, or if the code at cur
// runs detached from the caller (a go statement, a deferred call, a
// callback run later).
func (c *checker) inherited(cur inspector.Cursor) *inheritance {
	for fc := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		switch fn := fc.Node().(type) {
		case *ast.FuncDecl:
			return c.paramContext(fn, fn.Type)
		case *ast.FuncLit:
			use := c.literalUse(fc)
			if use == useDetached {
				return nil
			}
			if inh := c.paramContext(fn, fn.Type); inh != nil {
				return inh
			}
			if use != useSync {
				return nil
			}
		}
	}
	return nil
}

// paramContext returns the first parameter of ftype that carries an
// inherited context: a context.Context first, else a request type.
func (c *checker) paramContext(fn ast.Node, ftype *ast.FuncType) *inheritance {
	if ftype.Params == nil {
		return nil
	}
	var best *inheritance
	for _, field := range ftype.Params.List {
		t := c.pass.TypesInfo.TypeOf(field.Type)
		if t == nil {
			continue
		}
		kind, ok := c.classifyParam(t)
		if !ok || (best != nil && best.kind <= kind) {
			continue
		}
		inh := &inheritance{kind: kind, field: field, at: field.Type, fn: fn, ftype: ftype}
		if kind == kindMethod {
			inh.typ = types.TypeString(t, func(p *types.Package) string { return p.Name() })
		}
		if len(field.Names) > 0 {
			inh.ident = field.Names[0]
			inh.at = inh.ident
			inh.param, _ = c.pass.TypesInfo.Defs[inh.ident].(*types.Var)
			// Prefer a named parameter among several of one field.
			for _, n := range field.Names {
				if n.Name != "_" {
					inh.ident = n
					inh.at = n
					inh.param, _ = c.pass.TypesInfo.Defs[n].(*types.Var)
					break
				}
			}
		}
		best = inh
	}
	return best
}

// classifyParam tells whether a parameter of type t carries an inherited
// context, and of which kind.
func (c *checker) classifyParam(t types.Type) (paramKind, bool) {
	if c.isContextType(t) {
		return kindContext, true
	}
	if typesx.IsNamedPtr(t, "net/http", "Request") {
		return kindRequest, true
	}
	switch inherit.FrameworkKind(t) {
	case inherit.Gin:
		return kindGin, true
	case inherit.Fiber:
		return kindFiber, true
	case inherit.Echo:
		return kindEcho, true
	}
	if inherit.HasContextMethod(t) {
		return kindMethod, true
	}
	return 0, false
}

// isContextType reports whether a value of type t is a context that a
// caller passed: context.Context, or a type parameter whose constraint
// embeds it. (Another type that implements context.Context, a struct
// like *gin.Context or a named interface, may carry a lifetime other
// than its caller's and is not taken for one.)
func (c *checker) isContextType(t types.Type) bool {
	if typesx.IsNamed(t, "context", "Context") {
		return true
	}
	tp, ok := types.Unalias(t).(*types.TypeParam)
	return ok && types.Implements(tp, c.ctxIface)
}

// How a function literal is used.
type useKind int

const (
	useUnknown  useKind = iota // stored, returned, sent, handed to a callee that keeps or starts it: it may run after its enclosing function returned
	useSync                    // called, or passed to a call, while the enclosing function runs
	useDetached                // started by go, deferred, or handed to a callee that runs it later
)

// literalUse classifies how the function literal at lit is used: directly,
// or through the local variable it is bound to. A call through the
// variable where a context is known to be done runs shutdown work, like a
// deferred call. (A literal called in place is judged where it stands, by
// knownDone on the reported call.)
func (c *checker) literalUse(lit inspector.Cursor) useKind {
	fl := lit.Node().(*ast.FuncLit)
	use, v := c.exprUse(lit, fl)
	if v == nil {
		return use
	}
	// Bound to a local variable: every read of the variable counts.
	decl := topDecl(lit)
	if !decl.Valid() {
		return useUnknown
	}
	result := useUnknown
	n := 0
	for cur := range decl.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if c.pass.TypesInfo.Uses[id] != v {
			continue
		}
		if kind, _ := cur.ParentEdge(); kind == edge.AssignStmt_Lhs {
			continue // another value stored in it
		}
		u, w := c.exprUse(cur, fl)
		if w != nil {
			u = useUnknown // bound again: do not follow
		}
		if u == useSync && c.knownDone(cur, nil) {
			// cleanup := func() {...}; <-ctx.Done(); cleanup()
			u = useDetached
		}
		switch u {
		case useDetached:
			return useDetached
		case useUnknown:
			result = useUnknown
			n = -1
		case useSync:
			if n >= 0 {
				n++
				result = useSync
			}
		}
	}
	if n <= 0 {
		return useUnknown
	}
	return result
}

// exprUse classifies the use of the function-valued expression at cur,
// whose value is the literal lit. If the value is bound to a local
// variable, it returns that variable.
func (c *checker) exprUse(cur inspector.Cursor, lit *ast.FuncLit) (useKind, *types.Var) {
	for cur.ParentEdgeKind() == edge.ParenExpr_X {
		cur = cur.Parent()
	}
	kind, idx := cur.ParentEdge()
	parent := cur.Parent()
	switch kind {
	case edge.CallExpr_Fun, edge.CallExpr_Args:
		switch parent.ParentEdgeKind() {
		case edge.DeferStmt_Call:
			return useDetached, nil
		case edge.GoStmt_Call:
			// A goroutine the function waits for runs during the call.
			if c.joined(parent.Parent(), lit.Body) {
				return useSync, nil
			}
			return useDetached, nil
		}
		if kind == edge.CallExpr_Fun {
			return useSync, nil
		}
		call := parent.Node().(*ast.CallExpr)
		if inherit.RunsLater(c.pass.TypesInfo, call) {
			return useDetached, nil
		}
		if c.handsOff(call, idx, true) && !c.waitsAfter(parent) {
			// Kept or started in a goroutine by the callee: it runs on
			// its own time, with the context its owner gives it.
			return useUnknown, nil
		}
		return useSync, nil
	case edge.AssignStmt_Rhs:
		as := parent.Node().(*ast.AssignStmt)
		if len(as.Lhs) != len(as.Rhs) || (as.Tok != token.ASSIGN && as.Tok != token.DEFINE) {
			return useUnknown, nil
		}
		if v := inherit.LocalVar(c.pass.TypesInfo, as.Lhs[idx]); v != nil {
			return useSync, v
		}
	case edge.ValueSpec_Values:
		spec := parent.Node().(*ast.ValueSpec)
		if len(spec.Names) == len(spec.Values) {
			if v := inherit.LocalVar(c.pass.TypesInfo, spec.Names[idx]); v != nil {
				return useSync, v
			}
		}
	}
	return useUnknown, nil
}

// waitsAfter reports whether, after the method call x.M(...) at cur, the
// function around it calls x.Wait(): a group that starts its function
// arguments in goroutines (sync.WaitGroup.Go, errgroup.Group.Go) and is
// waited for runs them during the call.
func (c *checker) waitsAfter(cur inspector.Cursor) bool {
	call := cur.Node().(*ast.CallExpr)
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return false
	}
	fc := astx.EnclosingFuncCursor(cur)
	if !fc.Valid() {
		return false
	}
	found := false
	fc.Inspect([]ast.Node{(*ast.FuncLit)(nil), (*ast.CallExpr)(nil)}, func(k inspector.Cursor) bool {
		if found {
			return false
		}
		switch n := k.Node().(type) {
		case *ast.FuncLit:
			return k == fc
		case *ast.CallExpr:
			if n.Pos() > call.End() && len(n.Args) == 0 {
				if s, ok := ast.Unparen(n.Fun).(*ast.SelectorExpr); ok && s.Sel.Name == "Wait" && c.sameRef(s.X, sel.X) {
					found = true
				}
			}
		}
		return true
	})
	return found
}

// handedOff reports whether the context made by the call at cur is handed
// to work that outlives the function: stored in a field, a global, a
// composite literal or a channel, passed to a goroutine the function does
// not wait for, or passed to a callee that keeps it (a fact). A fresh root
// there is a deliberate detach whose owner the pass cannot see, so it
// stays silent. (A context returned to the caller is not handed off: the
// caller runs with it in place of the one it passed.)
func (c *checker) handedOff(cur inspector.Cursor) bool {
	for cur.ParentEdgeKind() == edge.ParenExpr_X {
		cur = cur.Parent()
	}
	var lhs ast.Expr
	switch kind, _ := cur.ParentEdge(); kind {
	case edge.AssignStmt_Rhs:
		as := cur.Parent().Node().(*ast.AssignStmt)
		if len(as.Rhs) != 1 || len(as.Lhs) == 0 {
			return false
		}
		lhs = as.Lhs[0]
	case edge.ValueSpec_Values:
		spec := cur.Parent().Node().(*ast.ValueSpec)
		if len(spec.Values) != 1 || len(spec.Names) == 0 {
			return false
		}
		lhs = spec.Names[0]
	case edge.GoStmt_Call, edge.CallExpr_Args:
		return c.underGo(cur)
	default:
		return false
	}
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return true // a field, an element, a pointer target
	}
	if id.Name == "_" {
		return false
	}
	v := inherit.LocalVar(c.pass.TypesInfo, id)
	if v == nil {
		return c.pass.TypesInfo.ObjectOf(id) != nil // a package-level variable
	}
	for _, use := range c.usesOf(v) {
		if c.underGo(use) {
			return true
		}
		p := use
		for p.ParentEdgeKind() == edge.ParenExpr_X {
			p = p.Parent()
		}
		switch kind, idx := p.ParentEdge(); kind {
		case edge.SendStmt_Value, edge.CompositeLit_Elts, edge.KeyValueExpr_Value:
			return true
		case edge.AssignStmt_Rhs:
			as := p.Parent().Node().(*ast.AssignStmt)
			if len(as.Lhs) == len(as.Rhs) {
				if _, ok := ast.Unparen(as.Lhs[idx]).(*ast.Ident); !ok {
					return true // stored in a field or an element
				}
				if inherit.LocalVar(c.pass.TypesInfo, as.Lhs[idx]) == nil && as.Tok == token.ASSIGN {
					return true // stored in a global
				}
			}
		case edge.CallExpr_Args:
			if c.handsOff(p.Parent().Node().(*ast.CallExpr), idx, false) {
				return true // kept by the callee
			}
		}
	}
	return false
}

// underGo reports whether the node at cur is part of the call that a go
// statement starts (an argument evaluated for the goroutine, or code in a
// function literal that runs in it), and the function does not wait for
// that goroutine.
func (c *checker) underGo(cur inspector.Cursor) bool {
	for p := range cur.Enclosing() {
		if p.ParentEdgeKind() == edge.GoStmt_Call {
			return !c.joined(p.Parent(), goBody(p.Parent().Node().(*ast.GoStmt)))
		}
	}
	return false
}

// goBody returns the body of the function literal that the go statement
// g runs, or that it passes to the call it runs, or nil.
func goBody(g *ast.GoStmt) *ast.BlockStmt {
	if lit, ok := ast.Unparen(g.Call.Fun).(*ast.FuncLit); ok {
		return lit.Body
	}
	for _, a := range g.Call.Args {
		if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
			return lit.Body
		}
	}
	return nil
}
