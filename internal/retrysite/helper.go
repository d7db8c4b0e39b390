package retrysite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// findHelpers exports a HelperFact for every function of the package that
// retries a call of one of its function parameters, then records the calls
// of helpers (of this package or, through facts, of others) as sites. A
// helper that calls another helper with its own parameter is a helper too,
// so the two steps repeat a few times.
func (a *analyzer) findHelpers() {
	var decls []*ast.FuncDecl
	for _, f := range a.pass.Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil && hasFuncParam(fd) {
				decls = append(decls, fd)
			}
		}
	}
	lits := a.helperLits()
	exported := make(map[*ast.FuncDecl]bool)
	found := make(map[types.Object]bool)
	seen := make(map[*ast.CallExpr]bool)
	// A poll helper is one by its own body, whatever the rounds find.
	for _, fd := range decls {
		exported[fd] = a.exportPollHelper(fd)
	}
	for round := 0; round < 4; round++ {
		changed := false
		for _, fd := range decls {
			if !exported[fd] && a.exportHelper(fd) {
				exported[fd], changed = true, true
			}
		}
		for _, l := range lits {
			if !found[l.v] && a.litHelper(l.v, l.lit) {
				found[l.v], changed = true, true
			}
		}
		if a.findHelperCalls(seen) {
			changed = true
		}
		if !changed {
			break
		}
	}
}

// helperLit is a function literal held by a local variable that is given
// no other value and whose address is not taken: a call of the variable
// is a call of the literal.
type helperLit struct {
	v   types.Object
	lit *ast.FuncLit
}

// helperLits returns the function literals of the package, with a
// function parameter, that a local variable holds (helperLit).
func (a *analyzer) helperLits() []helperLit {
	var out []helperLit
	for cur := range a.insp.Root().Preorder((*ast.FuncLit)(nil)) {
		lit := cur.Node().(*ast.FuncLit)
		if !hasFuncParamList(lit.Type) {
			continue
		}
		var id *ast.Ident
		switch p := cur.Parent().Node().(type) {
		case *ast.AssignStmt:
			if p.Tok == token.DEFINE && len(p.Lhs) == 1 && len(p.Rhs) == 1 && p.Rhs[0] == ast.Expr(lit) {
				id, _ = p.Lhs[0].(*ast.Ident)
			}
		case *ast.ValueSpec:
			if len(p.Names) == 1 && len(p.Values) == 1 && p.Values[0] == ast.Expr(lit) {
				id = p.Names[0]
			}
		}
		if id == nil {
			continue
		}
		v, ok := a.pass.TypesInfo.Defs[id].(*types.Var)
		if !ok || v.Parent() == a.pass.Pkg.Scope() || a.vars.Reassigned(v) {
			continue
		}
		out = append(out, helperLit{v, lit})
	}
	return out
}

// litHelper records v, which holds lit, as a retry helper when one of the
// literal's retry sites retries a call of its function parameter, as
// exportHelper does for a function of the package; a local variable has
// no fact.
func (a *analyzer) litHelper(v types.Object, lit *ast.FuncLit) bool {
	sig, ok := a.pass.TypesInfo.TypeOf(lit).(*types.Signature)
	if !ok {
		return false
	}
	s, f := a.helperSite(lit, sig)
	if s == nil {
		return false
	}
	if a.litHelpers == nil {
		a.litHelpers, a.litSites = map[types.Object]*HelperFact{}, map[types.Object]*Site{}
	}
	a.litHelpers[v], a.litSites[v] = f, s
	s.Helper, s.Holder = f, v
	return true
}

