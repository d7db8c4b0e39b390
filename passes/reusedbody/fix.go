package reusedbody

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/edge"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/typesx"
)

// fix moves the request's construction into the attempt: the statement
// that builds it, the check of its error right after it, and the
// statements before the retry that set it up (headers), to the top of the
// per-attempt code, so that each attempt sends a request with a fresh
// body. It is offered only when that changes nothing else:
//   - the construction is a statement of the block that holds the retry
//     (the loop, or the statement calling the retry library), before it;
//   - what it reads is not changed by the attempts, and its body is made
//     from data (bytes.NewReader(b), strings.NewReader(s)), not a reader
//     made before (a reader defined just for it moves along);
//   - the names it defines are used only there and in the attempt, except
//     its error variable, which then stays declared where it was;
//   - every name it uses means the same at the top of the attempt;
//   - it holds no jump, and, for a retry library's operation, no return
//     (returning from the operation would retry what failed to build).
func (c *checker) fix(rg region, req *types.Var, built *ast.CallExpr, stmt ast.Stmt) *analysis.SuggestedFix {
	file := fixutil.FileOf(c.pass, built.Pos())
	if file == nil || stmt == nil {
		return nil
	}
	as, ok := stmt.(*ast.AssignStmt)
	if !ok || len(as.Rhs) != 1 || ast.Unparen(as.Rhs[0]) != built || (as.Tok != token.DEFINE && as.Tok != token.ASSIGN) {
		return nil
	}
	list, at, site := c.listOf(rg, as)
	if list == nil {
		return nil
	}
	// The run of statements that moves.
	var errVar *types.Var
	if len(as.Lhs) == 2 {
		errVar, _ = c.pass.TypesInfo.ObjectOf(identOf(as.Lhs[1])).(*types.Var)
	}
	moved := map[ast.Stmt]bool{as: true}
	var order []ast.Stmt
	// A reader made just for the body moves first.
	if id, ok := ast.Unparen(bodyArg(built)).(*ast.Ident); ok {
		d := c.readerDef(list[:at], id, as)
		if d == nil {
			return nil
		}
		moved[d] = true
		order = append(order, d)
	} else if !c.replayable(bodyArg(built)) {
		return nil
	}
	order = append(order, as)
	for i := at + 1; i < site; i++ {
		s := list[i]
		switch {
		case i == at+1 && errVar != nil && c.isErrCheck(s, errVar):
		case typesx.Refers(c.pass.TypesInfo, s, req):
		default:
			continue
		}
		moved[s] = true
		order = append(order, s)
	}
	// What the moved statements define, and where it is used.
	defined := map[*types.Var]bool{}
	for _, s := range order {
		c.defs(s, defined)
	}
	// The error variable stays declared where it was when code after the
	// retry reads it.
	keepErr := false
	for v := range defined {
		for _, u := range c.usesOf(v, rg.fn) {
			if astx.Within(u, rg.body) || inStmts(u, order) {
				continue
			}
			if v == errVar {
				keepErr = true
				continue
			}
			return nil
		}
	}
	// The statements that stay must not read what moves.
	for i := at; i < site; i++ {
		if !moved[list[i]] {
			for v := range defined {
				if typesx.Refers(c.pass.TypesInfo, list[i], v) {
					return nil
				}
			}
		}
	}
	// What the moved statements assign is theirs to set, not an input.
	own := map[*types.Var]bool{}
	for v := range defined {
		own[v] = true
	}
	for _, s := range order {
		if a, ok := s.(*ast.AssignStmt); ok {
			for _, l := range a.Lhs {
				if v, ok := c.pass.TypesInfo.ObjectOf(identOf(l)).(*types.Var); ok {
					own[v] = true
				}
			}
		}
	}
	ins := rg.body.Lbrace + 1
	for _, s := range order {
		if !c.movable(s, rg, own, ins) {
			return nil
		}
	}
	// The construction's variables: those it declares that only the
	// attempt uses are declared in the attempt; the others are assigned.
	var fresh, lhs []*types.Var
	for _, l := range as.Lhs {
		v, _ := c.pass.TypesInfo.ObjectOf(identOf(l)).(*types.Var)
		lhs = append(lhs, v)
		if v != nil && as.Tok == token.DEFINE && defined[v] && !(v == errVar && keepErr) {
			fresh = append(fresh, v)
		}
	}
	names := map[string]bool{}
	for v := range defined {
		names[v.Name()] = true
	}
	for v := range defined {
		if v == errVar && keepErr {
			continue
		}
		if c.declaredIn(rg, v, names) {
			return nil // the name is taken at the top of the attempt
		}
	}
	tf := c.pass.Fset.File(built.Pos())
	src, err := c.pass.ReadFile(tf.Name())
	if err != nil {
		return nil
	}
	fromIndent := fixutil.Indent(c.pass, file, as.Pos())
	toIndent := c.bodyIndent(file, rg)
	var text strings.Builder
	var edits []analysis.TextEdit
	for _, s := range order {
		start, end, ok := lineSpan(tf, src, s)
		if !ok {
			return nil
		}
		chunk := string(src[start:end])
		var keep string
		if s == as && as.Tok == token.DEFINE && len(fresh) < countVars(lhs) {
			// Some of its variables live on outside the attempt: declare
			// the fresh ones and assign.
			chunk = ""
			for _, v := range fresh {
				typ := c.typeText(file, v.Type())
				if typ == "" {
					return nil
				}
				chunk += fromIndent + "var " + v.Name() + " " + typ + "\n"
			}
			stmtText := string(src[tf.Offset(as.Pos()):tf.Offset(as.End())])
			rest := strings.TrimRight(string(src[tf.Offset(as.End()):end]), "\n")
			chunk += fromIndent + strings.Replace(stmtText, ":=", "=", 1) + rest + "\n"
			if keepErr && defined[errVar] {
				keep = fromIndent + "var " + errVar.Name() + " error\n"
			}
		}
		edits = append(edits, analysis.TextEdit{Pos: tf.Pos(start), End: tf.Pos(end), NewText: []byte(keep)})
		for _, line := range strings.SplitAfter(chunk, "\n") {
			if line == "" {
				continue
			}
			if strings.TrimSpace(line) == "" {
				text.WriteString("\n")
				continue
			}
			text.WriteString(toIndent + strings.TrimPrefix(line, fromIndent))
		}
	}
	edits = append(edits, analysis.TextEdit{Pos: ins, End: ins, NewText: []byte("\n" + strings.TrimSuffix(text.String(), "\n"))})
	return &analysis.SuggestedFix{Message: "Build the request in each attempt", TextEdits: edits}
}

