// Package durkind tells what a wait's duration depends on: constants and
// loop-invariant values (Fixed), the attempt (Growing), a random source
// (Random), or something it cannot see (Unknown); and where a retry loop
// waits. Functions of the package are summarised from their returns;
// functions of other packages are known through what the caller imports
// (the nojitter pass's facts). The retry-site analysis classifies a loop's
// backoff with it, and the nojitter pass judges jitter with it, so the two
// agree.
package durkind

import (
	"go/ast"
	"go/token"
	"go/types"

	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Kind is what a value depends on. Combining two values keeps the
// strongest: a random term anywhere makes the result Random; otherwise
// anything Unknown makes it Unknown; otherwise a value that changes with
// the attempt makes it Growing.
type Kind uint8

const (
	Fixed   Kind = iota // constants and values that do not change between attempts
	Growing             // a value that changes with the attempt, deterministically
	Unknown             // something the pass cannot follow (a value from the server, a call it cannot see)
	Random              // a random source contributes
)

// Join combines two kinds, keeping the strongest.
func Join(a, b Kind) Kind {
	rank := [...]int{Fixed: 0, Growing: 1, Unknown: 2, Random: 3}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// randomPkgs are the random sources.
var randomPkgs = map[string]bool{"math/rand": true, "math/rand/v2": true, "crypto/rand": true}

// assign is one value given to a variable.
type assign struct {
	rhs  ast.Expr    // the value; nil for x++ and for a zero declaration
	tok  token.Token // token.ASSIGN, token.DEFINE, an op-assign, token.INC/DEC; token.VAR for a declaration
	pos  token.Pos
	part bool // one result of a call with several (a, b := f())
	iter bool // the key or value of a range statement
	over ast.Expr
}

// Scope holds what one function assigns, for evaluating its locals.
type Scope struct {
	c       *Env
	fn      ast.Node // the *ast.FuncDecl (or top-level *ast.FuncLit) whose body is read
	loop    ast.Node // the retry loop whose iterations the values are judged across; nil in a summary
	vars    map[*types.Var][]assign
	fields  map[string][]assign // assignments to selector expressions, by their text
	escaped map[*types.Var]bool // variables whose address is taken
	params  map[*types.Var]bool // parameters and receivers of the function and of its literals
	memo    map[*types.Var]Kind
	busy    map[*types.Var]bool
	busyKey map[string]bool // fields being judged
	// shape, set by NewShapeScope, judges the growth of a value apart
	// from its jitter: a random term counts as what it is computed from.
	shape bool
}

// NewScope returns the scope of a function declaration or literal fn;
// loop, when not nil, is the retry loop across whose iterations values
// are judged.
func (c *Env) NewScope(fn, loop ast.Node) *Scope {
	return &Scope{c: c, fn: fn, loop: loop, memo: map[*types.Var]Kind{}, busy: map[*types.Var]bool{}, busyKey: map[string]bool{}}
}

// read collects what the function assigns, on first need: most values
// (constants, calls) need none of it.
func (s *Scope) read() {
	if s.vars != nil {
		return
	}
	s.vars, s.fields = map[*types.Var][]assign{}, map[string][]assign{}
	s.escaped, s.params = map[*types.Var]bool{}, map[*types.Var]bool{}
	c, fn := s.c, s.fn
	info := c.info
	fields := func(fl *ast.FieldList, results bool) {
		if fl == nil {
			return
		}
		for _, f := range fl.List {
			for _, n := range f.Names {
				if v, ok := info.Defs[n].(*types.Var); ok {
					if results {
						s.vars[v] = append(s.vars[v], assign{tok: token.VAR, pos: n.Pos()})
					} else {
						s.params[v] = true
					}
				}
			}
		}
	}
	switch fn := fn.(type) {
	case *ast.FuncDecl:
		fields(fn.Recv, false)
		fields(fn.Type.Params, false)
		fields(fn.Type.Results, true)
	case *ast.FuncLit:
		fields(fn.Type.Params, false)
		fields(fn.Type.Results, true)
	}
	add := func(lhs ast.Expr, a assign) {
		lhs = ast.Unparen(lhs)
		switch l := lhs.(type) {
		case *ast.Ident:
			if v, ok := info.ObjectOf(l).(*types.Var); ok {
				s.vars[v] = append(s.vars[v], a)
			}
		case *ast.SelectorExpr:
			k := types.ExprString(l)
			s.fields[k] = append(s.fields[k], a)
		}
	}
	ast.Inspect(astx.FuncBody(fn), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			fields(n.Type.Params, false)
			fields(n.Type.Results, true)
		case *ast.AssignStmt:
			if len(n.Lhs) == len(n.Rhs) {
				for i, l := range n.Lhs {
					add(l, assign{rhs: n.Rhs[i], tok: n.Tok, pos: n.Pos()})
				}
			} else if len(n.Rhs) == 1 {
				for _, l := range n.Lhs {
					add(l, assign{rhs: n.Rhs[0], tok: n.Tok, pos: n.Pos(), part: true})
				}
			}
		case *ast.IncDecStmt:
			add(n.X, assign{tok: n.Tok, pos: n.Pos()})
		case *ast.ValueSpec:
			for i, name := range n.Names {
				switch {
				case len(n.Values) == len(n.Names):
					add(name, assign{rhs: n.Values[i], tok: token.DEFINE, pos: n.Pos()})
				case len(n.Values) == 1:
					add(name, assign{rhs: n.Values[0], tok: token.DEFINE, pos: n.Pos(), part: true})
				default:
					add(name, assign{tok: token.VAR, pos: n.Pos()})
				}
			}
		case *ast.RangeStmt:
			if n.Key != nil {
				add(n.Key, assign{tok: token.DEFINE, pos: n.Pos(), iter: true, over: n.X})
			}
			if n.Value != nil {
				add(n.Value, assign{tok: token.DEFINE, pos: n.Pos(), iter: true, over: n.X})
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id, ok := ast.Unparen(n.X).(*ast.Ident); ok {
					if v, ok := info.ObjectOf(id).(*types.Var); ok {
						s.escaped[v] = true
					}
				}
			}
		}
		return true
	})
}