// helperSite returns the first retry site in fn (a declaration or a
// literal of signature sig) that retries a call of one of its function
// parameters, and the HelperFact it makes fn; nil when none does.
func (a *analyzer) helperSite(fn ast.Node, sig *types.Signature) (*Site, *HelperFact) {
	params := sig.Params()
	index := make(map[types.Object]int)
	for i := range params.Len() {
		if p := params.At(i); isFuncType(p.Type()) {
			index[p] = i
		}
	}
	if len(index) == 0 {
		return nil, nil
	}
	for _, s := range a.sites {
		if s.Pos < fn.Pos() || s.Pos >= fn.End() || s.Kind == HelperCall && s.Exempt != "" {
			continue
		}
		op := a.retriedParam(s, index)
		if op < 0 {
			continue
		}
		f := &HelperFact{Op: op, Budget: -1, Bound: s.Bound, Guard: s.Guard != nil, Exempt: s.Exempt != "", Backoff: s.Backoff}
		if s.Bound.Param != "" && (s.Bound.ParamIndex >= params.Len() || params.At(s.Bound.ParamIndex).Name() != s.Bound.Param) {
			f.Bound.Param = "" // a parameter of a function literal, not of the helper
		}
		if s.Guard != nil && s.Guard.Budget != nil {
			if i, ok := paramIndex(a, s.Guard.Budget, sig); ok {
				f.Budget = i
			}
		}
		return s, f
	}
	return nil, nil
}

// isFuncType reports whether t is a function type.
func isFuncType(t types.Type) bool {
	_, ok := t.Underlying().(*types.Signature)
	return ok
}

func hasFuncParam(fd *ast.FuncDecl) bool {
	return hasFuncParamList(fd.Type)
}

func hasFuncParamList(ft *ast.FuncType) bool {
	for _, f := range ft.Params.List {
		switch t := unparen(f.Type).(type) {
		case *ast.FuncType:
			return true
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr:
			_ = t
			return true // a named func type, e.g. Operation; checked by type later
		}
	}
	return false
}

// exportHelper exports a HelperFact for fd if one of its retry sites
// retries a call of a function parameter of fd.
func (a *analyzer) exportHelper(fd *ast.FuncDecl) bool {
	fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	s, f := a.helperSite(fd, fn.Type().(*types.Signature))
	if s == nil {
		return false
	}
	a.pass.ExportObjectFact(fn, f)
	a.helperFuncs[fn] = f
	s.Helper = f
	if a.helperSites == nil {
		a.helperSites = map[*types.Func]*Site{}
	}
	a.helperSites[fn] = s
	return true
}

// retriedParam returns the index of the function parameter whose call a
// site retries, or -1.
func (a *analyzer) retriedParam(s *Site, index map[types.Object]int) int {
	if s.Kind == Loop {
		for _, at := range s.Attempts {
			if i, ok := index[a.objOf(at.Call.Fun)]; ok {
				return i
			}
		}
		return -1
	}
	if s.Op == nil {
		return -1
	}
	if i, ok := index[a.objOf(s.Op)]; ok {
		return i
	}
	if s.Body != nil {
		found := -1
		ast.Inspect(s.Body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok && found < 0 {
				if i, ok := index[a.objOf(call.Fun)]; ok {
					found = i
				}
			}
			return found < 0
		})
		return found
	}
	return -1
}

// paramIndex returns the index of the parameter e names: a parameter, or
// the first element of a final variadic parameter (budgets[0]), the
// optional budget a call may leave out.
func paramIndex(a *analyzer, e ast.Expr, sig *types.Signature) (int, bool) {
	params := sig.Params()
	if ix, ok := unparen(e).(*ast.IndexExpr); ok && sig.Variadic() {
		if tv, ok := a.pass.TypesInfo.Types[ix.Index]; ok && tv.Value != nil && tv.Value.String() == "0" && a.objOf(ix.X) == params.At(params.Len()-1) {
			return params.Len() - 1, true
		}
		return 0, false
	}
	obj := a.objOf(e)
	for i := range params.Len() {
		if params.At(i) == obj {
			return i, true
		}
	}
	return 0, false
}

