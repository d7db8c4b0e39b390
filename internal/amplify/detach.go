package amplify

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"unicode"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Work that a function starts but does not do itself does not multiply
// it: a goroutine started with a go statement (a reconnect loop, a probe)
// runs beside the caller, once per start, and a callback registered for
// later (a handler, a reconnect hook, a timer) runs when something else
// calls it. Counting their retries in the function that starts them would
// multiply a retry loop that calls the function by work that is not part
// of the attempt: "9 calls per request" for a reconnect goroutine started
// once per process.
//
// A goroutine the function waits for (sync.WaitGroup or errgroup Wait
// after the go statement, or a receive from a channel the goroutine uses)
// is part of the function's work and counts as a call.
//
// Callbacks are function literals that are
//   - passed to a function of an analyzed package that does not call that
//     parameter itself but starts it as a goroutine or stores it (LaterFact,
//     also across packages);
//   - passed to a standard-library registration (time.AfterFunc,
//     context.AfterFunc, http.HandleFunc, runtime.SetFinalizer,
//     sync.OnceFunc, testing's Cleanup, ...) or to WaitGroup.Go or
//     errgroup's Go without a Wait;
//   - passed to a function or method of a package that is not analyzed
//     whose name follows the registration convention: On<Event>, Register…,
//     Subscribe…, AfterFunc, or Set…/Add… ending in Handler, Callback, Hook,
//     Listener or Func;
//   - shaped as an HTTP handler (func(http.ResponseWriter, *http.Request),
//     gin, echo and fiber handlers), wherever they are passed: handlers run
//     per request of their own;
//   - assigned to a field, a map or slice element, sent on a channel,
//     returned, or set in a composite literal.
// A literal that is the operation of a retry site stays part of it.

// LaterFact marks a function with function parameters that it does not
// call itself but starts as goroutines or stores for later: Params are
// their indices. A function literal passed there is a callback.
type LaterFact struct {
	Params []int
}

func (*LaterFact) AFact() {}

