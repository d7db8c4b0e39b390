package sharedbudget

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// varInfo is what the package says about one variable: the expression
// that initialises it in its declaration, and whether it changes later.
type varInfo struct {
	def     ast.Expr       // the initialiser in the declaration; nil if none or not one-to-one
	spec    *ast.ValueSpec // the declaring spec of a var declaration
	gen     *ast.GenDecl   // its declaration
	assign  *ast.AssignStmt
	assigns int  // assignments after the declaration (x = ..., x++, range x = ...)
	addr    bool // its address is taken
}

// indexVars records, for every variable declared or assigned in the
// package, its initialiser and the number of later assignments.
func (c *checker) indexVars() {
	c.vars = make(map[*types.Var]*varInfo)
	get := func(v *types.Var) *varInfo {
		in := c.vars[v]
		if in == nil {
			in = &varInfo{}
			c.vars[v] = in
		}
		return in
	}
	assigned := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := c.info.Uses[id].(*types.Var); ok {
				get(v).assigns++
			}
		}
	}
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok != token.VAR {
					break
				}
				for _, s := range n.Specs {
					spec := s.(*ast.ValueSpec)
					for i, id := range spec.Names {
						v, ok := c.info.Defs[id].(*types.Var)
						if !ok {
							continue
						}
						in := get(v)
						in.spec, in.gen = spec, n
						if len(spec.Values) == len(spec.Names) {
							in.def = spec.Values[i]
						}
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && n.Tok == token.DEFINE {
						if v, ok := c.info.Defs[id].(*types.Var); ok {
							in := get(v)
							in.assign = n
							if len(n.Lhs) == len(n.Rhs) {
								in.def = n.Rhs[i]
							}
							continue
						}
					}
					assigned(lhs)
				}
			case *ast.IncDecStmt:
				assigned(n.X)
			case *ast.RangeStmt:
				if n.Tok == token.ASSIGN {
					for _, e := range []ast.Expr{n.Key, n.Value} {
						if e != nil {
							assigned(e)
						}
					}
				}
			case *ast.UnaryExpr:
				if n.Op == token.AND {
					if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
						if v, ok := c.info.Uses[id].(*types.Var); ok {
							get(v).addr = true
						}
					}
				}
			}
			return true
		})
	}
}

// constLocal returns the initialiser of a local variable that is declared
// with one and never assigned again, or nil.
func (c *checker) constLocal(v *types.Var) ast.Expr {
	if isPkgVar(v) {
		return nil
	}
	in := c.vars[v]
	if in == nil || in.def == nil || in.assigns > 0 || in.addr {
		return nil
	}
	return in.def
}

