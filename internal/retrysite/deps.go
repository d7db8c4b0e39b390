package retrysite

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/retrylint/retrylint/internal/typesx"
)

// depOf works out the dependency a call targets: the root object of its
// receiver, the callee's package, or the URL host of an HTTP request.
func (a *analyzer) depOf(call *ast.CallExpr) Dep {
	fn := a.callee(call)
	if fn == nil {
		return Dep{}
	}
	path, name, recv := typesx.PkgPath(fn), fn.Name(), typesx.RecvName(fn)
	if d, ok := a.httpDep(call, path, recv, name); ok {
		return d
	}
	if addr := DialAddress(fn, call); addr != nil {
		// The address dialled: a field that holds it is the dependency
		// (c.addr, as a base URL is); any other address is known only
		// when the call is made, a key for the fixes (fixedattempts'
		// dialAddr), and no dependency the model can name.
		if sel, ok := unparen(addr).(*ast.SelectorExpr); ok && typesx.IsString(a.pass.TypesInfo.TypeOf(sel)) {
			return a.rootDep(sel)
		}
		return Dep{}
	}
	if recv != "" || typesx.IsInterfaceMethod(fn) {
		sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return Dep{}
		}
		return a.rootDep(chainRoot(a.pass.TypesInfo, sel.X))
	}
	return funcDep(fn)
}

// chainRoot returns the receiver a chain of method calls starts from:
// kv for kv.Txn(ctx).If(cmp).Then(op), whose calls each return one value
// (a builder of the request the last call sends); x itself otherwise.
func chainRoot(info *types.Info, x ast.Expr) ast.Expr {
	for {
		call, ok := unparen(x).(*ast.CallExpr)
		if !ok {
			return x
		}
		sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
		fn := typesx.Callee(info, call)
		if !ok || fn == nil || typesx.RecvName(fn) == "" && !typesx.IsInterfaceMethod(fn) {
			return x
		}
		if sig, ok := fn.Type().(*types.Signature); !ok || sig.Results().Len() != 1 {
			return x
		}
		x = sel.X
	}
}

// funcDep is the dependency of a package-level function: its package.
func funcDep(fn *types.Func) Dep {
	if fn == nil || fn.Pkg() == nil {
		return Dep{}
	}
	return Dep{Kind: DepFunc, Obj: fn, Key: "pkg:" + typesx.PkgPath(fn), Name: fn.Pkg().Name()}
}

// HostDep is the dependency of a URL host.
func HostDep(host string) Dep {
	if host == "" {
		return Dep{}
	}
	return Dep{Kind: DepHost, Key: "host:" + host, Name: host}
}

// fieldDep is the dependency of the field f of the struct type owner (a
// pointer is taken for what it points to).
func fieldDep(owner types.Type, f *types.Var) Dep {
	if p, ok := owner.(*types.Pointer); ok {
		owner = p.Elem()
	}
	return Dep{Kind: DepField, Obj: f, Key: "field:" + types.TypeString(owner, nil) + "." + f.Name(), Name: f.Name()}
}

// rootDep identifies the dependency behind a receiver expression: a
// variable, or a field of a named type (s.inventory and t.inventory are the
// same dependency when s and t have the same type).
func (a *analyzer) rootDep(x ast.Expr) Dep {
	x = unparen(x)
	if st, ok := x.(*ast.StarExpr); ok {
		x = unparen(st.X)
	}
	switch x := x.(type) {
	case *ast.Ident:
		v, ok := a.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok {
			return Dep{}
		}
		return varDep(a.pass.Fset, v)
	case *ast.SelectorExpr:
		if sel, ok := a.pass.TypesInfo.Selections[x]; ok {
			if sel.Kind() != types.FieldVal {
				return Dep{}
			}
			f, ok := sel.Obj().(*types.Var)
			if !ok {
				return Dep{}
			}
			return fieldDep(sel.Recv(), f)
		}
		// A qualified identifier: pkg.Var.
		if v, ok := a.pass.TypesInfo.Uses[x.Sel].(*types.Var); ok {
			return varDep(a.pass.Fset, v)
		}
	}
	return Dep{}
}

// varDep is the dependency of a variable: a package-level one by its
// name, a local one by where it is declared (two locals of one name
// differ): "var:ca@client.go:120:3@example.com/orders". The key holds no
// token.Pos, which differs from one run to the next.
func varDep(fset *token.FileSet, v *types.Var) Dep {
	if isPkgVar(v) {
		return Dep{Kind: DepVar, Obj: v, Key: "var:" + v.Pkg().Path() + "." + v.Name(), Name: v.Name()}
	}
	path := ""
	if v.Pkg() != nil {
		path = v.Pkg().Path()
	}
	p := fset.Position(v.Pos())
	return Dep{Kind: DepLocal, Obj: v, Key: fmt.Sprintf("var:%s@%s:%d:%d@%s", v.Name(), filepath.Base(p.Filename), p.Line, p.Column, path), Name: v.Name()}
}

func isPkgVar(v *types.Var) bool {
	return v.Pkg() != nil && v.Parent() == v.Pkg().Scope()
}

// httpDep returns the URL host an HTTP call targets, when the call sends a
// request whose URL is known.
func (a *analyzer) httpDep(call *ast.CallExpr, path, recv, name string) (Dep, bool) {
	isHTTP := path == "net/http" || strings.HasSuffix(path, "/go-retryablehttp")
	if !isHTTP {
		return Dep{}, false
	}
	var u ast.Expr
	switch {
	case name == "Do" && len(call.Args) == 1:
		u = a.requestURL(call.Args[0])
	case (name == "Get" || name == "Head" || name == "Post" || name == "PostForm") && len(call.Args) >= 1:
		u = call.Args[0]
	}
	if u == nil {
		return Dep{}, false
	}
	d := a.hostDep(u)
	return d, d.Key != ""
}

