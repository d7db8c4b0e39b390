package sharedbudget

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/internal/typesx"
)

// The AWS SDK v2 keeps its retry quota (a budget) inside each retryer:
// aws.Config.Retryer is a factory called once per service client, so a
// factory that returns one captured instance, or one instance set as
// Options.Retryer of several clients, makes the clients of different
// services draw on one quota.

const awsPath = "github.com/aws/aws-sdk-go-v2"

// importsAWSService reports whether pkg imports a service client package
// of the AWS SDK v2.
func importsAWSService(pkg *types.Package) bool {
	for _, p := range pkg.Imports() {
		if strings.HasPrefix(typesx.TrimVendor(p.Path()), awsPath+"/service/") {
			return true
		}
	}
	return false
}

// factory is a func() aws.Retryer that returns one instance, and the
// configuration it is set on.
type factory struct {
	lit     *ast.FuncLit
	inst    *types.Var
	names   []*ast.Ident // the instance named in the factory's returns
	cfg     *types.Var
	at      token.Pos // an assignment cfg.Retryer = ...: where
	atFunc  ast.Node  // and in which function
	viaLoad bool
}

// client is a service client built with a shared retryer.
type client struct {
	call    *ast.CallExpr
	svc     *types.Package
	inst    *types.Var
	factory *factory // nil when the instance is set as Options.Retryer
}

func (c *checker) checkAWS() {
	configs := make(map[*types.Var][]*factory)
	for cur := range c.insp.Root().Preorder((*ast.FuncLit)(nil)) {
		lit := cur.Node().(*ast.FuncLit)
		if !isRetryerFactory(c.info.TypeOf(lit)) {
			continue
		}
		inst, names := c.factoryInstance(lit)
		if inst == nil {
			continue
		}
		f := &factory{lit: lit, inst: inst, names: names}
		if !c.configOf(cur, f) {
			continue
		}
		configs[f.cfg] = append(configs[f.cfg], f)
	}
	byInst := make(map[*types.Var][]client)
	var order []*types.Var
	for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		cl, ok := c.clientOf(cur, call, configs)
		if !ok {
			continue
		}
		if byInst[cl.inst] == nil {
			order = append(order, cl.inst)
		}
		byInst[cl.inst] = append(byInst[cl.inst], cl)
	}
	for _, inst := range order {
		c.reportAWS(inst, byInst[inst])
	}
}

// isRetryerFactory reports whether t is func() aws.Retryer (or RetryerV2).
func isRetryerFactory(t types.Type) bool {
	sig, ok := t.(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Results().Len() != 1 {
		return false
	}
	return isAWSType(sig.Results().At(0).Type(), "/aws", "Retryer", "RetryerV2")
}

// isAWSType reports whether t (or what it points to) is one of the named
// types of the SDK package awsPath+sub.
func isAWSType(t types.Type, sub string, names ...string) bool {
	if t == nil {
		return false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || typesx.TrimVendor(n.Obj().Pkg().Path()) != awsPath+sub {
		return false
	}
	for _, name := range names {
		if n.Obj().Name() == name {
			return true
		}
	}
	return false
}

// factoryInstance returns the one retryer every return of a factory
// hands out, when it lives outside the factory, and the identifiers that
// name it there.
func (c *checker) factoryInstance(lit *ast.FuncLit) (*types.Var, []*ast.Ident) {
	var inst *types.Var
	var names []*ast.Ident
	ok := true
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			if len(n.Results) != 1 {
				ok = false
				return false
			}
			v, id := c.instanceOf(n.Results[0], lit, 0)
			if v == nil || inst != nil && v != inst {
				ok = false
				return false
			}
			inst = v
			if id != nil {
				names = append(names, id)
			}
		}
		return ok
	})
	if !ok {
		return nil, nil
	}
	return inst, names
}