func isPkgVar(v *types.Var) bool {
	return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// bkind says what a budget object is.
type bkind uint8

const (
	bVar   bkind = iota + 1 // a package-level variable
	bField                  // a struct field (one budget per field of a type)
	bEntry                  // a registry or map entry taken with a constant key
	bParam                  // a parameter of a function with no caller in the package
	bLocal                  // a local variable of a caller, made by a constructor, passed to a function
	bMade                   // a constructor call passed to a function
)

// budgetID identifies one budget object.
type budgetID struct {
	kind bkind
	obj  *types.Var // the variable, field or parameter; for entries, the registry's; nil for bMade
	key  string     // entries: the constant key, exactly; bMade: the call's position
	name string     // for messages: defaultBudget, Service.budget, reg.For("default")
	reg  bool       // entries: taken from the budget package's Registry
	node ast.Expr   // bMade: the constructor call
}

// idKey is the map key of a budget identity.
type idKey struct {
	obj   *types.Var
	entry bool
	key   string
}

func (id budgetID) mapKey() idKey {
	return idKey{id.obj, id.kind == bEntry || id.kind == bMade, id.key}
}

// budgetOf identifies the budget an expression denotes: a package
// variable, a field (the same field of the same type is one budget), or a
// registry or map entry with a constant key. A local variable stands for
// its initialiser when it is never reassigned. Parameters, values built
// in place, and entries whose key varies (reg.For(host)) have no identity
// here: ok is false.
func (c *checker) budgetOf(e ast.Expr, depth int) (budgetID, bool) {
	if depth > 5 {
		return budgetID{}, false
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return c.budgetOf(x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.budgetOf(x.X, depth+1)
		}
	case *ast.Ident:
		v, ok := c.info.Uses[x].(*types.Var)
		if !ok {
			return budgetID{}, false
		}
		if isPkgVar(v) {
			return budgetID{kind: bVar, obj: v, name: c.varName(v)}, true
		}
		if def := c.constLocal(v); def != nil {
			return c.budgetOf(def, depth+1)
		}
	case *ast.SelectorExpr:
		if sel, ok := c.info.Selections[x]; ok {
			f, isVar := sel.Obj().(*types.Var)
			if sel.Kind() != types.FieldVal || !isVar {
				return budgetID{}, false
			}
			return budgetID{kind: bField, obj: f.Origin(), name: fieldName(sel.Recv(), f, c.pass.Pkg)}, true
		}
		if v, ok := c.info.Uses[x.Sel].(*types.Var); ok && isPkgVar(v) {
			return budgetID{kind: bVar, obj: v, name: c.varName(v)}, true
		}
	case *ast.CallExpr:
		sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr)
		if !ok || len(x.Args) != 1 {
			return budgetID{}, false
		}
		fn, _ := typeutil.Callee(c.info, x).(*types.Func)
		reg := isRegistryMethod(fn)
		if fn == nil || !reg && !lookupMethods[fn.Name()] || recvOf(fn) == nil {
			return budgetID{}, false
		}
		return c.entryOf(sel.X, x.Args[0], sel.Sel.Name, reg, depth)
	case *ast.IndexExpr:
		t := c.info.TypeOf(x.X)
		if t == nil {
			return budgetID{}, false
		}
		switch t.Underlying().(type) {
		case *types.Map, *types.Slice, *types.Array, *types.Pointer:
			return c.entryOf(x.X, x.Index, "", false, depth)
		}
	}
	return budgetID{}, false
}

// entryOf identifies reg.For(key) (method non-empty) or m[key].
func (c *checker) entryOf(recv, key ast.Expr, method string, reg bool, depth int) (budgetID, bool) {
	r, ok := c.budgetOf(recv, depth+1)
	if !ok || r.kind == bEntry {
		return budgetID{}, false
	}
	tv, ok := c.info.Types[key]
	if !ok || tv.Value == nil {
		return budgetID{}, false // the key varies: per-dependency
	}
	k := tv.Value.ExactString()
	if tv.Value.Kind() == constant.String {
		k = constant.StringVal(tv.Value)
	}
	name := r.name + "[" + tv.Value.ExactString() + "]"
	if method != "" {
		name = r.name + "." + method + "(" + tv.Value.ExactString() + ")"
	}
	return budgetID{kind: bEntry, obj: r.obj, key: k, name: name, reg: reg}, true
}

// lookupMethods are the method names that take a budget out of a
// registry by key.
var lookupMethods = map[string]bool{"For": true, "Get": true, "Lookup": true}

// isRegistryMethod reports whether fn is a method of the budget package's
// Registry.
func isRegistryMethod(fn *types.Func) bool {
	n := recvOf(fn)
	return n != nil && n.Obj().Name() == "Registry" && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == budgetPath
}

const budgetPath = "github.com/retrylint/retrylint/budget"

// recvOf returns the named type of fn's receiver, or nil.
func recvOf(fn *types.Func) *types.Named {
	if fn == nil {
		return nil
	}
	sig, ok := fn.Type().(*types.Signature)
	if !ok || sig.Recv() == nil {
		return nil
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, _ := types.Unalias(t).(*types.Named)
	return n
}

// varName names a package variable as the package refers to it.
func (c *checker) varName(v *types.Var) string {
	if v.Pkg() != c.pass.Pkg {
		return v.Pkg().Name() + "." + v.Name()
	}
	return v.Name()
}

// fieldName names a field with its owner type: Service.budget.
func fieldName(recv types.Type, f *types.Var, pkg *types.Package) string {
	t := recv
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		name := n.Obj().Name()
		if n.Obj().Pkg() != nil && n.Obj().Pkg() != pkg {
			name = n.Obj().Pkg().Name() + "." + name
		}
		return name + "." + f.Name()
	}
	return f.Name()
}

// dep is the dependency of a retry site as this pass trusts it.
type dep struct {
	key  string // "" when unknown
	name string
}