// findHelperCalls records the calls of retry helpers not yet seen; it
// reports whether it found any.
func (a *analyzer) findHelperCalls(seen map[*ast.CallExpr]bool) bool {
	if len(a.helperFuncs) == 0 && len(a.litHelpers) == 0 {
		return false
	}
	found := false
	for cur := range a.insp.Root().Preorder((*ast.CallExpr)(nil)) {
		call := cur.Node().(*ast.CallExpr)
		if len(call.Args) == 0 || seen[call] {
			continue
		}
		var f *HelperFact
		var hs *Site
		var name string
		if fn := a.callee(call); fn != nil {
			fn = fn.Origin()
			f, hs, name = a.helperFuncs[fn], a.helperSites[fn], fn.Name()
			if fn.Pkg() != nil && fn.Pkg() != a.pass.Pkg {
				name = fn.Pkg().Name() + "." + name
			}
		} else if id, ok := unparen(call.Fun).(*ast.Ident); ok {
			v := a.pass.TypesInfo.Uses[id]
			f, hs, name = a.litHelpers[v], a.litSites[v], id.Name
		}
		if f == nil || f.Op >= len(call.Args) {
			continue
		}
		if f.Poll {
			// A poll retries what its condition answers (false, nil)
			// for after a failure: if err != nil { return false, nil }.
			if lit := a.funcLitOf(call.Args[f.Op]); lit == nil || !a.retriesOnFailure(lit) {
				continue
			}
		}
		seen[call], found = true, true
		s := &Site{
			Kind:    HelperCall,
			Node:    call,
			Pos:     call.Pos(),
			Func:    astx.EnclosingFunc(cur),
			API:     name,
			Op:      call.Args[f.Op],
			Bound:   a.callBound(f.Bound, call),
			Backoff: f.Backoff,
			Helper:  f,
		}
		if f.Exempt {
			s.Exempt = "it retries only concurrency conflicts"
		}
		a.fillOp(s, s.Op)
		if hs != nil {
			hs.Calls = append(hs.Calls, s)
		}
		if f.Guard {
			g := &Guard{Kind: GuardHelper, Call: call, Desc: name}
			if f.Budget >= 0 && f.Budget < len(call.Args) {
				g.Budget = call.Args[f.Budget]
			}
			s.Guard = g
		}
		a.sites = append(a.sites, s)
	}
	return found
}

// callBound returns the bound of a call of a helper: the helper's, with
// the argument the call passes for its counting parameter (retry(3, f)
// makes 3 attempts; retry(n, f), n).
//
// A helper bounded only by the end of its context parameter is unbounded
// when called with context.Background() or context.TODO(), which never
// end; with another context it stays bounded by time.
func (a *analyzer) callBound(b Bound, call *ast.CallExpr) Bound {
	if b.Param == "" || b.ParamIndex >= len(call.Args) || call.Ellipsis.IsValid() {
		return b
	}
	arg := call.Args[b.ParamIndex]
	if b.Kind == BoundTime {
		if c, ok := ast.Unparen(arg).(*ast.CallExpr); ok {
			if fn := a.callee(c); fn != nil && typesx.PkgPath(fn) == "context" && (fn.Name() == "Background" || fn.Name() == "TODO") {
				return Bound{Kind: Unbounded, Note: "its context, context." + fn.Name() + "(), never ends"}
			}
		}
		b.Param, b.ParamIndex = "", 0 // the helper's parameter, not the caller's
		return b
	}
	if b.Kind != BoundCount {
		return b
	}
	if base, v := a.definer.Linear(arg); base == nil {
		return b.WithParam(v)
	}
	out := Bound{Kind: BoundCount, Base: a.render(arg), Offset: b.Offset, Note: b.Note}
	out.Expr = retryapi.AddOffset(out.Base, int64(b.Offset))
	return out
}

// exportPollHelper exports a HelperFact with Poll set for fd when it is a
// poll helper: it takes a condition (a function parameter answering
// (bool, error)) and calls it, directly or through a function it hands
// the condition to, in a loop that leaves when the answer's boolean holds
// and waits before going round. Its loop is no retry loop (its condition
// says when it is done, not that it failed); its calls are retry sites
// where their condition answers (false, nil) after a failure.
func (a *analyzer) exportPollHelper(fd *ast.FuncDecl) bool {
	fn, ok := a.pass.TypesInfo.Defs[fd.Name].(*types.Func)
	if !ok {
		return false
	}
	params := fn.Signature().Params()
	for i := range params.Len() {
		p := params.At(i)
		if !isCondition(p.Type()) {
			continue
		}
		var bound Bound
		found := false
		astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
			if found {
				return false
			}
			var body *ast.BlockStmt
			switch l := n.(type) {
			case *ast.ForStmt:
				body = l.Body
			case *ast.RangeStmt:
				body = l.Body
			default:
				return true
			}
			if a.pollsCondition(body, p) && len(a.definer.Waits(body)) > 0 {
				found, bound = true, a.pollBound(n)
			}
			return !found
		})
		if !found {
			continue
		}
		f := &HelperFact{Op: i, Budget: -1, Bound: bound, Backoff: Backoff{Delay: SomeDelay}, Poll: true}
		a.pass.ExportObjectFact(fn, f)
		a.helperFuncs[fn] = f
		return true
	}
	return false
}

