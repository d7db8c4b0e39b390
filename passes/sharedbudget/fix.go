package sharedbudget

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/srcpos"
)

// splitFix splits a shared budget into one budget per dependency, named
// after it, with the same initialiser, and points each use at its own.
// It is offered only when every use of the budget is in one file of the
// package and belongs to one dependency: a use inside a guarded site
// belongs to that site's dependency, another use (a deposit before the
// loop) to the one dependency whose sites its function holds.
func (c *checker) splitFix(sh *shared, deps []retrysite.Dep) *analysis.SuggestedFix {
	for _, u := range sh.uses {
		if u.dep.Key == "" || u.via != nil {
			return nil // one expression serves several dependencies through the callers
		}
	}
	switch sh.id.kind {
	case bVar:
		return c.splitVar(sh, deps)
	case bField:
		return c.splitField(sh, deps)
	case bEntry:
		if sh.id.reg {
			return c.rekey(sh, deps)
		}
	}
	return nil
}

// occurrence is a place that names the budget.
type occurrence struct {
	node ast.Node // the identifier (variable, field) or the registry lookup
	dep  retrysite.Dep
}

// attribute gives each occurrence the dependency it belongs to; ok is
// false when one belongs to none or to several.
func (c *checker) attribute(sh *shared, nodes []ast.Node, deps []retrysite.Dep) ([]occurrence, bool) {
	byKey := make(map[string]retrysite.Dep)
	for _, d := range deps {
		byKey[d.Key] = d
	}
	funcDeps := make(map[*ast.FuncDecl]map[string]bool)
	for _, u := range sh.uses {
		fd := c.enclosingDecl(u.expr.Pos())
		if fd == nil {
			continue
		}
		if funcDeps[fd] == nil {
			funcDeps[fd] = make(map[string]bool)
		}
		funcDeps[fd][u.dep.Key] = true
	}
	var occs []occurrence
	for _, n := range nodes {
		var d retrysite.Dep
		for _, u := range sh.uses {
			if astx.Within(n, u.expr) {
				d = byKey[u.dep.Key]
				break
			}
		}
		if d.Key == "" {
			fd := c.enclosingDecl(n.Pos())
			if fd == nil || len(funcDeps[fd]) != 1 {
				return nil, false
			}
			for k := range funcDeps[fd] {
				d = byKey[k]
			}
		}
		occs = append(occs, occurrence{n, d})
	}
	return occs, true
}

// enclosingDecl returns the function declaration holding pos, or nil.
func (c *checker) enclosingDecl(pos token.Pos) *ast.FuncDecl {
	f := fixutil.FileOf(c.pass, pos)
	if f == nil {
		return nil
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Pos() <= pos && pos < fd.End() {
			return fd
		}
	}
	return nil
}

// identsOf returns the identifiers of the package that refer to obj.
func (c *checker) identsOf(obj *types.Var) []ast.Node {
	var ids []ast.Node
	for id, o := range c.info.Uses {
		if v, ok := o.(*types.Var); ok && v.Origin() == obj {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return srcpos.Compare(c.pass.Fset, ids[i].Pos(), ids[j].Pos()) < 0 })
	return ids
}

// newNames names one budget per dependency: the dependency's name and
// the budget's type (inventoryBudget, paymentsLimiter); free reports
// whether a name may be used.
func newNames(deps []retrysite.Dep, typ types.Type, free func(string) bool) (map[string]string, bool) {
	suffix := "Budget"
	t := typ
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok {
		r := []rune(n.Obj().Name())
		r[0] = unicode.ToUpper(r[0])
		suffix = string(r)
	}
	names := make(map[string]string)
	taken := make(map[string]bool)
	for _, d := range deps {
		base := fixutil.IdentName(d.Name)
		if base == "" {
			return nil, false
		}
		name := base + suffix
		for i := 2; taken[name] || !free(name); i++ {
			name = fmt.Sprintf("%s%s%d", base, suffix, i)
		}
		taken[name] = true
		names[d.Key] = name
	}
	return names, true
}

