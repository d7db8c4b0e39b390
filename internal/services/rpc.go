package services

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/astx"
)

// Import paths of the RPC frameworks.
const (
	grpcPath       = "google.golang.org/grpc"
	connectPath    = "connectrpc.com/connect"
	oldConnectPath = "github.com/bufbuild/connect-go"
	ctxsettersPath = "github.com/twitchtv/twirp/ctxsetters"
)

func isConnect(fn *types.Func, names ...string) bool {
	return isFuncOf(fn, connectPath, names...) || isFuncOf(fn, oldConnectPath, names...)
}

func isConnectMethod(fn *types.Func, names ...string) bool {
	return isMethodOf(fn, connectPath, names...) || isMethodOf(fn, oldConnectPath, names...)
}

// isGRPC reports whether fn is a method of a type of grpc's own package
// (grpc.ClientConn, grpc.ClientConnInterface, grpc.Server,
// grpc.ServiceRegistrar) named one of names.
func isGRPC(fn *types.Func, names ...string) bool {
	if fn == nil || fn.Pkg() == nil || fn.Signature().Recv() == nil || !samePkg(trimVendor(fn.Pkg().Path()), grpcPath) {
		return false
	}
	for _, n := range names {
		if fn.Name() == n {
			return true
		}
	}
	return false
}

// rpcFacts finds the facts of generated code: the service descriptors,
// the client methods that send and the functions that register an
// implementation.
func (a *analyzer) rpcFacts() {
	a.grpcDescs()
	a.connectClients()
	twirpServers := map[*types.TypeName]*twirpServer{}
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		var sends []Send
		var tw [3]string // twirp: package, service, method
		var twPos token.Pos
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			callee := a.callee(call)
			switch {
			case isGRPC(callee, "Invoke") && len(call.Args) > 1,
				isGRPC(callee, "NewStream") && len(call.Args) > 2,
				isFuncOf(callee, grpcPath, "Invoke") && len(call.Args) > 1:
				i := 1
				if callee.Name() == "NewStream" {
					i = 2
				}
				if m, ok := a.str(call.Args[i]); ok && strings.HasPrefix(m, "/") {
					via := callee.Name() + " " + quote(m) + " at " + a.short(call.Pos())
					a.link(call, amplify.Link{Kind: GRPC, Method: m, Via: via})
					sends = append(sends, Send{Kind: GRPC, Method: m, Inside: true, Via: via, MethodParam: -1, PathParam: -1, ReqParam: -1})
				}
			case isConnectMethod(callee, "CallUnary", "CallClientStream", "CallServerStream", "CallBidiStream"):
				if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
					if proc, ok := a.connectProcs[a.objOf(sel.X)]; ok {
						via := "connect " + callee.Name() + " " + quote(proc) + " at " + a.short(call.Pos())
						a.link(call, amplify.Link{Kind: Connect, Method: proc, Via: via})
						sends = append(sends, Send{Kind: Connect, Method: proc, Inside: true, Via: via, MethodParam: -1, PathParam: -1, ReqParam: -1})
					}
				}
			case isFuncOf(callee, ctxsettersPath, "WithPackageName", "WithServiceName", "WithMethodName") && len(call.Args) == 2:
				if v, ok := a.str(call.Args[1]); ok {
					switch callee.Name() {
					case "WithPackageName":
						tw[0] = v
					case "WithServiceName":
						tw[1] = v
					case "WithMethodName":
						tw[2] = v
						twPos = call.Pos()
					}
				}
			case isGRPC(callee, "RegisterService") && len(call.Args) == 2:
				if d := a.descOf(call.Args[0]); d != nil {
					if i := a.paramIndex(fd, call.Args[1]); i >= 0 {
						a.regs[fn] = append(a.regs[fn], Reg{Kind: GRPC, Service: d.Service, Methods: d.Methods, Impl: i,
							Via: "RegisterService " + d.Service + " at " + a.short(call.Pos())})
					}
				}
			case isConnect(callee, "NewUnaryHandler", "NewClientStreamHandler", "NewServerStreamHandler", "NewBidiStreamHandler") && len(call.Args) > 1:
				proc, ok := a.str(call.Args[0])
				sel, isSel := ast.Unparen(call.Args[1]).(*ast.SelectorExpr)
				if !ok || !isSel {
					break
				}
				if i := a.paramIndex(fd, sel.X); i >= 0 {
					svc := serviceOf(proc)
					a.addReg(fn, Reg{Kind: Connect, Service: svc, Methods: []RegMethod{{Name: proc, Go: sel.Sel.Name}}, Impl: i,
						Via: "connect " + callee.Name() + " " + quote(proc) + " at " + a.short(call.Pos())})
				}
			}
			return true
		})
		if tw[0] != "" && tw[1] != "" && tw[2] != "" {
			m := "/" + tw[0] + "." + tw[1] + "/" + tw[2]
			sends = append(sends, Send{Kind: Twirp, Method: m, Via: "twirp client method " + amplify.FuncName(fn) + " at " + a.short(twPos), MethodParam: -1, PathParam: -1, ReqParam: -1})
		}
		if tw[2] != "" || tw[0] != "" {
			a.noteTwirp(twirpServers, fn, fd, tw)
		}
		if len(sends) > 0 {
			a.sends[fn] = dedupSends(sends)
		}
	}
	a.twirpRegs(twirpServers)
}

