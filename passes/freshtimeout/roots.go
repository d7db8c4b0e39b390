package freshtimeout

// This file decides whether the parent of a timeout is a fresh root:
// context.Background() or context.TODO(), written at the call or wrapped
// there by context.WithValue, WithCancel, WithCancelCause or
// WithoutCancel (none of which adds a deadline); a local variable, or an
// unexported package variable, that only ever holds one; or a context
// parameter (the inherited one, typically) that every path to the call
// last reassigned to one.

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"
)

// A root describes a fresh root context that a call uses as its parent.
type root struct {
	name string   // "context.Background", "context.TODO", or both joined by "or"
	set  rootSet  // the same, as a set
	arg  ast.Expr // the argument at the call
	// edit is the expression a fix replaces with the inherited context:
	// the argument, or the root call inside the wrappers written at the
	// call; nil when no fix is offered.
	edit ast.Expr
	wrap string // the outermost wrapper written at the call, or ""

	variable   *types.Var // the variable the root came through, or nil
	pkgVar     bool       // variable is a package variable
	reassigned bool       // variable is a parameter, reassigned to a root
	stores     []ast.Expr // for a parameter judged by the paths to the call: the roots stored

	// For a local variable that only ever holds a root: its declaring
	// identifier, the statement that declares it when that statement
	// could be deleted (a lone "v := root()" or "var v = root()"), how
	// many times it is read, and how many of those reads are the parent
	// argument of a context.With… timeout call (which fixes may replace).
	declIdent *ast.Ident
	declStmt  ast.Stmt
	reads     int
	argReads  int
}

// The fresh roots, as a set.
type rootSet uint8

const (
	rootBackground rootSet = 1 << iota
	rootTODO
)

func (s rootSet) String() string {
	switch s {
	case rootBackground | rootTODO:
		return "context.Background or context.TODO"
	case rootTODO:
		return "context.TODO"
	}
	return "context.Background"
}

// maxRootDepth bounds how many variables and wrappers the search for a
// root follows.
const maxRootDepth = 6

// rootCall returns the root that e calls, if it is context.Background()
// or context.TODO().
func (c *checker) rootCall(e ast.Expr) (rootSet, bool) {
	name, ok := isRootCall(c.pass.TypesInfo, e)
	if !ok {
		return 0, false
	}
	if name == "context.TODO" {
		return rootTODO, true
	}
	return rootBackground, true
}

// wrapper returns the context function that the call e is if it wraps
// its first argument without adding a deadline, or nil.
func (c *checker) wrapper(e ast.Expr) (*ast.CallExpr, *types.Func) {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil, nil
	}
	fn := contextFunc(c.pass.TypesInfo, call)
	if fn == nil || !wrapperFuncs[fn.Name()] {
		return nil, nil
	}
	return call, fn
}