// isConstructor reports whether e makes a new value each time it is
// evaluated: a composite literal, new(T), or a call of a package-level
// function named New... or new....
func (c *checker) isConstructor(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.CompositeLit:
		return true
	case *ast.UnaryExpr:
		_, ok := ast.Unparen(x.X).(*ast.CompositeLit)
		return x.Op == token.AND && ok
	case *ast.CallExpr:
		switch fn := typeutil.Callee(c.info, x).(type) {
		case *types.Builtin:
			return fn.Name() == "new"
		case *types.Func:
			return recvOf(fn) == nil && (strings.HasPrefix(fn.Name(), "New") || strings.HasPrefix(fn.Name(), "new"))
		}
	}
	return false
}

// src returns the source text of n.
func (c *checker) src(n ast.Node) string { return fixutil.Source(c.pass, n) }

// line returns the line of pos.
func (c *checker) line(pos token.Pos) int { return c.pass.Fset.Position(pos).Line }

// oneFile checks that every edit lies in one file of the package.
func (c *checker) oneFile(edits []analysis.TextEdit) bool {
	var file *ast.File
	for _, e := range edits {
		f := fixutil.FileOf(c.pass, e.Pos)
		if f == nil || file != nil && f != file {
			return false
		}
		file = f
	}
	return file != nil
}

// freeInPackage reports whether name may be declared at package level
// and used at every pos without being shadowed.
func (c *checker) freeInPackage(name string, uses []ast.Node) bool {
	if c.pass.Pkg.Scope().Lookup(name) != nil || types.Universe.Lookup(name) != nil {
		return false
	}
	for _, f := range c.pass.Files {
		if s := c.info.Scopes[f]; s != nil && s.Lookup(name) != nil {
			return false
		}
	}
	for _, u := range uses {
		f := fixutil.FileOf(c.pass, u.Pos())
		if f == nil || c.info.Scopes[f] == nil {
			return false
		}
		if _, obj := c.info.Scopes[f].Innermost(u.Pos()).LookupParent(name, u.Pos()); obj != nil {
			return false
		}
	}
	return true
}

// renames returns the edits that point each occurrence at its own budget.
func renames(occs []occurrence, names map[string]string) []analysis.TextEdit {
	var edits []analysis.TextEdit
	for _, o := range occs {
		edits = append(edits, analysis.TextEdit{Pos: o.node.Pos(), End: o.node.End(), NewText: []byte(names[o.dep.Key])})
	}
	return edits
}

func splitMessage(name string, names map[string]string, deps []retrysite.Dep) string {
	var ns []string
	for _, d := range deps {
		ns = append(ns, names[d.Key])
	}
	return fmt.Sprintf("Split %s into %s", name, list(ns))
}

// splitVar splits an unexported package variable declared with a
// constructor (or a struct type whose zero value works).
func (c *checker) splitVar(sh *shared, deps []retrysite.Dep) *analysis.SuggestedFix {
	v := sh.id.obj
	in := c.deps.Var(v)
	if v.Pkg() != c.pass.Pkg || v.Exported() || in == nil || in.Spec() == nil || len(in.Spec().Names) != 1 || in.Assigns > 0 || in.Addr {
		return nil
	}
	spec := in.Spec()
	switch {
	case len(spec.Values) == 1:
		if !c.isConstructor(spec.Values[0]) {
			return nil
		}
	case len(spec.Values) == 0:
		if _, ok := v.Type().Underlying().(*types.Struct); !ok {
			return nil
		}
	default:
		return nil
	}
	ids := c.identsOf(v)
	occs, ok := c.attribute(sh, ids, deps)
	if !ok {
		return nil
	}
	scope := c.pass.Pkg.Scope()
	names, ok := newNames(deps, v.Type(), func(n string) bool { return c.freeInPackage(n, ids) && !c.claims.Taken(scope, n) })
	if !ok {
		return nil
	}
	for _, n := range names {
		c.claims.Claim(scope, n)
	}
	rest := ""
	if spec.Type != nil {
		rest += " " + c.src(spec.Type)
	}
	if len(spec.Values) == 1 {
		rest += " = " + c.src(spec.Values[0])
	}
	var specs []string
	for _, d := range deps {
		specs = append(specs, names[d.Key]+rest)
	}
	var edit analysis.TextEdit
	if in.Gen.Lparen.IsValid() {
		file := fixutil.FileOf(c.pass, spec.Pos())
		indent := fixutil.Indent(c.pass, file, spec.Pos())
		edit = analysis.TextEdit{Pos: spec.Pos(), End: spec.End(), NewText: []byte(strings.Join(specs, "\n"+indent))}
	} else {
		edit = analysis.TextEdit{Pos: in.Gen.Pos(), End: in.Gen.End(), NewText: []byte("var " + strings.Join(specs, "\nvar "))}
	}
	edits := append([]analysis.TextEdit{edit}, renames(occs, names)...)
	if !c.oneFile(edits) {
		return nil
	}
	return &analysis.SuggestedFix{Message: splitMessage(v.Name(), names, deps), TextEdits: edits}
}