// inLoop reports whether pos lies in the retry loop (its header included).
func (s *Scope) inLoop(pos token.Pos) bool {
	return s.loop != nil && s.loop.Pos() <= pos && pos < s.loop.End()
}

// NewShapeScope is NewScope for judging how a wait changes between
// attempts whatever its jitter: a random source counts as its arguments
// (base + rand.N(base) is Fixed), and a method of the package on a
// pointer, which may keep state between calls (a policy's Next), is
// Unknown.
func (c *Env) NewShapeScope(fn, loop ast.Node) *Scope {
	s := c.NewScope(fn, loop)
	s.shape = true
	return s
}

// Of returns what the value of x depends on.
func (s *Scope) Of(x ast.Expr) Kind {
	info := s.c.info
	if tv, ok := info.Types[x]; ok && tv.Value != nil {
		return Fixed
	}
	switch x := x.(type) {
	case *ast.ParenExpr:
		return s.Of(x.X)
	case *ast.Ident:
		switch obj := info.Uses[x].(type) {
		case *types.Const:
			return Fixed
		case *types.Var:
			return s.varKind(obj)
		case *types.Nil:
			return Fixed
		}
		return Unknown
	case *ast.SelectorExpr:
		return s.selector(x)
	case *ast.BinaryExpr:
		return Join(s.Of(x.X), s.Of(x.Y))
	case *ast.UnaryExpr:
		if x.Op == token.ARROW || x.Op == token.AND {
			return Unknown
		}
		return s.Of(x.X)
	case *ast.IndexExpr:
		return Join(s.Of(x.X), s.Of(x.Index))
	case *ast.SliceExpr:
		return s.Of(x.X)
	case *ast.CompositeLit:
		k := Fixed
		for _, e := range x.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			k = Join(k, s.Of(e))
		}
		return k
	case *ast.CallExpr:
		return s.call(x)
	}
	return Unknown
}

// varKind says what a variable depends on: a parameter or a package
// variable is Fixed (an input of the call, a setting); a local, what it is
// assigned, Growing when the retry loop changes it from its own value.
func (s *Scope) varKind(v *types.Var) Kind {
	if k, ok := s.memo[v]; ok {
		return k
	}
	if s.busy[v] {
		return Fixed // its own value: judged by the assignment that reads it
	}
	s.read()
	list, local := s.vars[v]
	if !local {
		if v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || s.params[v] {
			return Fixed
		}
		return Unknown // a variable of an enclosing function the scope does not read
	}
	if s.escaped[v] {
		return Unknown
	}
	s.busy[v] = true
	k := Fixed
	for _, a := range list {
		k = Join(k, s.assigned(v, a))
	}
	delete(s.busy, v)
	s.memo[v] = k
	return k
}