// transports are packages whose package-level functions reach whatever
// address they are given: their package says nothing of the dependency.
var transports = map[string]bool{
	"net": true, "net/http": true, "net/rpc": true, "net/smtp": true, "database/sql": true,
	"os/exec": true, "google.golang.org/grpc": true, "github.com/hashicorp/go-retryablehttp": true,
	"github.com/go-resty/resty/v2": true, "resty.dev/v3": true,
}

// errorsPackage reports whether path is an error-wrapping package
// (github.com/pkg/errors, multierr): a call that returns an error but
// reaches nothing.
func errorsPackage(path string) bool {
	base := path[strings.LastIndexByte(path, '/')+1:]
	return base == "errors" || base == "xerrors" || strings.Contains(base, "multierr")
}

// siteDep returns the one dependency every attempt of a site targets, or
// an unknown dependency when an attempt's is unknown or they differ.
func (c *checker) siteDep(atts []attempt) dep {
	var d dep
	for _, at := range atts {
		x := c.attemptDep(at)
		if x.key == "" || d.key != "" && d.key != x.key {
			return dep{}
		}
		d = x
	}
	return d
}

// attempt is one call made per attempt, or the operation a helper or
// library retries when it is a method value or a function.
type attempt struct {
	call *ast.CallExpr // nil for an operation value
	op   ast.Expr
	key  string // the shared analysis's dependency
	name string
}

// attemptDep refines the shared analysis's dependency of an attempt.
// A URL host, and the package of a package-level function of another
// package (not a transport such as net/http, nor an error-wrapping
// package), are kept. A method call's dependency is its receiver's, as
// exprDep says: locals stand for their initialiser, parameters are
// unknown (each caller may pass another), a gRPC stub built in place is
// its connection. An HTTP client whose request URL is unknown is unknown:
// one client reaches every host.
func (c *checker) attemptDep(at attempt) dep {
	if at.call == nil {
		return c.opDep(at.op)
	}
	fn, _ := typeutil.Callee(c.info, at.call).(*types.Func)
	var recv ast.Expr
	if sel, ok := ast.Unparen(at.call.Fun).(*ast.SelectorExpr); ok {
		if _, isSel := c.info.Selections[sel]; isSel {
			recv = sel.X
		}
	}
	key := at.key
	switch {
	case strings.HasPrefix(key, "host:"):
		return dep{key, at.name}
	case strings.HasPrefix(key, "pkg:"):
		path := strings.TrimPrefix(key, "pkg:")
		if path == c.pass.Pkg.Path() || transports[path] || errorsPackage(path) {
			return dep{}
		}
		return dep{key, at.name}
	case recv == nil:
		return dep{}
	case fn != nil && isHTTPSend(fn):
		// The shared analysis names the URL's field or variable, or,
		// without a known URL, the client.
		if key == "" || key == c.lastFieldKey(recv) {
			return dep{}
		}
		return dep{key, at.name}
	}
	return c.exprDep(recv, 0)
}

// lastFieldKey is the shared analysis's key for a receiver: its last
// field of a type, or its variable.
func (c *checker) lastFieldKey(e ast.Expr) string {
	e = ast.Unparen(e)
	if st, ok := e.(*ast.StarExpr); ok {
		e = ast.Unparen(st.X)
	}
	var v *types.Var
	switch x := e.(type) {
	case *ast.Ident:
		v, _ = c.info.Uses[x].(*types.Var)
	case *ast.SelectorExpr:
		if sel, ok := c.info.Selections[x]; ok {
			if sel.Kind() != types.FieldVal {
				return ""
			}
			owner := sel.Recv()
			if p, ok := owner.(*types.Pointer); ok {
				owner = p.Elem()
			}
			return "field:" + types.TypeString(owner, nil) + "." + x.Sel.Name
		}
		v, _ = c.info.Uses[x.Sel].(*types.Var)
	}
	if v == nil {
		return ""
	}
	if isPkgVar(v) {
		return "var:" + v.Pkg().Path() + "." + v.Name()
	}
	return fmt.Sprintf("var:%s@%d", v.Name(), v.Pos())
}