func trimVendor(p string) string {
	if i := strings.LastIndex(p, "/vendor/"); i >= 0 {
		return p[i+len("/vendor/"):]
	}
	return p
}

func quote(s string) string { return `"` + s + `"` }

// serviceOf is the service of a full method name: "ledger.v1.Ledger" of
// "/ledger.v1.Ledger/Post".
func serviceOf(method string) string {
	s := strings.TrimPrefix(method, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	return s
}

func (a *analyzer) addReg(fn *types.Func, r Reg) {
	for i, old := range a.regs[fn] {
		if old.Kind == r.Kind && old.Service == r.Service && old.Impl == r.Impl {
			a.regs[fn][i].Methods = append(a.regs[fn][i].Methods, r.Methods...)
			return
		}
	}
	a.regs[fn] = append(a.regs[fn], r)
}

func dedupSends(ss []Send) []Send {
	seen := map[string]bool{}
	var out []Send
	for _, s := range ss {
		k := s.Kind + " " + s.Method + " " + s.Path
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Method+out[i].Path < out[j].Method+out[j].Path })
	return out
}

func (a *analyzer) link(n ast.Node, l amplify.Link) {
	for _, old := range a.res.links[n] {
		if old.Kind == l.Kind && old.Method == l.Method {
			return
		}
	}
	if l.Transport.Value == 0 {
		l.Transport = amplify.One()
	}
	a.res.links[n] = append(a.res.links[n], l)
}

// objOf returns the variable or field an expression names.
func (a *analyzer) objOf(e ast.Expr) types.Object {
	switch e := ast.Unparen(e).(type) {
	case *ast.Ident:
		return a.pass.TypesInfo.Uses[e]
	case *ast.SelectorExpr:
		return a.pass.TypesInfo.Uses[e.Sel]
	}
	return nil
}

// grpcDescs reads the package's gRPC service descriptors: package-level
// variables holding a grpc.ServiceDesc literal with a constant service
// name, each method served by the implementation method its handler calls.
func (a *analyzer) grpcDescs() {
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := ast.Unparen(vs.Values[i]).(*ast.CompositeLit)
					if !ok || !isNamedType(a.pass.TypesInfo.TypeOf(lit), grpcPath, "ServiceDesc") {
						continue
					}
					v, ok := a.pass.TypesInfo.Defs[id].(*types.Var)
					if !ok {
						continue
					}
					if desc := a.readDesc(lit); desc != nil {
						a.descs[v] = desc
					}
				}
			}
		}
	}
}

func isNamedType(t types.Type, path, name string) bool {
	if t == nil {
		return false
	}
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Name() == name && n.Obj().Pkg() != nil && samePkg(trimVendor(n.Obj().Pkg().Path()), path)
}

func (a *analyzer) readDesc(lit *ast.CompositeLit) *DescFact {
	svc, ok := a.str(astx.Field(lit, "ServiceName"))
	if !ok || svc == "" {
		return nil
	}
	d := &DescFact{Service: svc}
	for _, list := range []struct{ field, name string }{{"Methods", "MethodName"}, {"Streams", "StreamName"}} {
		ml, ok := ast.Unparen(astx.Field(lit, list.field)).(*ast.CompositeLit)
		if !ok {
			continue
		}
		for _, e := range ml.Elts {
			el, ok := ast.Unparen(e).(*ast.CompositeLit)
			if !ok {
				continue
			}
			name, ok := a.str(astx.Field(el, list.name))
			if !ok {
				continue
			}
			gm := a.handlerMethod(astx.Field(el, "Handler"))
			if gm == "" {
				gm = name
			}
			d.Methods = append(d.Methods, RegMethod{Name: "/" + svc + "/" + name, Go: gm})
		}
	}
	return d
}