func (f *LaterFact) String() string {
	var b strings.Builder
	b.WriteString("later(")
	for i, p := range f.Params {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(itoa(p))
	}
	b.WriteString(")")
	return b.String()
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// span is a byte range of the source.
type span struct{ lo, hi token.Pos }

func (s span) has(p token.Pos) bool { return s.lo <= p && p < s.hi }

// detached is what a scope starts but does not do itself.
type detached struct {
	spans []span
	calls map[*ast.CallExpr]bool // go statements' calls: not calls of the scope
}

// cuts reports whether code at pos is detached from the region whose site
// node starts at at (NoPos for the scope itself): some detached span holds
// pos but not the region.
func (d *detached) cuts(pos, at token.Pos) bool {
	for _, s := range d.spans {
		if s.has(pos) && (!at.IsValid() || !s.has(at)) {
			return true
		}
	}
	return false
}

// findDetached collects the goroutines and callbacks under roots. Function
// literals that are the operation of one of sites are never detached.
func (c *computer) findDetached(roots []ast.Node, sites []*retrysite.Site) *detached {
	d := &detached{calls: map[*ast.CallExpr]bool{}}
	ops := map[*ast.BlockStmt]bool{}
	for _, s := range sites {
		if s.Body != nil {
			ops[s.Body] = true
		}
	}
	addLit := func(e ast.Expr) {
		if lit := c.funcLit(e); lit != nil && !ops[lit.Body] {
			d.spans = append(d.spans, span{lit.Pos(), lit.End()})
		}
	}
	for _, root := range roots {
		c.preorder(root, detachers, func(n ast.Node) {
			switch n := n.(type) {
			case *ast.GoStmt:
				if !c.waited(root, n.Pos(), n.Call) {
					d.calls[n.Call] = true
					d.spans = append(d.spans, span{n.Call.Pos(), n.Call.End()})
				}
			case *ast.CallExpr:
				later, goroutine := c.callbackParams(n)
				for _, i := range later {
					if i < len(n.Args) {
						addLit(n.Args[i])
					}
				}
				for _, i := range goroutine {
					if i < len(n.Args) && !c.waited(root, n.Pos(), n.Args[i]) {
						addLit(n.Args[i])
					}
				}
				for _, a := range n.Args {
					if lit := c.funcLit(a); lit != nil && c.isHandler(lit) {
						addLit(lit)
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if i >= len(n.Rhs) || len(n.Lhs) != len(n.Rhs) {
						break
					}
					switch ast.Unparen(l).(type) {
					case *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
						if c.isFieldOrElem(l) {
							addLit(n.Rhs[i])
						}
					}
				}
			case *ast.SendStmt:
				addLit(n.Value)
			case *ast.ReturnStmt:
				for _, r := range n.Results {
					addLit(r)
				}
			case *ast.CompositeLit:
				for _, e := range n.Elts {
					if kv, ok := e.(*ast.KeyValueExpr); ok {
						addLit(kv.Value)
					} else {
						addLit(e)
					}
				}
			}
		})
	}
	return d
}

// detachers are the nodes findDetached looks at.
var detachers = []ast.Node{(*ast.GoStmt)(nil), (*ast.CallExpr)(nil), (*ast.AssignStmt)(nil), (*ast.SendStmt)(nil),
	(*ast.ReturnStmt)(nil), (*ast.CompositeLit)(nil)}

// funcLit returns the function literal e is, directly or through a
// conversion (http.HandlerFunc(func...)), or nil.
func (c *computer) funcLit(e ast.Expr) *ast.FuncLit {
	e = ast.Unparen(e)
	if call, ok := e.(*ast.CallExpr); ok && len(call.Args) == 1 {
		if tv, ok := c.pass.TypesInfo.Types[call.Fun]; ok && tv.IsType() {
			lit, _ := ast.Unparen(call.Args[0]).(*ast.FuncLit)
			return lit
		}
		return nil
	}
	lit, _ := e.(*ast.FuncLit)
	return lit
}

// isFieldOrElem reports whether an assignment's left side is a struct
// field, a map or slice element, or a pointer's target: a place that
// outlives the statement.
func (c *computer) isFieldOrElem(l ast.Expr) bool {
	switch l := ast.Unparen(l).(type) {
	case *ast.SelectorExpr:
		sel, ok := c.pass.TypesInfo.Selections[l]
		if ok {
			return sel.Kind() == types.FieldVal
		}
		// pkg.Var: a package-level variable.
		_, isVar := c.pass.TypesInfo.Uses[l.Sel].(*types.Var)
		return isVar
	case *ast.IndexExpr, *ast.StarExpr:
		return true
	}
	return false
}

// waited reports whether the code under root waits, after pos, for the
// goroutine running g (a go statement's call or a function passed to a
// Go method): a Wait method called without arguments, or a receive from a
// channel that g refers to.
func (c *computer) waited(root ast.Node, pos token.Pos, g ast.Node) bool {
	chans := map[types.Object]bool{}
	ast.Inspect(g, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if v, ok := c.pass.TypesInfo.Uses[id].(*types.Var); ok {
				if _, isChan := v.Type().Underlying().(*types.Chan); isChan {
					chans[v] = true
				}
			}
		}
		return true
	})
	found := false
	ast.Inspect(root, func(n ast.Node) bool {
		if found || n == nil {
			return false
		}
		if n.Pos() < pos && n.End() <= pos {
			return false // wholly before the start
		}
		if n == g {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if n.Pos() > pos && len(n.Args) == 0 {
				if fn, ok := typeutil.Callee(c.pass.TypesInfo, n).(*types.Func); ok && fn.Name() == "Wait" && isGroup(fn) {
					found = true
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.ARROW && n.Pos() > pos && c.refersTo(n.X, chans) {
				found = true
			}
		case *ast.RangeStmt:
			if n.Pos() > pos && c.refersTo(n.X, chans) {
				found = true
			}
		}
		return !found
	})
	return found
}

// isGroup reports whether fn is the Wait method of a type that starts or
// counts goroutines: one with a Go or an Add method (sync.WaitGroup,
// errgroup.Group and their look-alikes).
func isGroup(fn *types.Func) bool {
	recv := fn.Signature().Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if _, ok := t.(*types.Pointer); !ok {
		t = types.NewPointer(t)
	}
	ms := types.NewMethodSet(t)
	for i := range ms.Len() {
		if name := ms.At(i).Obj().Name(); name == "Go" || name == "Add" {
			return true
		}
	}
	return false
}

// refersTo reports whether e names one of the variables.
func (c *computer) refersTo(e ast.Expr, vars map[types.Object]bool) bool {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return vars[c.pass.TypesInfo.Uses[e]]
	case *ast.SelectorExpr:
		return vars[c.pass.TypesInfo.Uses[e.Sel]]
	}
	return false
}

// callbackParams returns the indices of a call's arguments that the
// callee keeps for later, and of those it starts as goroutines.
func (c *computer) callbackParams(call *ast.CallExpr) (later, goroutine []int) {
	fn, ok := typeutil.Callee(c.pass.TypesInfo, call).(*types.Func)
	if !ok || fn.Pkg() == nil {
		return nil, nil
	}
	switch i, kind, ok := inherit.CallbackOf(fn); {
	case ok && kind == inherit.Goroutine:
		return nil, []int{i}
	case ok && (kind == inherit.After || kind == inherit.Handler):
		return []int{i}, nil
	}
	fn = fn.Origin()
	if fn.Pkg() == c.pass.Pkg {
		return c.laterParams(fn), nil
	}
	reads := c.facts.ReadsFacts(fn.Pkg())
	var f LaterFact
	if reads && c.pass.ImportObjectFact(fn, &f) {
		return f.Params, nil
	}
	if typesx.IsStd(fn.Pkg().Path()) || reads && c.pass.ImportPackageFact(fn.Pkg(), new(analyzedFact)) {
		return nil, nil
	}
	if registration(fn.Name()) {
		for i := range call.Args {
			later = append(later, i)
		}
	}
	return later, nil
}

// analyzedFact marks a package analyzed in this run: a function of it that
// keeps a callback for later has a LaterFact.
type analyzedFact struct{}

func (*analyzedFact) AFact() {}

func (*analyzedFact) String() string { return "analyzed" }

// registration reports whether a function's name follows the convention
// of a callback registration.
func registration(name string) bool {
	upperAt := func(i int) bool {
		return len(name) > i && unicode.IsUpper(rune(name[i]))
	}
	switch {
	case strings.HasPrefix(name, "On") && upperAt(2):
		return true
	case strings.HasPrefix(name, "Register"), strings.HasPrefix(name, "Subscribe"), name == "AfterFunc":
		return true
	case strings.HasPrefix(name, "Set") || strings.HasPrefix(name, "Add"):
		for _, suf := range []string{"Handler", "Callback", "Hook", "Listener", "Func"} {
			if strings.HasSuffix(name, suf) && len(name) > 3+len(suf)-1 {
				return true
			}
		}
	}
	return false
}

// isHandler reports whether a function literal has the shape of an HTTP
// handler: it runs per request of its own, not when it is passed.
func (c *computer) isHandler(lit *ast.FuncLit) bool {
	tv, ok := c.pass.TypesInfo.Types[lit]
	if !ok {
		return false
	}
	sig, ok := tv.Type.(*types.Signature)
	if !ok {
		return false
	}
	p := sig.Params()
	switch p.Len() {
	case 2:
		return typesx.IsNamed(p.At(0).Type(), "net/http", "ResponseWriter") && typesx.IsNamedPtr(p.At(1).Type(), "net/http", "Request")
	case 1:
		return inherit.IsFrameworkContext(p.At(0).Type())
	}
	return false
}

// laterParams returns the function parameters of fn (of this package)
// that it never calls itself but starts as goroutines or stores.
func (c *computer) laterParams(fn *types.Func) []int {
	if ps, ok := c.later[fn]; ok {
		return ps
	}
	c.later[fn] = nil // recursion: no parameter is later
	fd := c.decls[fn]
	if fd == nil {
		return nil
	}
	params := fn.Signature().Params()
	objs := map[types.Object]int{}
	for i := range params.Len() {
		if _, ok := params.At(i).Type().Underlying().(*types.Signature); ok {
			objs[params.At(i)] = i
		}
	}
	if len(objs) == 0 {
		return nil
	}
	called, kept := map[int]bool{}, map[int]bool{}
	param := func(e ast.Expr) (int, bool) {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return 0, false
		}
		i, ok := objs[c.pass.TypesInfo.Uses[id]]
		return i, ok
	}
	var goSpans []span
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.GoStmt:
			goSpans = append(goSpans, span{n.Call.Pos(), n.Call.End()})
			for _, a := range n.Call.Args {
				if i, ok := param(a); ok {
					kept[i] = true
				}
			}
		case *ast.CallExpr:
			if i, ok := param(n.Fun); ok {
				inGo := false
				for _, g := range goSpans {
					inGo = inGo || g.has(n.Pos())
				}
				if inGo {
					kept[i] = true
				} else {
					called[i] = true
				}
			}
			if id, ok := ast.Unparen(n.Fun).(*ast.Ident); ok && id.Name == "append" {
				if _, builtin := c.pass.TypesInfo.Uses[id].(*types.Builtin); builtin {
					for _, a := range n.Args[min(1, len(n.Args)):] {
						if i, ok := param(a); ok {
							kept[i] = true
						}
					}
				}
			}
			l, g := c.callbackParams(n)
			for _, j := range append(l, g...) {
				if j < len(n.Args) {
					if i, ok := param(n.Args[j]); ok {
						kept[i] = true
					}
				}
			}
		case *ast.AssignStmt:
			for _, r := range n.Rhs {
				if i, ok := param(r); ok {
					kept[i] = true
				}
			}
		case *ast.SendStmt:
			if i, ok := param(n.Value); ok {
				kept[i] = true
			}
		case *ast.CompositeLit:
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Value
				}
				if i, ok := param(e); ok {
					kept[i] = true
				}
			}
		}
		return true
	})
	var out []int
	for i := range params.Len() {
		if kept[i] && !called[i] {
			out = append(out, i)
		}
	}
	c.later[fn] = out
	return out
}
