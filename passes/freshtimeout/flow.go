package freshtimeout

// This file answers control-flow questions about one function, on its
// go/cfg graph, built only for the functions that hold a call being
// judged: whether every path to a node passes an event (a context known
// to be done), and which assignments of a variable reach a node. Calls
// that do not return cut their paths: panic, and calls of functions of
// this package whose own graph never returns (os.Exit or log.Fatal,
// declared elsewhere, are not known).

import (
	"go/ast"
	"go/token"
	"go/types"
	"sort"

	"github.com/retrylint/retrylint/internal/astx"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
	"golang.org/x/tools/go/cfg"
)

// A flow is the control-flow graph of one function body, indexed for
// the questions below.
type flow struct {
	g     *cfg.CFG
	preds [][]*cfg.Block // by block index, live predecessors only
	nodes []flowNode     // every node of every live block, by position

	// caseSwitch maps each case expression of an expression switch in
	// the body to its switch; caseBody maps each comm clause of a select
	// to the block of its body.
	caseSwitch map[ast.Expr]*ast.SwitchStmt
	caseBody   map[*ast.CommClause]*cfg.Block
	comms      map[ast.Stmt]bool // the comm statements of select clauses
}

type flowNode struct {
	pos, end token.Pos
	at       loc
}

// A loc is the position of a node in a graph: the i-th node of block b.
type loc struct {
	b *cfg.Block
	i int
}

// flowOf returns the flow of the function fn (an *ast.FuncDecl or
// *ast.FuncLit), or nil if it has no body.
func (c *checker) flowOf(fn ast.Node) *flow {
	if f, ok := c.flows[fn]; ok {
		return f
	}
	var body *ast.BlockStmt
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		body = fn.Body
	case *ast.FuncLit:
		body = fn.Body
	}
	var f *flow
	if body != nil {
		f = newFlow(cfg.New(body, c.noret.MayReturn), body)
	}
	c.flows[fn] = f
	return f
}

func newFlow(g *cfg.CFG, body *ast.BlockStmt) *flow {
	f := &flow{
		g:          g,
		preds:      make([][]*cfg.Block, len(g.Blocks)),
		caseSwitch: map[ast.Expr]*ast.SwitchStmt{},
		caseBody:   map[*ast.CommClause]*cfg.Block{},
		comms:      map[ast.Stmt]bool{},
	}
	for _, b := range g.Blocks {
		if !b.Live {
			continue
		}
		for _, s := range b.Succs {
			f.preds[s.Index] = append(f.preds[s.Index], b)
		}
		for i, n := range b.Nodes {
			if n.Pos().IsValid() && n.Pos() < body.Rbrace {
				f.nodes = append(f.nodes, flowNode{pos: n.Pos(), end: n.End(), at: loc{b, i}})
			}
		}
		if cc, ok := b.Stmt.(*ast.CommClause); ok && b.Kind == cfg.KindSelectCaseBody {
			f.caseBody[cc] = b
		}
	}
	sort.SliceStable(f.nodes, func(i, j int) bool { return f.nodes[i].pos < f.nodes[j].pos })
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // its own graph
		case *ast.SwitchStmt:
			for _, s := range n.Body.List {
				if cc, ok := s.(*ast.CaseClause); ok {
					for _, e := range cc.List {
						f.caseSwitch[e] = n
					}
				}
			}
		case *ast.CommClause:
			if n.Comm != nil {
				f.comms[n.Comm] = true
			}
		}
		return true
	})
	return f
}

// locate returns the location of the innermost node of the graph that
// holds pos.
func (f *flow) locate(pos token.Pos) (loc, bool) {
	i := sort.Search(len(f.nodes), func(i int) bool { return f.nodes[i].pos > pos })
	for i--; i >= 0; i-- {
		if n := f.nodes[i]; n.pos <= pos && pos < n.end {
			return n.at, true
		}
	}
	return loc{}, false
}