// isCondition reports whether t is a function type whose results are a
// boolean and an error.
func isCondition(t types.Type) bool {
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Results().Len() != 2 {
		return false
	}
	b, ok := sig.Results().At(0).Type().Underlying().(*types.Basic)
	return ok && b.Kind() == types.Bool && typesx.IsError(sig.Results().At(1).Type())
}

// pollsCondition reports whether body calls the condition p (or a
// function it hands p to, with p's results) for its answer (ok, err), and
// leaves the loop on a test that holds when ok does: if ok { return nil },
// or err != nil || ok (if !ok { return } leaves when it is not done: no
// poll).
func (a *analyzer) pollsCondition(body *ast.BlockStmt, p *types.Var) bool {
	var done types.Object
	astx.InspectNoLit(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || done != nil || len(as.Lhs) != 2 || len(as.Rhs) != 1 {
			return done == nil
		}
		call, ok := unparen(as.Rhs[0]).(*ast.CallExpr)
		if !ok || !a.callsCondition(call, p) {
			return true
		}
		if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name != "_" {
			done = a.pass.TypesInfo.ObjectOf(id)
		}
		return done == nil
	})
	if done == nil {
		return false
	}
	leaves := false
	astx.InspectNoLit(body, func(n ast.Node) bool {
		ifs, ok := n.(*ast.IfStmt)
		if !ok || leaves {
			return !leaves
		}
		if a.holdsWhenDone(ifs.Cond, done) && len(ifs.Body.List) > 0 {
			switch st := ifs.Body.List[len(ifs.Body.List)-1].(type) {
			case *ast.ReturnStmt:
				leaves = true
			case *ast.BranchStmt:
				leaves = st.Tok == token.BREAK
			}
		}
		return !leaves
	})
	return leaves
}

// holdsWhenDone reports whether cond holds whenever done does: done
// itself, or a disjunction with done among its terms (err != nil || ok).
func (a *analyzer) holdsWhenDone(cond ast.Expr, done types.Object) bool {
	switch c := unparen(cond).(type) {
	case *ast.Ident:
		return a.pass.TypesInfo.Uses[c] == done
	case *ast.BinaryExpr:
		return c.Op == token.LOR && (a.holdsWhenDone(c.X, done) || a.holdsWhenDone(c.Y, done))
	}
	return false
}

// callsCondition reports whether call calls p, or a function of the
// package that takes p and answers as p does (runCondition(p)).
func (a *analyzer) callsCondition(call *ast.CallExpr, p *types.Var) bool {
	if a.objOf(call.Fun) == p {
		return true
	}
	fn := a.callee(call)
	if fn == nil || fn.Pkg() != a.pass.Pkg || !isCondition(fn.Type()) {
		return false
	}
	for _, x := range call.Args {
		if a.objOf(x) == p {
			return true
		}
	}
	return false
}

// pollBound is the bound of a poll helper's loop: its counted header's
// (for i := 0; i < steps; i++), else unknown.
func (a *analyzer) pollBound(loop ast.Node) Bound {
	fs, ok := loop.(*ast.ForStmt)
	if !ok {
		return Bound{Kind: BoundUnknown}
	}
	post, ok := fs.Post.(*ast.IncDecStmt)
	c, isBin := unparen(fs.Cond).(*ast.BinaryExpr)
	if !ok || !isBin || post.Tok != token.INC || a.objOf(post.X) != a.objOf(c.X) || c.Op != token.LSS && c.Op != token.LEQ {
		return Bound{Kind: BoundUnknown}
	}
	start := int64(0)
	if init, ok := fs.Init.(*ast.AssignStmt); ok && len(init.Rhs) == 1 {
		if k, ok := a.intConst(init.Rhs[0]); ok {
			start = k
		}
	}
	return a.definer.CountBound(c.Y, start, c.Op == token.LEQ)
}