// splitField splits an unexported, untagged field of a struct type of the
// package that is initialised in one place (a keyed composite literal or
// an assignment, with a constructor) or not at all (a struct whose zero
// value works).
func (c *checker) splitField(sh *shared, deps []retrysite.Dep) *analysis.SuggestedFix {
	fv := sh.id.obj
	if fv.Pkg() != c.pass.Pkg || fv.Exported() || fv.Embedded() {
		return nil
	}
	field, st := c.fieldDecl(fv)
	if field == nil || len(field.Names) != 1 || field.Tag != nil {
		return nil
	}
	ids := c.identsOf(fv)
	var inits []ast.Node // the key of a composite literal, or the assignment
	var initVal ast.Expr
	var others []ast.Node
	for _, id := range ids {
		switch p := c.parentOf(id).(type) {
		case *ast.KeyValueExpr:
			if p.Key == id {
				inits, initVal = append(inits, p), p.Value
				continue
			}
		case *ast.SelectorExpr:
			if as, ok := c.parentOf(p).(*ast.AssignStmt); ok && as.Tok == token.ASSIGN && len(as.Lhs) == 1 && len(as.Rhs) == 1 && as.Lhs[0] == p {
				inits, initVal = append(inits, as), as.Rhs[0]
				continue
			}
		}
		others = append(others, id)
	}
	switch len(inits) {
	case 0:
		if _, ok := fv.Type().Underlying().(*types.Struct); !ok {
			return nil
		}
	case 1:
		if !c.isConstructor(initVal) {
			return nil
		}
		for _, o := range others {
			if astx.Within(o, inits[0]) {
				return nil
			}
		}
	default:
		return nil
	}
	if c.unkeyedLiteral(st) {
		return nil
	}
	occs, ok := c.attribute(sh, others, deps)
	if !ok {
		return nil
	}
	owner := c.ownerOf(fv)
	if owner == nil {
		return nil
	}
	names, ok := newNames(deps, fv.Type(), func(n string) bool {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(owner), true, c.pass.Pkg, n)
		return obj == nil && !c.claims.Taken(owner, n)
	})
	if !ok {
		return nil
	}
	for _, n := range names {
		c.claims.Claim(owner, n)
	}
	file := fixutil.FileOf(c.pass, field.Pos())
	typeText := c.src(field.Type)
	var decls []string
	for _, d := range deps {
		decls = append(decls, names[d.Key]+" "+typeText)
	}
	edits := []analysis.TextEdit{{
		Pos: field.Names[0].Pos(), End: field.End(),
		NewText: []byte(strings.Join(decls, "\n"+fixutil.Indent(c.pass, file, field.Pos()))),
	}}
	if len(inits) == 1 {
		val := c.src(initVal)
		var parts []string
		var sep string
		switch n := inits[0].(type) {
		case *ast.KeyValueExpr:
			for _, d := range deps {
				parts = append(parts, names[d.Key]+": "+val)
			}
			sep = ", "
			if lit, ok := c.parentOf(n).(*ast.CompositeLit); ok && c.line(lit.Lbrace) != c.line(n.Pos()) {
				sep = ",\n" + fixutil.Indent(c.pass, fixutil.FileOf(c.pass, n.Pos()), n.Pos())
			}
		case *ast.AssignStmt:
			x := c.src(n.Lhs[0].(*ast.SelectorExpr).X)
			for _, d := range deps {
				parts = append(parts, x+"."+names[d.Key]+" = "+val)
			}
			sep = "\n" + fixutil.Indent(c.pass, fixutil.FileOf(c.pass, n.Pos()), n.Pos())
		}
		edits = append(edits, analysis.TextEdit{Pos: inits[0].Pos(), End: inits[0].End(), NewText: []byte(strings.Join(parts, sep))})
	}
	edits = append(edits, renames(occs, names)...)
	if !c.oneFile(edits) {
		return nil
	}
	return &analysis.SuggestedFix{Message: splitMessage(sh.id.name, names, deps), TextEdits: edits}
}