// instanceOf returns the variable holding the one retryer e denotes: a
// package variable, or a local declared outside lit (when lit is not nil)
// and never reassigned; retry.AddWith... wrappers share the retryer they
// wrap. id is the identifier in e that names it, when e names it directly.
func (c *checker) instanceOf(e ast.Expr, lit *ast.FuncLit, depth int) (v *types.Var, id *ast.Ident) {
	if depth > 5 {
		return nil, nil
	}
	switch x := ast.Unparen(e).(type) {
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(c.info, x).(*types.Func)
		if fn != nil && fn.Pkg() != nil && typesx.TrimVendor(fn.Pkg().Path()) == awsPath+"/aws/retry" && strings.HasPrefix(fn.Name(), "AddWith") && len(x.Args) > 0 {
			return c.instanceOf(x.Args[0], lit, depth+1)
		}
	case *ast.Ident:
		v, ok := c.info.Uses[x].(*types.Var)
		if !ok {
			return nil, nil
		}
		if isPkgVar(v) {
			return v, x
		}
		def := c.deps.ConstLocal(v)
		if def == nil {
			return nil, nil
		}
		if w, _ := c.instanceOf(def, lit, depth+1); w != nil {
			return w, nil // an alias of the instance
		}
		if lit != nil && astx.Within(def, lit) {
			return nil, nil // made anew by each call of the factory
		}
		return v, x
	}
	return nil, nil
}

// configOf finds the aws.Config a factory is set on: Retryer: in an
// aws.Config literal, cfg.Retryer = ..., or config.WithRetryer(...) among
// the options of config.LoadDefaultConfig.
func (c *checker) configOf(cur inspector.Cursor, f *factory) bool {
	parent := cur.Parent()
	switch p := parent.Node().(type) {
	case *ast.KeyValueExpr:
		key, ok := p.Key.(*ast.Ident)
		if !ok || key.Name != "Retryer" || p.Value != f.lit {
			return false
		}
		lit, ok := parent.Parent().Node().(*ast.CompositeLit)
		if !ok || !isAWSType(c.info.TypeOf(lit), "/aws", "Config") {
			return false
		}
		f.cfg = c.destVar(parent.Parent())
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r != f.lit || i >= len(p.Lhs) {
				continue
			}
			sel, ok := p.Lhs[i].(*ast.SelectorExpr)
			if !ok || sel.Sel.Name != "Retryer" || !isAWSType(c.info.TypeOf(sel.X), "/aws", "Config") {
				return false
			}
			id, ok := ast.Unparen(sel.X).(*ast.Ident)
			if !ok {
				return false
			}
			f.cfg, _ = c.info.Uses[id].(*types.Var)
			f.at, f.atFunc = p.Pos(), astx.EnclosingFunc(parent)
		}
	case *ast.CallExpr:
		fn, _ := typeutil.Callee(c.info, p).(*types.Func)
		if !isAWSFunc(fn, "/config", "WithRetryer") {
			return false
		}
		load, ok := parent.Parent().Node().(*ast.CallExpr)
		if !ok || !isAWSFunc(typeutil.StaticCallee(c.info, load), "/config", "LoadDefaultConfig") {
			return false
		}
		f.cfg, f.viaLoad = c.destVar(parent.Parent()), true
	}
	return f.cfg != nil
}

func isAWSFunc(fn *types.Func, sub, name string) bool {
	return fn != nil && fn.Name() == name && fn.Pkg() != nil && typesx.TrimVendor(fn.Pkg().Path()) == awsPath+sub && recvOf(fn) == nil
}

// destVar returns the variable an expression is assigned to when it is
// declared or assigned (the first of several results).
func (c *checker) destVar(cur inspector.Cursor) *types.Var {
	e := cur.Node()
	var lhs ast.Expr
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		for i, r := range p.Rhs {
			if r == e {
				if len(p.Lhs) == len(p.Rhs) {
					lhs = p.Lhs[i]
				} else if len(p.Rhs) == 1 {
					lhs = p.Lhs[0]
				}
			}
		}
	case *ast.ValueSpec:
		for i, r := range p.Values {
			if r == e {
				if len(p.Names) == len(p.Values) {
					lhs = p.Names[i]
				} else if len(p.Values) == 1 {
					lhs = p.Names[0]
				}
			}
		}
	}
	id, ok := lhs.(*ast.Ident)
	if !ok {
		return nil
	}
	v, _ := c.info.ObjectOf(id).(*types.Var)
	return v
}