// countVars counts the variables among vs (the blank identifier has none).
func countVars(vs []*types.Var) int {
	n := 0
	for _, v := range vs {
		if v != nil {
			n++
		}
	}
	return n
}

func identOf(x ast.Expr) *ast.Ident {
	id, _ := ast.Unparen(x).(*ast.Ident)
	return id
}

// listOf returns the statement list that holds the construction and the
// retry, the construction's index, and the index of the statement that
// holds the retry (the loop, or the statement calling the library).
func (c *checker) listOf(rg region, as *ast.AssignStmt) ([]ast.Stmt, int, int) {
	cur, ok := astx.Find(c.insp.Root(), as)
	if !ok || cur.ParentEdgeKind() != edge.BlockStmt_List {
		return nil, 0, 0
	}
	block := cur.Parent().Node().(*ast.BlockStmt)
	at, site := -1, -1
	for i, s := range block.List {
		if s == as {
			at = i
		}
		if astx.Within(rg.outer, s) && site < 0 && i > at && at >= 0 {
			site = i
		}
	}
	if at < 0 || site < 0 {
		return nil, 0, 0
	}
	return block.List, at, site
}

// readerDef returns the statement among list that defines the reader id
// names (rd := bytes.NewReader(b)) when the construction is its only use,
// or nil.
func (c *checker) readerDef(list []ast.Stmt, id *ast.Ident, built *ast.AssignStmt) ast.Stmt {
	v, ok := c.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok {
		return nil
	}
	for _, s := range list {
		as, ok := s.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE || len(as.Lhs) != 1 || len(as.Rhs) != 1 || c.pass.TypesInfo.Defs[identOf(as.Lhs[0])] != v {
			continue
		}
		if !c.replayable(as.Rhs[0]) {
			return nil
		}
		n := 0
		ast.Inspect(built, func(x ast.Node) bool {
			if u, ok := x.(*ast.Ident); ok && c.pass.TypesInfo.Uses[u] == v {
				n++
			}
			return true
		})
		if n != len(c.usesOfAll(v)) {
			return nil
		}
		return as
	}
	return nil
}

// usesOfAll returns every use of v in the package's files.
func (c *checker) usesOfAll(v *types.Var) []*ast.Ident {
	var out []*ast.Ident
	for id, obj := range c.pass.TypesInfo.Uses {
		if obj == v {
			out = append(out, id)
		}
	}
	return out
}