// fieldDecl returns the declaration of a field of a struct type written
// in the package, and the struct type.
func (c *checker) fieldDecl(fv *types.Var) (*ast.Field, *ast.StructType) {
	f := fixutil.FileOf(c.pass, fv.Pos())
	if f == nil {
		return nil, nil
	}
	var field *ast.Field
	var st *ast.StructType
	ast.Inspect(f, func(n ast.Node) bool {
		if field != nil || n == nil || n.Pos() > fv.Pos() || n.End() <= fv.Pos() {
			return false
		}
		if s, ok := n.(*ast.StructType); ok {
			for _, fl := range s.Fields.List {
				for _, id := range fl.Names {
					if id.Pos() == fv.Pos() {
						field, st = fl, s
					}
				}
			}
		}
		return true
	})
	return field, st
}

// ownerOf returns the named type that declares a field.
func (c *checker) ownerOf(fv *types.Var) *types.Named {
	for _, name := range c.pass.Pkg.Scope().Names() {
		tn, ok := c.pass.Pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok {
			continue
		}
		if s, ok := n.Underlying().(*types.Struct); ok {
			for f := range s.Fields() {
				if f == fv {
					return n
				}
			}
		}
	}
	return nil
}

// unkeyedLiteral reports whether the package writes a composite literal
// of the struct type without keys (a new field would break it).
func (c *checker) unkeyedLiteral(st *ast.StructType) bool {
	t, ok := c.info.TypeOf(st).(*types.Struct)
	if !ok {
		return true
	}
	found := false
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok || found || len(lit.Elts) == 0 {
				return !found
			}
			lt := c.info.TypeOf(lit)
			if lt == nil {
				return true
			}
			if s, ok := lt.Underlying().(*types.Struct); ok && s == t {
				if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); !keyed {
					found = true
				}
			}
			return !found
		})
	}
	return found
}

// parentOf returns the parent of n in the syntax tree.
func (c *checker) parentOf(n ast.Node) ast.Node {
	cur, ok := astx.Find(c.insp.Root(), n)
	if !ok {
		return nil
	}
	return cur.Parent().Node()
}

// rekey takes one budget per dependency out of the budget package's
// Registry: each reg.For("default") becomes reg.For("inventory").
func (c *checker) rekey(sh *shared, deps []retrysite.Dep) *analysis.SuggestedFix {
	var lookups []ast.Node
	for _, f := range c.pass.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if id, ok := c.budgetOf(call, 0); ok && id.mapKey() == sh.id.mapKey() && call.Pos() == c.lookupPos(call) {
					lookups = append(lookups, call)
				}
			}
			return true
		})
	}
	occs, ok := c.attribute(sh, lookups, deps)
	if !ok {
		return nil
	}
	var edits []analysis.TextEdit
	var keys []string
	seen := make(map[string]bool)
	for _, o := range occs {
		arg := o.node.(*ast.CallExpr).Args[0]
		key := strconv.Quote(o.dep.Name)
		edits = append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(key)})
		if !seen[key] {
			seen[key] = true
			keys = append(keys, key)
		}
	}
	if !c.oneFile(edits) {
		return nil
	}
	sort.Strings(keys)
	return &analysis.SuggestedFix{Message: "Take one budget per dependency: " + strings.Join(keys, ", "), TextEdits: edits}
}

// lookupPos returns the position of a registry lookup itself (not of a
// local variable standing for one): the call's own position when it
// calls the registry.
func (c *checker) lookupPos(call *ast.CallExpr) token.Pos {
	fn, _ := typeutil.Callee(c.info, call).(*types.Func)
	if isRegistryMethod(fn) {
		return call.Pos()
	}
	return token.NoPos
}