// A pathEvents describes the events that the all-paths search looks for.
type pathEvents struct {
	// node reports whether the node at l is an event.
	node func(n ast.Node, l loc) bool
	// edge reports whether taking the edge from p to s is an event.
	edge func(p, s *cfg.Block) bool
	// block reports whether every path into b counts as passing an
	// event (nil: none does).
	block func(b *cfg.Block) bool
}

// everyPath reports whether every path from the function's entry to the
// location l passes an event. Paths that cannot be taken (from dead code)
// count as passing one.
func (f *flow) everyPath(l loc, ev pathEvents) bool {
	type item struct {
		b *cfg.Block
		n int // scan Nodes[:n], last first
	}
	seen := make([]bool, len(f.g.Blocks))
	stack := []item{{l.b, l.i}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		hit := false
		for k := it.n - 1; k >= 0 && !hit; k-- {
			hit = ev.node(it.b.Nodes[k], loc{it.b, k})
		}
		if hit {
			continue
		}
		if it.b.Index == 0 {
			return false // the entry, with no event on the way
		}
		if ev.block != nil && ev.block(it.b) {
			continue
		}
		for _, p := range f.preds[it.b.Index] {
			if ev.edge(p, it.b) || seen[p.Index] {
				continue
			}
			seen[p.Index] = true
			stack = append(stack, item{p, len(p.Nodes)})
		}
	}
	return true
}

// reachesFrom reports whether the block to can be reached from the block
// from.
func (f *flow) reachesFrom(from, to *cfg.Block) bool {
	seen := make([]bool, len(f.g.Blocks))
	stack := []*cfg.Block{from}
	for len(stack) > 0 {
		b := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if b == to {
			return true
		}
		for _, s := range b.Succs {
			if !seen[s.Index] {
				seen[s.Index] = true
				stack = append(stack, s)
			}
		}
	}
	return false
}

// A def is one assignment of a variable: the value stored (for a tuple
// assignment from one call, the call and the index of the result), or
// none when the value cannot be told (a range clause, a ++, an op=), or
// the value the function was called with (a parameter reaching the
// entry).
type def struct {
	rhs   ast.Expr
	idx   int  // for a tuple assignment: which result of rhs
	tuple bool // rhs is a call with several results
	param bool // the parameter's value on entry
	zero  bool // a var declaration without a value
}

// reachingDefs returns the assignments of v that reach the location l:
// for every path from the entry to l, the last one on it. ok is false
// when they cannot be told: v is assigned in a function literal or its
// address is taken, or v is not declared in this function and not one of
// its parameters (params lists them).
func (c *checker) reachingDefs(f *flow, l loc, v *types.Var, params *ast.FieldList) ([]def, bool) {
	if !c.stable(v) {
		return nil, false
	}
	type item struct {
		b *cfg.Block
		n int
	}
	var defs []def
	seen := make([]bool, len(f.g.Blocks))
	stack := []item{{l.b, l.i}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		found := false
		for k := it.n - 1; k >= 0 && !found; k-- {
			var d def
			if d, found = c.defIn(it.b.Nodes[k], v); found {
				defs = append(defs, d)
			}
		}
		if found {
			continue
		}
		if it.b.Index == 0 {
			if !isParamOf(c.pass.TypesInfo, v, params) {
				return nil, false
			}
			defs = append(defs, def{param: true})
			continue
		}
		for _, p := range f.preds[it.b.Index] {
			if !seen[p.Index] {
				seen[p.Index] = true
				stack = append(stack, item{p, len(p.Nodes)})
			}
		}
		if len(defs) > 64 {
			return nil, false
		}
	}
	return defs, true
}

// isParamOf reports whether v is declared by the field list params.
func isParamOf(info *types.Info, v *types.Var, params *ast.FieldList) bool {
	if params == nil {
		return false
	}
	for _, field := range params.List {
		for _, n := range field.Names {
			if info.Defs[n] == v {
				return true
			}
		}
	}
	return false
}