// assigned says what one assignment gives a variable.
func (s *Scope) assigned(v *types.Var, a assign) Kind {
	var k Kind
	switch {
	case a.iter:
		k = s.Of(a.over)
		if s.inLoop(a.pos) {
			k = Join(k, Growing) // a range in the retry loop: a new value each time round
		}
		return k
	case a.tok == token.VAR:
		return Fixed
	case a.rhs == nil: // x++, x--
		if s.inLoop(a.pos) {
			return Growing
		}
		return Fixed
	case a.part:
		k = s.multi(a.rhs)
	default:
		k = s.Of(a.rhs)
	}
	if s.inLoop(a.pos) && (a.tok != token.ASSIGN && a.tok != token.DEFINE || typesx.Refers(s.c.info, a.rhs, v)) {
		k = Join(k, Growing) // d *= 2, d = next(d)
	}
	return k
}

// multi says what one result of a call with several results depends on:
// Random when the call is a random source, else Unknown.
func (s *Scope) multi(x ast.Expr) Kind {
	if call, ok := ast.Unparen(x).(*ast.CallExpr); ok {
		if fn := s.c.callee(call); fn != nil && randomPkgs[typesx.PkgPath(fn)] {
			if s.shape {
				return Fixed
			}
			return Random
		}
	}
	return Unknown
}

// selector says what x.f depends on: a qualified constant or variable is
// Fixed; a field is a setting of the value it belongs to (Fixed), unless
// the function assigns it, or its value is remade between attempts (the
// attempt's response).
func (s *Scope) selector(x *ast.SelectorExpr) Kind {
	info := s.c.info
	if id, ok := x.X.(*ast.Ident); ok {
		if _, ok := info.Uses[id].(*types.PkgName); ok {
			switch info.Uses[x.Sel].(type) {
			case *types.Const, *types.Var:
				return Fixed
			}
			return Unknown
		}
	}
	sel, ok := info.Selections[x]
	if !ok || sel.Kind() != types.FieldVal {
		return Unknown
	}
	k := Fixed
	key := types.ExprString(x)
	s.read()
	if list, ok := s.fields[key]; ok && !s.busyKey[key] {
		s.busyKey[key] = true
		defer delete(s.busyKey, key)
		for _, a := range list {
			ak := Unknown
			switch {
			case a.rhs == nil:
				ak = Fixed
				if s.inLoop(a.pos) {
					ak = Growing
				}
			case a.part:
				ak = s.multi(a.rhs)
			default:
				ak = s.Of(a.rhs)
				if s.inLoop(a.pos) && (a.tok != token.ASSIGN || mentionsText(a.rhs, key)) {
					ak = Join(ak, Growing)
				}
			}
			k = Join(k, ak)
		}
	}
	// The value the field belongs to: remade in the loop, its fields are
	// what the remaking gave.
	if base := rootVar(info, x.X); base != nil {
		for _, a := range s.vars[base] {
			if s.inLoop(a.pos) {
				k = Join(k, s.varKind(base))
				break
			}
		}
	} else if _, ok := ast.Unparen(x.X).(*ast.CallExpr); ok {
		k = Join(k, s.Of(x.X))
	}
	return k
}

// rootVar returns the variable at the root of a selector chain (r in
// r.cfg.Delay), or nil.
func rootVar(info *types.Info, x ast.Expr) *types.Var {
	for {
		switch e := ast.Unparen(x).(type) {
		case *ast.Ident:
			v, _ := info.Uses[e].(*types.Var)
			return v
		case *ast.SelectorExpr:
			x = e.X
		case *ast.StarExpr:
			x = e.X
		default:
			return nil
		}
	}
}

