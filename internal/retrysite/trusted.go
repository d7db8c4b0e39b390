package retrysite

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"sync"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/typesx"
)

// Deps answers which dependency a retry site reaches, as the passes trust
// it: sharedbudget groups the sites a budget guards by it, and the fixes
// of fixedattempts name their budgets after it, so that a budget a fix
// adds is one sharedbudget finds unshared. It refines the Dep of each
// attempt (Attempt.Dep, which the audit prints):
//   - a URL host is kept;
//   - a package-level function reaches its package's dependency, unless
//     the package is this one, a transport (net/http, database/sql, grpc:
//     it reaches whatever address it is given) or an error-wrapping
//     package (it reaches nothing);
//   - an HTTP client whose request's URL is unknown is unknown: one
//     client reaches every host;
//   - a method call reaches its receiver's dependency: a package variable;
//     of a chain of fields (s.deps.inventory, s.gh.Repositories), the last
//     field whose owner is a struct type of this package, where the
//     package keeps its dependencies (fields of another package's types are
//     parts of one client); a local variable declared with a value and
//     never assigned again stands for its value; a gRPC stub built from a
//     connection (pb.NewInventoryClient(conn)) stands for the connection;
//     parameters are unknown, since each caller may pass another.
//
// A Deps is made once per package (Sites.Deps) and is safe for the passes
// to share.
type Deps struct {
	pass *analysis.Pass
	a    *analyzer
	once sync.Once // builds vars on first use
	vars map[*types.Var]*VarUse
}

// VarUse is what the package does with one variable: the expression
// that initialises it in its declaration, where it is declared, and
// whether it changes later.
type VarUse struct {
	Def     ast.Expr       // the initialiser in the declaration; nil if none or not one-to-one
	Spec    *ast.ValueSpec // the declaring spec of a var declaration
	Gen     *ast.GenDecl   // its declaration
	Assign  *ast.AssignStmt
	Assigns int  // assignments after the declaration (x = ..., x++, range x = ...)
	Addr    bool // its address is taken
}

// Deps returns the package's dependency model.
func (s *Sites) Deps() *Deps {
	s.depsOnce.Do(func() {
		s.deps = newDeps(s.pass)
	})
	return s.deps
}

func newDeps(pass *analysis.Pass) *Deps {
	return &Deps{pass: pass, a: &analyzer{pass: pass}}
}

// indexVars records, for every variable declared or assigned in the
// package, its initialiser and its later assignments.
func (d *Deps) indexVars() {
	d.vars = make(map[*types.Var]*VarUse)
	info := d.pass.TypesInfo
	get := func(v *types.Var) *VarUse {
		in := d.vars[v]
		if in == nil {
			in = &VarUse{}
			d.vars[v] = in
		}
		return in
	}
	assigned := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if v, ok := info.Uses[id].(*types.Var); ok {
				get(v).Assigns++
			}
		}
	}
	for _, f := range d.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok != token.VAR {
					break
				}
				for _, s := range n.Specs {
					spec := s.(*ast.ValueSpec)
					for i, id := range spec.Names {
						v, ok := info.Defs[id].(*types.Var)
						if !ok {
							continue
						}
						in := get(v)
						in.Spec, in.Gen = spec, n
						if len(spec.Values) == len(spec.Names) {
							in.Def = spec.Values[i]
						}
					}
				}
			case *ast.AssignStmt:
				for i, lhs := range n.Lhs {
					if id, ok := ast.Unparen(lhs).(*ast.Ident); ok && n.Tok == token.DEFINE {
						if v, ok := info.Defs[id].(*types.Var); ok {
							in := get(v)
							in.Assign = n
							if len(n.Lhs) == len(n.Rhs) {
								in.Def = n.Rhs[i]
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
						if v, ok := info.Uses[id].(*types.Var); ok {
							get(v).Addr = true
						}
					}
				}
			}
			return true
		})
	}
}

// Var returns what the package does with the variable v, or nil when it
// neither declares nor assigns it.
func (d *Deps) Var(v *types.Var) *VarUse {
	d.once.Do(d.indexVars)
	return d.vars[v]
}

// ConstLocal returns the initialiser of a local variable that is declared
// with one and never assigned again, or nil.
func (d *Deps) ConstLocal(v *types.Var) ast.Expr {
	if isPkgVar(v) {
		return nil
	}
	in := d.Var(v)
	if in == nil || in.Def == nil || in.Assigns > 0 || in.Addr {
		return nil
	}
	return in.Def
}

// transports are packages whose package-level functions reach whatever
// address they are given: their package says nothing of the dependency.
var transports = map[string]bool{
	"net": true, "net/http": true, "net/rpc": true, "net/smtp": true, "database/sql": true,
	"os/exec": true, "google.golang.org/grpc": true, "github.com/hashicorp/go-retryablehttp": true,
	"github.com/go-resty/resty/v2": true, "resty.dev/v3": true,
}