// clientOf recognises the construction of a service client that gets a
// shared retryer: svc.NewFromConfig(cfg, ...) for a cfg with a factory
// returning one instance, or Options.Retryer set to one instance.
func (c *checker) clientOf(cur inspector.Cursor, call *ast.CallExpr, configs map[*types.Var][]*factory) (client, bool) {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	if fn == nil || fn.Pkg() == nil || recvOf(fn) != nil || len(call.Args) == 0 ||
		!strings.HasPrefix(typesx.TrimVendor(fn.Pkg().Path()), awsPath+"/service/") ||
		fn.Name() != "NewFromConfig" && fn.Name() != "New" {
		return client{}, false
	}
	cl := client{call: call, svc: fn.Pkg()}
	// An option that sets the retryer decides.
	if call.Ellipsis.IsValid() {
		return client{}, false
	}
	set := false
	for _, opt := range call.Args[1:] {
		lit, ok := ast.Unparen(opt).(*ast.FuncLit)
		if !ok {
			continue
		}
		ast.Inspect(lit.Body, func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, l := range as.Lhs {
				if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "Retryer" {
					set = true
					cl.inst, _ = c.instanceOf(as.Rhs[i], nil, 0)
				}
			}
			return true
		})
	}
	if set {
		return cl, cl.inst != nil
	}
	if fn.Name() == "New" {
		lit, ok := ast.Unparen(call.Args[0]).(*ast.CompositeLit)
		if !ok {
			return client{}, false
		}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Retryer" {
					cl.inst, _ = c.instanceOf(kv.Value, nil, 0)
				}
			}
		}
		return cl, cl.inst != nil
	}
	var cfg *types.Var
	switch x := ast.Unparen(call.Args[0]).(type) {
	case *ast.Ident:
		cfg, _ = c.info.Uses[x].(*types.Var)
	case *ast.CallExpr: // cfg.Copy()
		if sel, ok := ast.Unparen(x.Fun).(*ast.SelectorExpr); ok && sel.Sel.Name == "Copy" {
			if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok {
				cfg, _ = c.info.Uses[id].(*types.Var)
			}
		}
	}
	var found *factory
	for _, f := range configs[cfg] {
		if f.atFunc != nil && (f.atFunc != astx.EnclosingFunc(cur) || f.at > call.Pos()) {
			continue // set after this client copied the config, or elsewhere
		}
		if found != nil && found.inst != f.inst {
			return client{}, false
		}
		found = f
	}
	if found == nil {
		return client{}, false
	}
	cl.inst, cl.factory = found.inst, found
	return cl, true
}

// reportAWS reports a retryer shared by the clients of two or more
// services.
func (c *checker) reportAWS(inst *types.Var, clients []client) {
	seen := make(map[string]bool)
	var svcs []string
	for _, cl := range clients {
		if !seen[cl.svc.Path()] {
			seen[cl.svc.Path()] = true
			svcs = append(svcs, cl.svc.Name())
		}
	}
	if len(svcs) < 2 {
		return
	}
	sort.Strings(svcs)
	d := analysis.Diagnostic{
		Category: catRetryer,
		Message: fmt.Sprintf("AWS retryer %s guards retries to %s with one retry quota: %s",
			c.varName(inst), list(svcs), drains(len(svcs))),
	}
	if inst.Pkg() == c.pass.Pkg && c.inPackage(inst.Pos()) {
		d.Pos, d.End = inst.Pos(), inst.Pos()+token.Pos(len(inst.Name()))
	} else {
		d.Pos, d.End = clients[0].call.Pos(), clients[0].call.End()
	}
	var factories []*factory
	for _, cl := range clients {
		d.Related = append(d.Related, analysis.RelatedInformation{
			Pos: cl.call.Pos(), End: cl.call.End(),
			Message: fmt.Sprintf("the %s client gets it here", cl.svc.Name()),
		})
		if cl.factory != nil && (len(factories) == 0 || factories[len(factories)-1] != cl.factory) {
			factories = append(factories, cl.factory)
		}
	}
	for _, f := range factories {
		d.Related = append(d.Related, analysis.RelatedInformation{
			Pos: f.lit.Pos(), End: f.lit.End(), Message: "Config.Retryer returns the same retryer to every client",
		})
	}
	if fix := c.retryerFix(inst, clients); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	}
	suppress.Report(c.pass, d)
}