// rootOf returns the fresh root that the argument at cur is, or nil.
func (c *checker) rootOf(cur inspector.Cursor) *root {
	arg := cur.Node().(ast.Expr)
	// Written at the call, possibly inside wrappers.
	wrap := ""
	e := ast.Unparen(arg)
	for {
		if s, ok := c.rootCall(e); ok {
			return &root{name: s.String(), set: s, arg: arg, edit: e, wrap: wrap}
		}
		call, fn := c.wrapper(e)
		if call == nil {
			break
		}
		if wrap == "" {
			wrap = "context." + fn.Name()
		}
		e = ast.Unparen(call.Args[0])
	}
	if wrap != "" {
		// A wrapper around a variable that holds a root: no fix, which
		// would have to change the variable.
		if s, ok := c.rootNames(arg, 0); ok {
			return &root{name: s.String(), set: s, arg: arg, wrap: wrap}
		}
		return nil
	}

	id, ok := e.(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() != c.pass.Pkg || v.Parent() == nil {
		return nil
	}
	if v.Parent() == c.pass.Pkg.Scope() {
		pr := c.pkgRoot(v)
		if pr == nil {
			return nil
		}
		return &root{name: pr.name, set: pr.set, arg: arg, edit: arg, variable: v, pkgVar: true, declIdent: pr.declIdent}
	}
	if rt := c.varRoot(c.decl, v, arg, 0); rt != nil {
		return rt
	}
	// A parameter reassigned: judged by the paths to the call, on every
	// one of which the last assignment stored a root.
	fc := astx.EnclosingFuncCursor(cur)
	if !fc.Valid() || !isParamOf(c.pass.TypesInfo, v, funcParams(fc.Node())) || !c.assigned(fc, v) {
		return nil
	}
	defs, ok := c.defsAt(cur, v)
	if !ok || len(defs) == 0 {
		return nil
	}
	var set rootSet
	rt := &root{arg: arg, variable: v, reassigned: true}
	for _, d := range defs {
		s, ok := c.rootDef(d, 0)
		if !ok {
			return nil
		}
		set |= s
		rt.stores = append(rt.stores, d.rhs)
	}
	rt.name, rt.set = set.String(), set
	return rt
}

// rootDef reports whether the assignment d stores a fresh root.
func (c *checker) rootDef(d def, depth int) (rootSet, bool) {
	if d.rhs == nil || d.param {
		return 0, false
	}
	if d.tuple {
		// ctx, cancel := context.WithCancel(context.Background())
		call, _ := c.wrapper(d.rhs)
		if call == nil || d.idx != 0 {
			return 0, false
		}
		return c.rootNames(call.Args[0], depth+1)
	}
	return c.rootNames(d.rhs, depth)
}

// rootNames reports whether the expression e is a fresh root: a root
// call, a wrapper of one, or a variable that only ever holds one.
func (c *checker) rootNames(e ast.Expr, depth int) (rootSet, bool) {
	if depth > maxRootDepth {
		return 0, false
	}
	e = ast.Unparen(e)
	if s, ok := c.rootCall(e); ok {
		return s, true
	}
	if call, _ := c.wrapper(e); call != nil {
		return c.rootNames(call.Args[0], depth+1)
	}
	id, ok := e.(*ast.Ident)
	if !ok {
		return 0, false
	}
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() != c.pass.Pkg || v.Parent() == nil {
		return 0, false
	}
	var rt *root
	if v.Parent() == c.pass.Pkg.Scope() {
		rt = c.pkgRoot(v)
	} else if c.decl.Valid() {
		rt = c.varRoot(c.decl, v, nil, depth+1)
	}
	if rt == nil {
		return 0, false
	}
	return rt.set, true
}

// pkgRoot returns, for an unexported package variable that only ever
// holds a fresh root (every assignment in the package stores one), its
// root; or nil. An exported variable may be set by other packages.
func (c *checker) pkgRoot(v *types.Var) *root {
	if rt, ok := c.pkgRoots[v]; ok {
		return rt
	}
	c.pkgRoots[v] = nil // while computing, and for cycles
	var rt *root
	if !v.Exported() {
		rt = c.varRoot(c.insp.Root(), v, nil, 1)
	}
	c.pkgRoots[v] = rt
	return rt
}

// varRoot decides whether every value ever stored in the variable v
// (every definition, assignment and use of it within decl) is a fresh
// root. arg is the argument of the call being judged, nil when v is
// followed from another variable.
func (c *checker) varRoot(decl inspector.Cursor, v *types.Var, arg ast.Expr, depth int) *root {
	if depth > maxRootDepth {
		return nil
	}
	info := c.pass.TypesInfo
	var set rootSet
	rt := &root{arg: arg, edit: arg, variable: v}
	direct := true // every store is a root call: fixes may delete the declaration
	stores := 0    // definitions and assignments
	reads := 0
	argReads := 0
	store := func(cur inspector.Cursor) bool {
		rhs, tuple, stmt, ok := storedValue(cur)
		if !ok {
			return false
		}
		stores++
		if rhs == nil {
			return true // var v context.Context
		}
		if s, ok := c.rootCall(rhs); ok && tuple < 0 {
			set |= s
			rt.declStmt = stmt
			return true
		}
		direct = false
		s, ok := c.rootDef(def{rhs: rhs, idx: tuple, tuple: tuple >= 0}, depth)
		set |= s
		return ok
	}
	for cur := range decl.Preorder((*ast.Ident)(nil)) {
		id := cur.Node().(*ast.Ident)
		if info.Defs[id] == v {
			if !store(cur) {
				return nil
			}
			rt.declIdent = id
			continue
		}
		if info.Uses[id] != v {
			continue
		}
		if kind, _ := cur.ParentEdge(); kind == edge.AssignStmt_Lhs {
			if !store(cur) {
				return nil
			}
			continue
		}
		// A read. The address of v, an ++ or a range variable lets
		// anything be stored in it.
		p := cur
		for p.ParentEdgeKind() == edge.ParenExpr_X {
			p = p.Parent()
		}
		if u, ok := p.Parent().Node().(*ast.UnaryExpr); ok && u.Op == token.AND {
			return nil
		}
		switch kind, _ := cur.ParentEdge(); kind {
		case edge.RangeStmt_Key, edge.RangeStmt_Value, edge.IncDecStmt_X:
			return nil
		}
		reads++
		if kind, idx := cur.ParentEdge(); kind == edge.CallExpr_Args && idx == 0 {
			if fn := contextFunc(info, cur.Parent().Node().(*ast.CallExpr)); fn != nil && timeoutFuncs[fn.Name()] != "" {
				argReads++
			}
		}
	}
	if set == 0 || rt.declIdent == nil {
		return nil
	}
	rt.name, rt.set = set.String(), set
	rt.reads, rt.argReads = reads, argReads
	if stores != 1 || !direct {
		rt.declStmt = nil
	}
	if !direct {
		rt.edit = nil // the variable's value is not a root call: a fix would change what it means
	}
	return rt
}

// assigned reports whether the function fc assigns the variable v.
func (c *checker) assigned(fc inspector.Cursor, v *types.Var) bool {
	for cur := range fc.Preorder((*ast.Ident)(nil)) {
		if c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)] == v && cur.ParentEdgeKind() == edge.AssignStmt_Lhs {
			return true
		}
	}
	return false
}