// handlerMethod returns the implementation method a generated gRPC
// handler calls: the M of srv.(XServer).M(...).
func (a *analyzer) handlerMethod(e ast.Expr) string {
	fn := a.funcOf(e)
	if fn == nil {
		return ""
	}
	fd := a.decls[fn]
	if fd == nil {
		return ""
	}
	found := ""
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if found != "" {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if _, ok := ast.Unparen(sel.X).(*ast.TypeAssertExpr); ok {
				found = sel.Sel.Name
			}
		}
		return true
	})
	return found
}

// descOf returns the descriptor &desc names, from this package or a fact.
func (a *analyzer) descOf(e ast.Expr) *DescFact {
	u, ok := ast.Unparen(e).(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return nil
	}
	v, ok := a.objOf(u.X).(*types.Var)
	if !ok {
		return nil
	}
	if d := a.descs[v]; d != nil {
		return d
	}
	var d DescFact
	if a.pass.ImportObjectFact(v, &d) {
		return &d
	}
	return nil
}

// connectClients finds the connect clients of the package: fields and
// variables that hold connect.NewClient(httpClient, baseURL+procedure).
func (a *analyzer) connectClients() {
	procOf := func(e ast.Expr) (string, bool) {
		call, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || !isConnect(a.callee(call), "NewClient") || len(call.Args) < 2 {
			return "", false
		}
		u, ok := a.urlOf(nil, call.Args[1], 0)
		if !ok || u.param >= 0 || u.varTail || !strings.HasPrefix(u.path, "/") {
			return "", false
		}
		return u.path, true
	}
	for _, f := range a.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := n.Key.(*ast.Ident); ok {
					if v, ok := a.pass.TypesInfo.Uses[id].(*types.Var); ok && v.IsField() {
						if p, ok := procOf(n.Value); ok {
							a.connectProcs[v] = p
						}
					}
				}
			case *ast.AssignStmt:
				if len(n.Lhs) != len(n.Rhs) {
					return true
				}
				for i, l := range n.Lhs {
					p, ok := procOf(n.Rhs[i])
					if !ok {
						continue
					}
					var obj types.Object
					if id, ok := ast.Unparen(l).(*ast.Ident); ok {
						obj = a.pass.TypesInfo.Defs[id]
						if obj == nil {
							obj = a.pass.TypesInfo.Uses[id]
						}
					} else {
						obj = a.objOf(l)
					}
					if obj != nil {
						a.connectProcs[obj] = p
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if i < len(n.Values) {
						if p, ok := procOf(n.Values[i]); ok {
							a.connectProcs[a.pass.TypesInfo.Defs[id]] = p
						}
					}
				}
			}
			return true
		})
	}
}

// A twirpServer is a generated Twirp server type: the implementation
// field, its service and the method each of its serve functions serves.
type twirpServer struct {
	field   string
	pkg     string
	service string
	methods map[string]string // Twirp method name → Go method of the implementation
}

// noteTwirp records what a method of a generated Twirp server type says:
// ServeHTTP names the package and the service, each serve function the
// method and the implementation method it calls (s.Ledger.Post).
func (a *analyzer) noteTwirp(servers map[*types.TypeName]*twirpServer, fn *types.Func, fd *ast.FuncDecl, tw [3]string) {
	recv := fn.Signature().Recv()
	if recv == nil {
		return
	}
	t := recv.Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return
	}
	st, ok := named.Underlying().(*types.Struct)
	if !ok {
		return
	}
	s := servers[named.Obj()]
	if s == nil {
		s = &twirpServer{methods: map[string]string{}}
		servers[named.Obj()] = s
	}
	if tw[0] != "" && tw[1] != "" && tw[2] == "" {
		s.pkg, s.service = tw[0], tw[1]
	}
	if tw[2] == "" || tw[0] != "" {
		return
	}
	// s.<field>.<M>: a field of interface type.
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		inner, ok := ast.Unparen(sel.X).(*ast.SelectorExpr)
		if !ok {
			return true
		}
		fv, ok := a.pass.TypesInfo.Uses[inner.Sel].(*types.Var)
		if !ok || !fv.IsField() || !types.IsInterface(fv.Type()) {
			return true
		}
		for i := range st.NumFields() {
			if st.Field(i) == fv {
				s.field = fv.Name()
				s.methods[tw[2]] = sel.Sel.Name
				return false
			}
		}
		return true
	})
}