// retryerFix makes the factory build a new retryer for each client, with
// the instance's initialiser, and removes the instance, when the factory's
// returns are its only uses.
func (c *checker) retryerFix(inst *types.Var, clients []client) *analysis.SuggestedFix {
	in := c.deps.Var(inst)
	if in == nil || in.Def == nil || in.Assigns > 0 || in.Addr || inst.Exported() || !c.isConstructor(in.Def) {
		return nil
	}
	names := make(map[ast.Node]bool)
	for _, cl := range clients {
		if cl.factory == nil {
			return nil
		}
		for _, id := range cl.factory.names {
			names[id] = true
		}
	}
	for _, id := range c.identsOf(inst) {
		if !names[id] {
			return nil
		}
	}
	def := c.src(in.Def)
	var edits []analysis.TextEdit
	for id := range names {
		if !c.resolvesAt(in.Def, id.Pos()) {
			return nil
		}
		edits = append(edits, analysis.TextEdit{Pos: id.Pos(), End: id.End(), NewText: []byte(def)})
	}
	var del ast.Node
	as, _ := in.Decl.(*ast.AssignStmt)
	spec, _ := in.Decl.(*ast.ValueSpec)
	switch {
	case as != nil && len(as.Lhs) == 1:
		del = as
	case spec != nil && in.Gen != nil && len(in.Gen.Specs) == 1 && len(spec.Names) == 1:
		del = in.Gen
		if !isPkgVar(inst) {
			del = c.parentOf(in.Gen) // the DeclStmt
		}
	}
	if del == nil {
		return nil
	}
	pos, end := c.lineSpan(del)
	edits = append(edits, analysis.TextEdit{Pos: pos, End: end})
	if !c.oneFile(edits) {
		return nil
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	return &analysis.SuggestedFix{Message: "Give each client its own retryer", TextEdits: edits}
}

// resolvesAt reports whether every name in e denotes, at pos, what it
// denotes in e.
func (c *checker) resolvesAt(e ast.Expr, pos token.Pos) bool {
	f := fixutil.FileOf(c.pass, pos)
	if f == nil || c.info.Scopes[f] == nil {
		return false
	}
	scope := c.info.Scopes[f].Innermost(pos)
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			ast.Inspect(n.X, func(m ast.Node) bool {
				if id, isID := m.(*ast.Ident); isID && ok {
					ok = c.sameAt(e, scope, id, pos)
				}
				return ok
			})
			return false
		case *ast.KeyValueExpr:
			if _, isID := n.Key.(*ast.Ident); isID {
				ast.Inspect(n.Value, func(m ast.Node) bool {
					if id, isID := m.(*ast.Ident); isID && ok {
						ok = c.sameAt(e, scope, id, pos)
					}
					return ok
				})
				return false
			}
		case *ast.Ident:
			ok = ok && c.sameAt(e, scope, n, pos)
		}
		return ok
	})
	return ok
}

func (c *checker) sameAt(e ast.Expr, scope *types.Scope, id *ast.Ident, pos token.Pos) bool {
	obj := c.info.Uses[id]
	if obj == nil || obj.Pos() >= e.Pos() && obj.Pos() < e.End() {
		return true // a blank, or declared inside e (a parameter of a literal)
	}
	_, got := scope.LookupParent(id.Name, pos)
	return got == obj
}

// lineSpan widens a statement or declaration to its whole lines when
// nothing else shares them.
func (c *checker) lineSpan(n ast.Node) (token.Pos, token.Pos) {
	pos, end := n.Pos(), n.End()
	if gd, ok := n.(*ast.GenDecl); ok && gd.Doc != nil {
		pos = gd.Doc.Pos()
	}
	tf := c.pass.Fset.File(pos)
	if tf == nil {
		return pos, end
	}
	data, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return pos, end
	}
	s, e := tf.Offset(pos), tf.Offset(end)
	i := s
	for i > 0 && (data[i-1] == ' ' || data[i-1] == '\t') {
		i--
	}
	j := e
	for j < len(data) && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	if j+1 < len(data) && data[j] == '/' && data[j+1] == '/' {
		for j < len(data) && data[j] != '\n' {
			j++ // a comment on the removed line goes with it
		}
	}
	if (i == 0 || data[i-1] == '\n') && j < len(data) && data[j] == '\n' {
		return tf.Pos(i), tf.Pos(j + 1)
	}
	return pos, end
}