// call says what a call's result depends on.
func (s *Scope) call(call *ast.CallExpr) Kind {
	info := s.c.info
	args := func(k Kind) Kind {
		for _, a := range call.Args {
			k = Join(k, s.Of(a))
		}
		return k
	}
	if tv, ok := info.Types[call.Fun]; ok && tv.IsType() {
		return args(Fixed) // a conversion
	}
	switch fn := typeutil.Callee(info, call).(type) {
	case *types.Builtin:
		switch fn.Name() {
		case "min", "max", "len", "cap", "real", "imag", "complex":
			return args(Fixed)
		}
		return Unknown
	case *types.Func:
		path := typesx.PkgPath(fn)
		switch {
		case randomPkgs[path] && s.shape:
			return args(Fixed)
		case randomPkgs[path]:
			return Random
		case path == "math":
			return args(Fixed)
		case path == "time" && typesx.RecvName(fn) == "Duration":
			k := args(Fixed)
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok {
				k = Join(k, s.Of(sel.X))
			}
			return k
		}
		if s.c.values != nil && s.loop != nil && fn.Pkg() != s.c.pkg {
			if shape, jitter, ok := s.c.values(call); ok {
				if jitter && !s.shape {
					return Random
				}
				return shape
			}
		}
		sum := s.c.Summary(fn)
		if s.shape && sum != Unknown {
			if r := fn.Signature().Recv(); r != nil && fn.Pkg() == s.c.pkg {
				if _, ptr := types.Unalias(r.Type()).(*types.Pointer); ptr {
					return Unknown
				}
			}
			sum = Fixed
		}
		switch sum {
		case Random:
			return Random
		case Fixed:
			k := args(Fixed)
			if sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr); ok && fn.Signature().Recv() != nil {
				if _, isPkg := info.Uses[identOf(sel.X)].(*types.PkgName); !isPkg {
					k = Join(k, s.Of(sel.X))
				}
			}
			return k
		}
	}
	return Unknown
}

func identOf(x ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(x).(*ast.Ident)
	return id
}

// Summary says what a function's result depends on beyond its arguments
// and receiver: Fixed when it is computed from them deterministically,
// Random when a random source contributes, Unknown otherwise. Functions of
// other packages are known through the import function of the Env.
func (c *Env) Summary(fn *types.Func) Kind {
	fn = fn.Origin()
	if k, ok := c.summaries[fn]; ok {
		return k
	}
	fd := c.decls[fn]
	if fd == nil {
		if fn.Pkg() != c.pkg && c.imported != nil {
			if k, ok := c.imported(fn); ok {
				return k
			}
		}
		return Unknown
	}
	c.summaries[fn] = Fixed // a recursive call: judged by the other returns
	k := c.summarise(fd)
	c.summaries[fn] = k
	return k
}

func (c *Env) summarise(fd *ast.FuncDecl) Kind {
	res := fd.Type.Results
	if res == nil || res.NumFields() != 1 {
		return Unknown
	}
	s := c.NewScope(fd, nil)
	var named *types.Var
	if len(res.List[0].Names) == 1 {
		named, _ = c.info.Defs[res.List[0].Names[0]].(*types.Var)
	}
	k := Fixed
	n := 0
	astx.InspectNoLit(fd.Body, func(x ast.Node) bool {
		ret, ok := x.(*ast.ReturnStmt)
		if !ok {
			return true
		}
		n++
		switch {
		case len(ret.Results) == 1:
			k = Join(k, s.Of(ret.Results[0]))
		case len(ret.Results) == 0 && named != nil:
			k = Join(k, s.varKind(named))
		default:
			k = Unknown
		}
		return true
	})
	if n == 0 {
		return Unknown
	}
	if k == Growing {
		k = Fixed // deterministic in its inputs
	}
	return k
}

// mentionsText reports whether x contains a selector spelled key.
func mentionsText(x ast.Expr, key string) bool {
	found := false
	ast.Inspect(x, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && types.ExprString(sel) == key {
			found = true
		}
		return !found
	})
	return found
}

// ConstDuration returns the constant value of x as a duration, if it is
// one.
func (c *Env) ConstDuration(x ast.Expr) (int64, bool) { return typesx.IntConst(c.info, x) }

// TickerPeriod returns the period a ticker variable was made with (the d
// of its only assignment t := time.NewTicker(d)), or nil.
func (s *Scope) TickerPeriod(x ast.Expr) ast.Expr {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := s.c.info.Uses[id].(*types.Var)
	s.read()
	if !ok || len(s.vars[v]) != 1 || s.escaped[v] {
		return nil
	}
	a := s.vars[v][0]
	call, ok := ast.Unparen(a.rhs).(*ast.CallExpr)
	if !ok || a.part || len(call.Args) != 1 || !typesx.IsFunc(s.c.callee(call), "time", "NewTicker") {
		return nil
	}
	return call.Args[0]
}