// replayable reports whether evaluating x again makes a fresh body: a
// reader over data (bytes.NewReader(b), strings.NewReader(s)), possibly
// wrapped by io.NopCloser, io.MultiReader or io.LimitReader, whose
// operands are data, not readers.
func (c *checker) replayable(x ast.Expr) bool {
	ok := true
	var visit func(x ast.Expr)
	visit = func(x ast.Expr) {
		switch e := ast.Unparen(x).(type) {
		case *ast.BasicLit:
		case *ast.Ident, *ast.SelectorExpr:
			if t := c.pass.TypesInfo.TypeOf(e); t == nil || isReader(t) {
				ok = false
			}
		case *ast.CallExpr:
			if tv, isType := c.pass.TypesInfo.Types[e.Fun]; isType && tv.IsType() {
				for _, a := range e.Args {
					visit(a)
				}
				return
			}
			name := c.funcName(e)
			if !readerFuncs[name] && name != "io.NopCloser" && name != "io.MultiReader" && name != "io.LimitReader" {
				ok = false
				return
			}
			for _, a := range e.Args {
				visit(a)
			}
		default:
			ok = false
		}
	}
	visit(x)
	return ok
}

// isErrCheck reports whether s is if err != nil { ... } on err, with no
// else.
func (c *checker) isErrCheck(s ast.Stmt, err *types.Var) bool {
	ifs, ok := s.(*ast.IfStmt)
	return ok && ifs.Init == nil && ifs.Else == nil && typesx.Refers(c.pass.TypesInfo, ifs.Cond, err)
}

// defs adds the variables s defines at its top level.
func (c *checker) defs(s ast.Stmt, out map[*types.Var]bool) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		if s.Tok == token.DEFINE {
			for _, l := range s.Lhs {
				if v, ok := c.pass.TypesInfo.Defs[identOf(l)].(*types.Var); ok {
					out[v] = true
				}
			}
		}
	case *ast.DeclStmt:
		if gd, ok := s.Decl.(*ast.GenDecl); ok {
			for _, spec := range gd.Specs {
				if vs, ok := spec.(*ast.ValueSpec); ok {
					for _, n := range vs.Names {
						if v, ok := c.pass.TypesInfo.Defs[n].(*types.Var); ok {
							out[v] = true
						}
					}
				}
			}
		}
	}
}

func inStmts(n ast.Node, list []ast.Stmt) bool {
	for _, s := range list {
		if astx.Within(n, s) {
			return true
		}
	}
	return false
}

// movable reports whether s can run at the top of the attempt instead of
// before the retry: no jump or defer, no return out of an operation
// literal, and every variable it reads means the same at ins and is not
// changed by the attempts.
func (c *checker) movable(s ast.Stmt, rg region, own map[*types.Var]bool, ins token.Pos) bool {
	ok := true
	file := fixutil.FileOf(c.pass, ins)
	scope := c.pass.TypesInfo.Scopes[file]
	if scope == nil {
		return false
	}
	inner := scope.Innermost(ins)
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.BranchStmt, *ast.DeferStmt, *ast.GoStmt, *ast.LabeledStmt:
			ok = false
		case *ast.ReturnStmt:
			if rg.site.Kind != retrysite.Loop {
				ok = false
			}
		case *ast.SelectorExpr:
			ast.Inspect(n.X, visit) // the selected name resolves through X
			return false
		case *ast.KeyValueExpr:
			if _, isID := n.Key.(*ast.Ident); isID {
				ast.Inspect(n.Value, visit) // a field name, or a map key that is a variable
				if c.pass.TypesInfo.Types[n.Key].Type != nil {
					ast.Inspect(n.Key, visit)
				}
				return false
			}
		case *ast.Ident:
			obj := c.pass.TypesInfo.Uses[n]
			if obj == nil {
				return true
			}
			v, isVar := obj.(*types.Var)
			if isVar && v.IsField() {
				return true
			}
			if isVar && own[v] {
				// Its own variables: those it declares are declared
				// again; those it assigns must still be the same ones.
				if _, found := inner.LookupParent(n.Name, ins); found != obj && !c.definedBy(v, s) {
					ok = false
				}
				return ok
			}
			if _, found := inner.LookupParent(n.Name, ins); found != obj {
				ok = false
				return false
			}
			if v, isVar := obj.(*types.Var); isVar && c.changedIn(v, rg) {
				ok = false
			}
		}
		return ok
	}
	ast.Inspect(s, visit)
	return ok
}