// isHTTPSend reports whether fn sends an HTTP request with a client.
func isHTTPSend(fn *types.Func) bool {
	if fn.Pkg() == nil {
		return false
	}
	p := fn.Pkg().Path()
	if p != "net/http" && !strings.HasSuffix(p, "/go-retryablehttp") {
		return false
	}
	switch fn.Name() {
	case "Do", "Get", "Head", "Post", "PostForm", "RoundTrip":
		return true
	}
	return false
}

// opDep is the dependency of an operation passed as a value: a method
// value's receiver, or a function of another package.
func (c *checker) opDep(op ast.Expr) dep {
	switch x := ast.Unparen(op).(type) {
	case *ast.SelectorExpr:
		if sel, ok := c.info.Selections[x]; ok {
			if sel.Kind() == types.MethodVal {
				return c.exprDep(x.X, 0)
			}
			return dep{}
		}
		if fn, ok := c.info.Uses[x.Sel].(*types.Func); ok && fn.Pkg() != nil && !transports[fn.Pkg().Path()] && !errorsPackage(fn.Pkg().Path()) && fn.Pkg() != c.pass.Pkg {
			return dep{"pkg:" + fn.Pkg().Path(), fn.Pkg().Name()}
		}
	}
	return dep{}
}

// exprDep identifies the dependency a receiver expression stands for, in
// the shared analysis's terms: a package variable, a field of a type, or
// a gRPC stub built from a connection. Locals stand for their initialiser.
func (c *checker) exprDep(e ast.Expr, depth int) dep {
	if depth > 5 {
		return dep{}
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return c.exprDep(x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.exprDep(x.X, depth+1)
		}
	case *ast.Ident:
		v, ok := c.info.Uses[x].(*types.Var)
		if !ok {
			return dep{}
		}
		if isPkgVar(v) {
			return dep{"var:" + v.Pkg().Path() + "." + v.Name(), v.Name()}
		}
		if def := c.constLocal(v); def != nil {
			return c.exprDep(def, depth+1)
		}
	case *ast.SelectorExpr:
		if _, ok := c.info.Selections[x]; ok {
			return c.fieldDep(x, depth)
		}
		if v, ok := c.info.Uses[x.Sel].(*types.Var); ok && isPkgVar(v) {
			return dep{"var:" + v.Pkg().Path() + "." + v.Name(), v.Name()}
		}
	case *ast.CallExpr:
		// pb.NewInventoryClient(conn): the stub's dependency is the conn's.
		fn, _ := typeutil.Callee(c.info, x).(*types.Func)
		if fn == nil || recvOf(fn) != nil || len(x.Args) != 1 || !strings.HasPrefix(fn.Name(), "New") || !strings.HasSuffix(fn.Name(), "Client") {
			return dep{}
		}
		if isGRPCConn(c.info.TypeOf(x.Args[0])) {
			return c.exprDep(x.Args[0], depth+1)
		}
	}
	return dep{}
}

// fieldDep identifies the dependency behind a chain of field selections
// (s.inventory, s.deps.inventory, s.gh.Repositories): the last field whose
// owner is a struct type of this package, where the package keeps its
// dependencies (the same field of the same type is one dependency).
// Fields of another package's types are parts of one client
// (gh.Repositories and gh.Issues both reach gh): without a field of the
// package's own, the chain's base decides.
func (c *checker) fieldDep(x *ast.SelectorExpr, depth int) dep {
	var e ast.Expr = x
	for {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			break
		}
		s, ok := c.info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal {
			break
		}
		owner := s.Recv()
		if p, ok := owner.(*types.Pointer); ok {
			owner = p.Elem()
		}
		if n, ok := types.Unalias(owner).(*types.Named); ok && n.Obj().Pkg() == c.pass.Pkg {
			return dep{"field:" + types.TypeString(owner, nil) + "." + sel.Sel.Name, sel.Sel.Name}
		}
		e = sel.X
		if st, ok := ast.Unparen(e).(*ast.StarExpr); ok {
			e = st.X
		}
	}
	if e == ast.Expr(x) {
		return dep{}
	}
	return c.exprDep(e, depth+1)
}

// isGRPCConn reports whether t is *grpc.ClientConn or
// grpc.ClientConnInterface.
func isGRPCConn(t types.Type) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "google.golang.org/grpc" {
		return false
	}
	return n.Obj().Name() == "ClientConn" || n.Obj().Name() == "ClientConnInterface"
}