// defIn reports whether the graph node n assigns v, and how.
func (c *checker) defIn(n ast.Node, v *types.Var) (def, bool) {
	info := c.pass.TypesInfo
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && info.ObjectOf(id) == v
	}
	switch n := n.(type) {
	case *ast.AssignStmt:
		for i, l := range n.Lhs {
			if !is(l) {
				continue
			}
			switch {
			case n.Tok != token.ASSIGN && n.Tok != token.DEFINE:
				return def{}, true
			case len(n.Lhs) == len(n.Rhs):
				return def{rhs: n.Rhs[i]}, true
			case len(n.Rhs) == 1:
				return def{rhs: n.Rhs[0], idx: i, tuple: true}, true
			}
			return def{}, true
		}
	case *ast.ValueSpec:
		for i, name := range n.Names {
			if info.Defs[name] != v {
				continue
			}
			switch {
			case len(n.Values) == 0:
				return def{zero: true}, true
			case len(n.Values) == len(n.Names):
				return def{rhs: n.Values[i]}, true
			case len(n.Values) == 1:
				return def{rhs: n.Values[0], idx: i, tuple: true}, true
			}
			return def{}, true
		}
	case *ast.IncDecStmt:
		if is(n.X) {
			return def{}, true
		}
	case *ast.Ident:
		// A range key or value, or the variable of a select case.
		if info.ObjectOf(n) == v {
			return def{}, true
		}
	}
	return def{}, false
}

// stable reports whether every assignment of the local variable v is a
// statement of the function that declares it, so that its graph shows
// them all: v's address is never taken and no function literal assigns
// it.
func (c *checker) stable(v *types.Var) bool {
	if s, ok := c.stableVars[v]; ok {
		return s
	}
	s := c.computeStable(v)
	c.stableVars[v] = s
	return s
}

func (c *checker) computeStable(v *types.Var) bool {
	if v.Pkg() != c.pass.Pkg || v.IsField() || v.Parent() == nil || v.Parent() == c.pass.Pkg.Scope() {
		return false
	}
	decl, ok := c.insp.Root().FindByPos(v.Pos(), v.Pos())
	if !ok {
		return false
	}
	var home inspector.Cursor // the function that declares v
	for fc := range decl.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
		home = fc
		break
	}
	if !home.Valid() {
		return false
	}
	info := c.pass.TypesInfo
	for cur := range home.Preorder((*ast.Ident)(nil)) {
		if info.Uses[cur.Node().(*ast.Ident)] != v {
			continue
		}
		p := cur
		for p.ParentEdgeKind() == edge.ParenExpr_X {
			p = p.Parent()
		}
		if u, ok := p.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			return false
		}
		switch p.ParentEdgeKind() {
		case edge.AssignStmt_Lhs, edge.IncDecStmt_X, edge.RangeStmt_Key, edge.RangeStmt_Value:
			for fc := range cur.Enclosing((*ast.FuncDecl)(nil), (*ast.FuncLit)(nil)) {
				if fc != home {
					return false
				}
				break
			}
		}
	}
	return true
}

// funcParams returns the parameter list of the function fn.
func funcParams(fn ast.Node) *ast.FieldList {
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		return fn.Type.Params
	case *ast.FuncLit:
		return fn.Type.Params
	}
	return nil
}

// defsAt returns the assignments of v that reach the expression at cur,
// within the function around it.
func (c *checker) defsAt(cur inspector.Cursor, v *types.Var) ([]def, bool) {
	fc := astx.EnclosingFuncCursor(cur)
	if !fc.Valid() {
		return nil, false
	}
	f := c.flowOf(fc.Node())
	if f == nil {
		return nil, false
	}
	l, ok := f.locate(cur.Node().Pos())
	if !ok {
		return nil, false
	}
	return c.reachingDefs(f, l, v, funcParams(fc.Node()))
}