// definedBy reports whether v is declared within s.
func (c *checker) definedBy(v *types.Var, s ast.Stmt) bool {
	return s.Pos() <= v.Pos() && v.Pos() < s.End()
}

// changedIn reports whether the attempts (or the loop's header) assign v
// or take its address.
func (c *checker) changedIn(v *types.Var, rg region) bool {
	changed := false
	ast.Inspect(rg.outer, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for _, l := range n.Lhs {
				if id := identOf(l); id != nil && c.pass.TypesInfo.ObjectOf(id) == v {
					changed = true
				}
			}
		case *ast.IncDecStmt:
			if id := identOf(n.X); id != nil && c.pass.TypesInfo.Uses[id] == v {
				changed = true
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if id := identOf(n.X); id != nil && c.pass.TypesInfo.Uses[id] == v {
					changed = true
				}
			}
		case *ast.RangeStmt:
			for _, x := range []ast.Expr{n.Key, n.Value} {
				if id := identOf(x); id != nil && c.pass.TypesInfo.ObjectOf(id) == v {
					changed = true
				}
			}
		}
		return !changed
	})
	return changed
}

// declaredIn reports whether declaring v at the top of the attempt would
// clash with a name the attempt declares itself: a parameter of the
// operation, or a declaration in the block other than a := that declares
// something else too and gives the name v's type (resp, err := ..., which
// then assigns the err declared above it).
func (c *checker) declaredIn(rg region, v *types.Var, names map[string]bool) bool {
	if lit, ok := rg.outer.(*ast.FuncLit); ok {
		if s := c.pass.TypesInfo.Scopes[lit.Type]; s != nil && s.Lookup(v.Name()) != nil {
			return true
		}
	}
	s := c.pass.TypesInfo.Scopes[rg.body]
	if s == nil {
		return false
	}
	o := s.Lookup(v.Name())
	if o == nil {
		return false
	}
	for _, st := range rg.body.List {
		as, ok := st.(*ast.AssignStmt)
		if !ok || as.Tok != token.DEFINE {
			continue
		}
		mine, others := false, false
		for _, l := range as.Lhs {
			id := identOf(l)
			d := c.pass.TypesInfo.Defs[id]
			switch {
			case d == nil:
			case d == o:
				mine = true
			case !names[id.Name]:
				others = true
			}
		}
		if mine {
			return !others || !types.Identical(o.Type(), v.Type())
		}
	}
	return true
}

// bodyIndent returns the indentation of the attempt's statements.
func (c *checker) bodyIndent(file *ast.File, rg region) string {
	if len(rg.body.List) > 0 {
		return fixutil.Indent(c.pass, file, rg.body.List[0].Pos())
	}
	return fixutil.Indent(c.pass, file, rg.body.Pos()) + "\t"
}

// lineSpan returns the byte span of the whole lines s occupies, with its
// newline, when nothing else shares them (a trailing comment moves along).
func lineSpan(tf *token.File, src []byte, s ast.Stmt) (int, int, bool) {
	start, end := tf.Offset(s.Pos()), tf.Offset(s.End())
	ls := start
	for ls > 0 && src[ls-1] != '\n' {
		ls--
	}
	if strings.TrimSpace(string(src[ls:start])) != "" {
		return 0, 0, false
	}
	le := end
	for le < len(src) && src[le] != '\n' {
		le++
	}
	rest := strings.TrimSpace(string(src[end:le]))
	if rest != "" && !strings.HasPrefix(rest, "//") {
		return 0, 0, false
	}
	if le < len(src) {
		le++
	}
	return ls, le, true
}

// typeText writes t as the file refers to it (*http.Request), or "" when
// the file does not import a package t needs.
func (c *checker) typeText(file *ast.File, t types.Type) string {
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == c.pass.Pkg {
			return ""
		}
		for _, spec := range file.Imports {
			if pn, isPkg := c.pass.TypesInfo.Implicits[spec].(*types.PkgName); isPkg && pn.Imported() == p {
				return pn.Name()
			}
			if spec.Name != nil {
				if pn, isPkg := c.pass.TypesInfo.Defs[spec.Name].(*types.PkgName); isPkg && pn.Imported() == p {
					return pn.Name()
				}
			}
		}
		ok = false
		return p.Name()
	})
	if !ok {
		return ""
	}
	return s
}