// IsTransport reports whether path is a transport package: its functions
// reach whatever address they are given.
func IsTransport(path string) bool { return transports[typesx.TrimVendor(path)] }

// errorsPackage reports whether path is an error-wrapping package
// (github.com/pkg/errors, multierr): a call that returns an error but
// reaches nothing.
func errorsPackage(path string) bool {
	base := path[strings.LastIndexByte(path, '/')+1:]
	return base == "errors" || base == "xerrors" || strings.Contains(base, "multierr")
}

// noDep reports whether a package-level function of fn's package names
// no dependency: one of this package, of a transport or of an errors
// package.
func (d *Deps) noDep(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return true
	}
	path := typesx.PkgPath(fn)
	return fn.Pkg() == d.pass.Pkg || transports[path] || errorsPackage(path)
}

// Site returns the one dependency every attempt of a site reaches (its
// operation's, when the operation is a value whose calls are not visible),
// or the unknown Dep when an attempt's is unknown or they differ.
func (d *Deps) Site(s *Site) Dep {
	if len(s.Attempts) == 0 {
		if s.Op != nil && s.Body == nil {
			return d.Op(s.Op)
		}
		return Dep{}
	}
	var dep Dep
	for _, at := range s.Attempts {
		x := d.Attempt(at)
		if x.Key == "" || dep.Key != "" && dep.Key != x.Key {
			return Dep{}
		}
		dep = x
	}
	return dep
}

// Attempt returns the dependency of one attempt.
func (d *Deps) Attempt(at Attempt) Dep {
	if at.Call == nil {
		return Dep{}
	}
	info := d.pass.TypesInfo
	fn, _ := typeutil.Callee(info, at.Call).(*types.Func)
	var recv ast.Expr
	if sel, ok := ast.Unparen(at.Call.Fun).(*ast.SelectorExpr); ok {
		if _, isSel := info.Selections[sel]; isSel {
			recv = sel.X
		}
	}
	switch {
	case at.Dep.Kind == DepHost:
		return at.Dep
	case at.Dep.Kind == DepFunc:
		if f, _ := at.Dep.Obj.(*types.Func); d.noDep(f) {
			return Dep{}
		}
		return at.Dep
	case recv == nil:
		return Dep{}
	case fn != nil && IsHTTPSend(fn):
		// The attempt's Dep names the URL's field or variable, or,
		// without a known URL, the client.
		if at.Dep.Key == "" || at.Dep.Key == d.a.rootDep(recv).Key {
			return Dep{}
		}
		return at.Dep
	}
	return d.Expr(recv)
}

// IsHTTPSend reports whether fn sends an HTTP request with a client.
func IsHTTPSend(fn *types.Func) bool {
	if fn == nil || fn.Pkg() == nil {
		return false
	}
	p := typesx.PkgPath(fn)
	if p != "net/http" && !strings.HasSuffix(p, "/go-retryablehttp") {
		return false
	}
	switch fn.Name() {
	case "Do", "Get", "Head", "Post", "PostForm", "RoundTrip":
		return true
	}
	return false
}

// Op returns the dependency of an operation passed as a value: a method
// value's receiver's, or a package-level function's package.
func (d *Deps) Op(op ast.Expr) Dep {
	info := d.pass.TypesInfo
	switch x := ast.Unparen(op).(type) {
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[x]; ok {
			if sel.Kind() == types.MethodVal {
				return d.Expr(x.X)
			}
			return Dep{}
		}
		if fn, ok := info.Uses[x.Sel].(*types.Func); ok && !d.noDep(fn) {
			return funcDep(fn)
		}
	}
	return Dep{}
}

// Expr returns the dependency a receiver (or a value that a caller
// passes for one) stands for: a package variable, a field of a type, or
// a gRPC stub's connection, locals standing for their initialiser.
func (d *Deps) Expr(e ast.Expr) Dep { return d.expr(e, 0) }

func (d *Deps) expr(e ast.Expr, depth int) Dep {
	if depth > 5 {
		return Dep{}
	}
	info := d.pass.TypesInfo
	switch x := ast.Unparen(e).(type) {
	case *ast.StarExpr:
		return d.expr(x.X, depth+1)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return d.expr(x.X, depth+1)
		}
	case *ast.Ident:
		v, ok := info.Uses[x].(*types.Var)
		if !ok {
			return Dep{}
		}
		if isPkgVar(v) {
			return varDep(v)
		}
		if def := d.ConstLocal(v); def != nil {
			return d.expr(def, depth+1)
		}
	case *ast.SelectorExpr:
		if _, ok := info.Selections[x]; ok {
			return d.fieldChain(x, depth)
		}
		if v, ok := info.Uses[x.Sel].(*types.Var); ok && isPkgVar(v) {
			return varDep(v)
		}
	case *ast.CallExpr:
		// pb.NewInventoryClient(conn): the stub's dependency is the conn's.
		fn, _ := typeutil.Callee(info, x).(*types.Func)
		if fn == nil || typesx.RecvName(fn) != "" || len(x.Args) != 1 || !strings.HasPrefix(fn.Name(), "New") || !strings.HasSuffix(fn.Name(), "Client") {
			return Dep{}
		}
		if isGRPCConn(info.TypeOf(x.Args[0])) {
			return d.expr(x.Args[0], depth+1)
		}
	}
	return Dep{}
}