// requestURL returns the URL argument of the construction of the request
// req, when req is a local variable assigned once from http.NewRequest,
// http.NewRequestWithContext or their go-retryablehttp equivalents.
func (a *analyzer) requestURL(req ast.Expr) ast.Expr {
	id, ok := unparen(req).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	call := a.definingCall(v)
	if call == nil {
		return nil
	}
	fn := a.callee(call)
	if fn == nil {
		return nil
	}
	switch fn.Name() {
	case "NewRequest":
		if len(call.Args) >= 2 {
			return call.Args[1]
		}
	case "NewRequestWithContext":
		if len(call.Args) >= 3 {
			return call.Args[2]
		}
	}
	return nil
}

// definingCall returns the call that defines the local variable v, when v
// is declared with := or var from a call.
func (a *analyzer) definingCall(v *types.Var) *ast.CallExpr {
	call, _ := unparen(a.definingExpr(v)).(*ast.CallExpr)
	return call
}

// hostDep identifies the host of a URL expression: a constant URL's host,
// or the field or variable its text starts with (s.baseURL + "/charge").
func (a *analyzer) hostDep(e ast.Expr) Dep { return a.hostDepAt(e, 0) }

func (a *analyzer) hostDepAt(e ast.Expr, depth int) Dep {
	if s, ok := a.stringConst(e); ok {
		u, err := url.Parse(s)
		if err != nil {
			return Dep{}
		}
		return HostDep(u.Host)
	}
	e = unparen(e)
	switch x := e.(type) {
	case *ast.BinaryExpr:
		if x.Op == token.ADD {
			return a.hostDepAt(x.X, depth)
		}
	case *ast.SelectorExpr:
		if _, ok := a.pass.TypesInfo.Selections[x]; ok {
			return a.rootDep(x)
		}
		if v, ok := a.pass.TypesInfo.Uses[x.Sel].(*types.Var); ok {
			return varDep(a.pass.Fset, v)
		}
	case *ast.Ident:
		v, ok := a.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok || v.Pkg() == nil {
			break
		}
		if v.Parent() == v.Pkg().Scope() {
			return varDep(a.pass.Fset, v)
		}
		// A local that only ever holds one URL (u := s.baseURL +
		// "/stock/" + id): that URL's host.
		if def := a.vars.Once(v); def != nil && depth < 4 {
			return a.hostDepAt(def, depth+1)
		}
	case *ast.CallExpr:
		// u.String(), where u, err := url.Parse(s.endpoint): the host is
		// the parsed string's.
		if in := a.parsedURL(x); in != nil {
			return a.hostDepAt(in, depth)
		}
		// fmt.Sprintf("%s/charge", s.baseURL)
		if fn := a.callee(x); fn != nil && typesx.PkgPath(fn) == "fmt" && fn.Name() == "Sprintf" && len(x.Args) >= 2 {
			if f, ok := a.stringConst(x.Args[0]); ok && strings.HasPrefix(f, "%s") {
				return a.hostDepAt(x.Args[1], depth)
			}
			if f, ok := a.stringConst(x.Args[0]); ok {
				if u, err := url.Parse(f); err == nil && u.Host != "" && !strings.Contains(u.Host, "%") {
					return HostDep(u.Host)
				}
			}
		}
	}
	return Dep{}
}

// parsedURL returns s of u.String(), when u is a local variable declared
// from url.Parse(s) or url.ParseRequestURI(s): changes to its path or
// query keep the host.
func (a *analyzer) parsedURL(call *ast.CallExpr) ast.Expr {
	sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "String" || len(call.Args) != 0 {
		return nil
	}
	id, ok := unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || isPkgVar(v) {
		return nil
	}
	def := a.definingCall(v)
	if def == nil || len(def.Args) != 1 {
		return nil
	}
	if fn := a.callee(def); fn == nil || typesx.PkgPath(fn) != "net/url" || typesx.RecvName(fn) != "" || fn.Name() != "Parse" && fn.Name() != "ParseRequestURI" {
		return nil
	}
	return def.Args[0]
}

// OperationDep returns the dependency an operation passed as a value
// targets, in the terms of Attempt.Dep: a method value's receiver (the
// same variable, or the same field of the same type), or the package of a
// package-level function. It is the unknown Dep for other expressions.
func (s *Sites) OperationDep(op ast.Expr) Dep {
	a, pass := s.a, s.pass
	switch x := unparen(op).(type) {
	case *ast.SelectorExpr:
		if sel, ok := pass.TypesInfo.Selections[x]; ok {
			if sel.Kind() == types.MethodVal {
				return a.rootDep(x.X)
			}
			return Dep{}
		}
		if fn, ok := pass.TypesInfo.Uses[x.Sel].(*types.Func); ok {
			return funcDep(fn)
		}
	}
	return Dep{}
}

// Portable returns d as a fact may carry it: without its object, and with
// a local variable keyed by its file, line and column rather than by its
// token.Pos, which depends on the order files were loaded in.
func (d Dep) Portable(fset *token.FileSet) Dep {
	if d.Kind == DepLocal && d.Obj != nil {
		p := fset.Position(d.Obj.Pos())
		d.Key = fmt.Sprintf("var:%s@%s:%d:%d", d.Name, filepath.Base(p.Filename), p.Line, p.Column)
	}
	d.Obj = nil
	return d
}