// twirpRegs gives a RegisterFact to each function that builds a Twirp
// server around its parameter: &ledgerServer{Ledger: svc, ...}.
func (a *analyzer) twirpRegs(servers map[*types.TypeName]*twirpServer) {
	if len(servers) == 0 {
		return
	}
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		ast.Inspect(fd.Body, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			named, ok := types.Unalias(a.pass.TypesInfo.TypeOf(lit)).(*types.Named)
			if !ok {
				return true
			}
			s := servers[named.Obj()]
			if s == nil || s.service == "" || s.field == "" || len(s.methods) == 0 {
				return true
			}
			i := a.paramIndex(fd, astx.Field(lit, s.field))
			if i < 0 {
				return true
			}
			svc := s.pkg + "." + s.service
			var ms []RegMethod
			for m, g := range s.methods {
				ms = append(ms, RegMethod{Name: "/" + svc + "/" + m, Go: g})
			}
			sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
			a.regs[fn] = append(a.regs[fn], Reg{Kind: Twirp, Service: svc, Methods: ms, Impl: i,
				Via: "twirp server " + named.Obj().Name() + " at " + a.short(lit.Pos())})
			return true
		})
	}
}

// interfaceSends gives the methods of the package's client interfaces
// the sends of their implementations: an interface is a client when a
// function of the package returns it built from a type whose methods send
// (NewLedgerClient returns &ledgerClient{cc} as LedgerClient), and its
// method sends what every such type's method sends. A call through
// LedgerClient.Post is then a call of the generated client; an interface
// that a sending type merely happens to implement (connect's
// LedgerHandler, the server interfaces) sends nothing.
func (a *analyzer) interfaceSends() {
	if len(a.sends) == 0 {
		return
	}
	impls := map[*types.TypeName][]types.Type{}
	for _, fd := range a.order {
		fn := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		res := fn.Signature().Results()
		for i := range res.Len() {
			named, ok := types.Unalias(res.At(i).Type()).(*types.Named)
			if !ok || named.Obj().Pkg() != a.pass.Pkg || !types.IsInterface(named) {
				continue
			}
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				if _, isLit := n.(*ast.FuncLit); isLit {
					return false
				}
				ret, ok := n.(*ast.ReturnStmt)
				if !ok || len(ret.Results) != res.Len() {
					return true
				}
				t := a.pass.TypesInfo.TypeOf(ret.Results[i])
				if t == nil || types.IsInterface(t) {
					return true
				}
				for _, old := range impls[named.Obj()] {
					if types.Identical(old, t) {
						return true
					}
				}
				impls[named.Obj()] = append(impls[named.Obj()], t)
				return true
			})
		}
	}
	// The sends of the concrete methods, before any interface's: the
	// result does not depend on the order the interfaces are visited in.
	concrete := make(map[types.Object][]Send, len(a.sends))
	for obj, ss := range a.sends {
		concrete[obj] = ss
	}
	for tn, ts := range impls {
		iface := tn.Type().Underlying().(*types.Interface)
		for i := range iface.NumMethods() {
			m := iface.Method(i)
			if m.Pkg() != a.pass.Pkg {
				continue // an embedded interface of another package
			}
			var agreed []Send
			ok := true
			for j, t := range ts {
				fn := a.methodOf(t, m.Name())
				var ss []Send
				if fn != nil {
					ss = concrete[fn]
				}
				if len(ss) == 0 || j > 0 && !sameSends(ss, agreed) {
					ok = false
					break
				}
				agreed = ss
			}
			if !ok {
				continue
			}
			out := make([]Send, len(agreed))
			for j, s := range agreed {
				s.Inside = false
				out[j] = s
			}
			a.sends[m] = out
		}
	}
}

func sameSends(x, y []Send) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i].Kind != y[i].Kind || x[i].Method != y[i].Method || x[i].Path != y[i].Path {
			return false
		}
	}
	return true
}

// sendsOf returns what calling fn sends, from this package or a fact.
func (a *analyzer) sendsOf(fn *types.Func) []Send {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if ss, ok := a.sends[fn]; ok {
		return ss
	}
	if fn.Pkg() == a.pass.Pkg {
		return nil
	}
	var f SendFact
	if a.pass.ImportObjectFact(fn, &f) {
		return f.Sends
	}
	return nil
}

// regsOf returns what calling fn registers, from this package or a fact.
func (a *analyzer) regsOf(fn *types.Func) []Reg {
	if fn == nil {
		return nil
	}
	fn = fn.Origin()
	if rs, ok := a.regs[fn]; ok {
		return rs
	}
	if fn.Pkg() == a.pass.Pkg {
		return nil
	}
	var f RegisterFact
	if a.pass.ImportObjectFact(fn, &f) {
		return f.Regs
	}
	return nil
}