// fieldChain identifies the dependency behind a chain of field selections
// (s.inventory, s.deps.inventory, s.gh.Repositories): the last field whose
// owner is a struct type of this package (the same field of the same type
// is one dependency). Without a field of the package's own, the chain's
// base decides.
func (d *Deps) fieldChain(x *ast.SelectorExpr, depth int) Dep {
	info := d.pass.TypesInfo
	var e ast.Expr = x
	for {
		sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
		if !ok {
			break
		}
		s, ok := info.Selections[sel]
		if !ok || s.Kind() != types.FieldVal {
			break
		}
		owner := s.Recv()
		if p, ok := owner.(*types.Pointer); ok {
			owner = p.Elem()
		}
		if n, ok := types.Unalias(owner).(*types.Named); ok && n.Obj().Pkg() == d.pass.Pkg {
			if f, ok := s.Obj().(*types.Var); ok {
				return fieldDep(owner, f)
			}
			return Dep{}
		}
		e = sel.X
		if st, ok := ast.Unparen(e).(*ast.StarExpr); ok {
			e = st.X
		}
	}
	if e == ast.Expr(x) {
		return Dep{}
	}
	return d.expr(e, depth+1)
}

// isGRPCConn reports whether t is *grpc.ClientConn or
// grpc.ClientConnInterface.
func isGRPCConn(t types.Type) bool {
	if t == nil {
		return false
	}
	return typesx.IsNamedPtr(t, "google.golang.org/grpc", "ClientConn") || typesx.IsNamed(t, "google.golang.org/grpc", "ClientConnInterface") ||
		typesx.IsNamed(t, "google.golang.org/grpc", "ClientConn")
}

// ForBudget returns the dependency a fix names a budget after. It is
// Attempt's whenever that is known, so that a budget a fix adds is the one
// sharedbudget sees as the dependency's. Where Attempt knows none, a
// budget can still be named after what the attempt calls through: a
// parameter or receiver of a concrete type of this package is keyed by
// that type (every function handed a client of one type reaches the same
// kind of dependency, as fields of one type do; an interface stands for
// whatever implements it), and other variables and fields are kept as the
// attempt's Dep has them. A function of this package, a transport or an
// errors package, and an HTTP client whose URL is unknown, stay unknown.
func (d *Deps) ForBudget(at Attempt) Dep {
	if t := d.Attempt(at); t.Key != "" {
		return t
	}
	if at.Dep.Kind == DepFunc || at.Dep.Kind == DepHost {
		return Dep{}
	}
	if at.Call != nil {
		if fn, _ := typeutil.Callee(d.pass.TypesInfo, at.Call).(*types.Func); IsHTTPSend(fn) {
			return Dep{}
		}
	}
	v, ok := at.Dep.Obj.(*types.Var)
	if !ok || at.Dep.Kind != DepLocal || v.Kind() != types.ParamVar && v.Kind() != types.RecvVar {
		return at.Dep
	}
	t := v.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, named := types.Unalias(t).(*types.Named)
	if !named || n.Obj().Pkg() != d.pass.Pkg || types.IsInterface(n) {
		return at.Dep
	}
	return Dep{Kind: DepType, Obj: v, Key: "type:" + types.TypeString(v.Type(), nil), Name: n.Obj().Name()}
}

// Qualified returns a longer name for a dependency, for telling apart two
// of one Name: the package's last path element for a function's package
// ("orders"), the package-qualified name of a variable or field
// ("store.Service.db"), the host.
func (d Dep) Qualified() string {
	k := d.Key[strings.IndexByte(d.Key, ':')+1:]
	if j := strings.LastIndexByte(k, '/'); j >= 0 {
		k = k[j+1:]
	}
	return k
}

// Qualifier returns what tells apart two dependencies of one Name for a
// budget's name: the type that owns a field, the type of a parameter, the
// package path element above a package ("billing" for
// example.com/billing/orders); "" otherwise.
func (d Dep) Qualifier() string {
	t := d.Key[strings.IndexByte(d.Key, ':')+1:]
	switch d.Kind {
	case DepField:
		t = t[:strings.LastIndexByte(t, '.')]
		return t[strings.LastIndexAny(t, "./")+1:]
	case DepType:
		t = strings.TrimLeft(t, "*")
		return t[strings.LastIndexAny(t, "./")+1:]
	case DepFunc:
		if i := strings.LastIndexByte(t, '/'); i > 0 {
			t = t[:i]
			return t[strings.LastIndexByte(t, '/')+1:]
		}
	}
	return ""
}
