package fixedattempts

import (
	"go/ast"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retrysite"
)

// Library sites are fixed through the library's own hook, so that a
// refused retry ends the retrying the way the library ends it, and the
// caller sees the library's own error:
//
//   - cenkalti/backoff: the operation returns backoff.Permanent(err) when
//     the budget refuses; Retry then returns err. The operation's error
//     result gets a name and a deferred check (any return of an error is
//     a failure the library would retry, unless it is permanent already);
//   - avast/retry-go: a RetryIf option that asks the budget, after the
//     condition in use (the one the call passes, else IsRecoverable, the
//     library's default); a refusal ends the retries and Do returns its
//     error of the attempts made.
//
// Each deposits once per call of the library (OnRequest before the
// statement that calls it). The budget is the operation's dependency's,
// chosen as for loops.

// libraryNeed returns the need of a library site's fix, or nil when the
// site's library has no hook fix here or its operation's dependency is
// unknown.
func (f *fixer) libraryNeed(file *ast.File, s *retrysite.Site) *need {
	if libraryHook(s) == "" || len(s.Attempts) == 0 {
		return nil
	}
	var dep retrysite.Dep
	var at *ast.CallExpr
	for i, a := range s.Attempts {
		d := f.normDep(a.Call, a.Dep)
		if i == 0 {
			dep, at = a.Dep, a.Call
		}
		if d.Key == "" || d.Key != f.normDep(at, dep).Key {
			return nil
		}
	}
	return f.needAt(file, s.Pos, s.Func, at, dep)
}

// libraryHook names the hook of the retryapi table a library site's
// operation is fixed through (retryapi.HookPermanent when the operation
// is a function literal, retryapi.HookRetryIf), or "" for none.
func libraryHook(s *retrysite.Site) string {
	if _, ok := s.Node.(*ast.CallExpr); !ok || len(s.Attempts) == 0 {
		return ""
	}
	switch h := hook(s); h {
	case retryapi.HookPermanent:
		if s.Op != nil {
			return h // a literal the fix edits, or an operation it wraps
		}
	case retryapi.HookRetryIf:
		if s.Body != nil {
			return h
		}
	}
	return ""
}

// opLit returns the function literal of a library site's operation: the
// operation itself, or the literal a local variable used only there holds
// (op := func() error {...}; backoff.Retry(op, b)); nil for another
// operation (a method value, a function, a parameter).
func (f *fixer) opLit(s *retrysite.Site) *ast.FuncLit {
	switch x := ast.Unparen(s.Op).(type) {
	case *ast.FuncLit:
		return x
	case *ast.Ident:
		v, ok := f.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok {
			return nil
		}
		lit, ok := ast.Unparen(retrysite.Of(f.pass).Vars().Once(v)).(*ast.FuncLit)
		if !ok || len(f.uses(v)) != 1 {
			return nil
		}
		return lit
	}
	return nil
}

// uses returns the identifiers that use v in the package.
func (f *fixer) uses(v types.Object) []*ast.Ident {
	var out []*ast.Ident
	for id, o := range f.pass.TypesInfo.Uses {
		if o == v {
			out = append(out, id)
		}
	}
	return out
}

// libraryFix fixes a library site through its hook.
func (f *fixer) libraryFix(file *ast.File, s *retrysite.Site) *analysis.SuggestedFix {
	var n *need
	for _, x := range f.needs {
		if x.pos == s.Pos {
			n = x
		}
	}
	if n == nil {
		if libraryHook(s) == "" {
			return f.decline(s, noHookWhy(s))
		}
		return f.decline(s, whyDep)
	}
	call := s.Node.(*ast.CallExpr)
	stmt := enclosingStmt(astx.FuncBody(s.Func), call)
	if stmt == nil {
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		if ix, ok := ast.Unparen(call.Fun).(*ast.IndexExpr); ok {
			sel, _ = ast.Unparen(ix.X).(*ast.SelectorExpr)
		}
	}
	if sel == nil {
		return nil
	}
	pkg, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	ref, ok := f.ref(n)
	if !ok {
		return f.decline(s, f.budgetWhy())
	}
	var hook []analysis.TextEdit
	switch libraryHook(s) {
	case retryapi.HookPermanent:
		if lit := f.opLit(s); lit != nil {
			hook, ok = f.permanentEdits(file, lit, pkg.Name, ref.expr)
		} else {
			hook, ok = f.wrapEdits(file, s.Op, pkg.Name, ref.expr)
		}
	case retryapi.HookRetryIf:
		hook, ok = f.retryIfEdits(call, pkg.Name, ref.expr)
	default:
		ok = false
	}
	if !ok {
		return f.decline(s, "no fix: "+s.API+"'s hook cannot be reached where the call is (options passed as a slice, or a retry condition computed once by a call)")
	}
	edits := append(append([]analysis.TextEdit(nil), ref.edits...), hook...)
	indent := fixutil.Indent(f.pass, file, stmt.Pos())
	edits = append(edits, analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(ref.expr + ".OnRequest()\n" + indent)})
	sortEdits(edits)
	return &analysis.SuggestedFix{Message: ref.message, TextEdits: edits}
}

// permanentEdits makes a backoff operation return backoff.Permanent(err)
// when the budget refuses a retry of its failure: its error result gets a
// name, and a deferred check asks the budget.
func (f *fixer) permanentEdits(file *ast.File, lit *ast.FuncLit, pkg, b string) ([]analysis.TextEdit, bool) {
	res := lit.Type.Results
	if res == nil || len(res.List) == 0 {
		return nil, false
	}
	last := res.List[len(res.List)-1]
	if t := f.pass.TypesInfo.TypeOf(last.Type); t == nil || !types.Identical(t, types.Universe.Lookup("error").Type()) {
		return nil, false
	}
	var edits []analysis.TextEdit
	errName := ""
	if len(last.Names) > 0 {
		errName = last.Names[len(last.Names)-1].Name
		if errName == "_" {
			return nil, false
		}
	} else {
		errName = fixutil.FreshName(f.pass.TypesInfo, file, lit.Body.Lbrace+1, "retryErr")
		var parts []string
		for _, fld := range res.List {
			parts = append(parts, "_ "+f.source(fld.Type))
		}
		parts[len(parts)-1] = errName + " " + f.source(last.Type)
		edits = append(edits, analysis.TextEdit{Pos: res.Pos(), End: res.End(), NewText: []byte("(" + strings.Join(parts, ", ") + ")")})
	}
	errorsName, imp := fixutil.AddImport(f.pass, file, "errors", lit.Body.Lbrace+1)
	edits = append(edits, imp...)
	indent := fixutil.Indent(f.pass, file, lit.Pos()) + "\t"
	sameLine := len(lit.Body.List) > 0 && f.pass.Fset.Position(lit.Body.List[0].Pos()).Line == f.pass.Fset.Position(lit.Body.Lbrace).Line
	if len(lit.Body.List) > 0 && !sameLine {
		indent = fixutil.Indent(f.pass, file, lit.Body.List[0].Pos())
	}
	check := "defer func() {\n" +
		indent + "\tif " + errName + " != nil && !" + errorsName + ".As(" + errName + ", new(*" + pkg + ".PermanentError)) && !" + b + ".TryRetry() {\n" +
		indent + "\t\t" + errName + " = " + pkg + ".Permanent(" + errName + ")\n" +
		indent + "\t}\n" +
		indent + "}()"
	at := lit.Body.Lbrace + 1
	switch {
	case sameLine || len(lit.Body.List) == 0:
		check = "\n" + indent + check
		if sameLine {
			check += "\n" + indent
		}
	default:
		// Before the first statement, after what ends the brace's line.
		return append(edits, fixutil.InsertStmt(f.pass, file, lit.Body.List[0], false, check)), true
	}
	edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(check)})
	return edits, true
}

// retryIfEdits gives a retry-go call a RetryIf option that asks the budget
// after the condition in use.
func (f *fixer) retryIfEdits(call *ast.CallExpr, pkg, b string) ([]analysis.TextEdit, bool) {
	if call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return nil, false
	}
	for _, a := range call.Args[1:] {
		opt, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok {
			return nil, false // an option we cannot see
		}
		fn := callee(f.pass, opt)
		if fn == nil || fn.Name() != "RetryIf" || len(opt.Args) != 1 {
			continue
		}
		cond := ast.Unparen(opt.Args[0])
		switch cond.(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.FuncLit:
		default:
			return nil, false // evaluated once; a wrapper would evaluate it each time
		}
		text := "func(err error) bool { return (" + f.source(cond) + ")(err) && " + b + ".TryRetry() }"
		if _, isLit := cond.(*ast.FuncLit); !isLit {
			text = "func(err error) bool { return " + f.source(cond) + "(err) && " + b + ".TryRetry() }"
		}
		return []analysis.TextEdit{{Pos: opt.Args[0].Pos(), End: opt.Args[0].End(), NewText: []byte(text)}}, true
	}
	at := call.Args[len(call.Args)-1].End()
	text := ", " + pkg + ".RetryIf(func(err error) bool { return " + pkg + ".IsRecoverable(err) && " + b + ".TryRetry() })"
	return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(text)}}, true
}

// source returns the source text of a node.
func (f *fixer) source(n ast.Node) string {
	tf := f.pass.Fset.File(n.Pos())
	if tf == nil {
		return types.ExprString(n.(ast.Expr))
	}
	src, err := f.pass.ReadFile(tf.Name())
	if err != nil {
		return types.ExprString(n.(ast.Expr))
	}
	return string(src[tf.Offset(n.Pos()):tf.Offset(n.End())])
}

// enclosingStmt returns the statement of a block of body that holds n,
// the innermost one.
func enclosingStmt(body *ast.BlockStmt, n ast.Node) ast.Stmt {
	if body == nil {
		return nil
	}
	var found ast.Stmt
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for _, st := range list {
			if st.Pos() <= n.Pos() && n.End() <= st.End() {
				found = st
				for _, sub := range childLists(st) {
					visit(sub)
				}
				if fs, ok := st.(*ast.ForStmt); ok {
					visit(fs.Body.List)
				}
				if rs, ok := st.(*ast.RangeStmt); ok {
					visit(rs.Body.List)
				}
				return
			}
		}
	}
	visit(body.List)
	if found != nil && found.Pos() > n.Pos() {
		return nil
	}
	return found
}

// sortEdits orders edits by position, keeping the order of insertions at
// one position.
func sortEdits(edits []analysis.TextEdit) {
	for i := 1; i < len(edits); i++ {
		for j := i; j > 0 && edits[j].Pos < edits[j-1].Pos; j-- {
			edits[j], edits[j-1] = edits[j-1], edits[j]
		}
	}
}

// noHookWhy says why a library site has no fix: the library has no hook
// through which a budget can refuse a retry, or the operation is one the
// fix cannot wrap.
func noHookWhy(s *retrysite.Site) string {
	if hook(s) == "" {
		return "no fix: " + s.API + " has no hook through which a budget can refuse a retry; guard the operation with a budget check of its own, or use a client with a retry budget (budget/retry's Do)"
	}
	return "no fix: the operation of " + s.API + " is not a function literal of this package, which the fix would make return the refusal"
}

// wrapEdits wraps an operation that is not a literal (a method value, a
// function) in one that returns backoff.Permanent(err) when the budget
// refuses a retry of its failure:
//
//	func() (T, error) {
//		v, err := op()
//		if err != nil && !errors.As(err, new(*backoff.PermanentError)) && !b.TryRetry() {
//			return v, backoff.Permanent(err)
//		}
//		return v, err
//	}
func (f *fixer) wrapEdits(file *ast.File, op ast.Expr, pkg, b string) ([]analysis.TextEdit, bool) {
	sig, ok := f.pass.TypesInfo.TypeOf(op).(*types.Signature)
	if !ok || sig.Params().Len() != 0 || sig.Variadic() {
		return nil, false
	}
	res := sig.Results()
	if res.Len() == 0 || res.Len() > 2 || !types.Identical(res.At(res.Len()-1).Type(), types.Universe.Lookup("error").Type()) {
		return nil, false
	}
	src := f.source(op)
	if src == "" {
		return nil, false
	}
	errorsName, imp := fixutil.AddImport(f.pass, file, "errors", op.Pos())
	errName := fixutil.FreshName(f.pass.TypesInfo, file, op.Pos(), "retryErr")
	indent := fixutil.Indent(f.pass, file, op.Pos())
	results, values, ret := "error", errName, errName
	if res.Len() == 2 {
		t := f.typeText(file, res.At(0).Type())
		if t == "" {
			return nil, false
		}
		v := fixutil.FreshName(f.pass.TypesInfo, file, op.Pos(), "retryValue")
		results, values, ret = "("+t+", error)", v+", "+errName, v+", "
	} else {
		ret = ""
	}
	text := "func() " + results + " {\n" +
		indent + "\t" + values + " := " + src + "()\n" +
		indent + "\tif " + errName + " != nil && !" + errorsName + ".As(" + errName + ", new(*" + pkg + ".PermanentError)) && !" + b + ".TryRetry() {\n" +
		indent + "\t\treturn " + ret + pkg + ".Permanent(" + errName + ")\n" +
		indent + "\t}\n" +
		indent + "\treturn " + values + "\n" +
		indent + "}"
	return append(imp, analysis.TextEdit{Pos: op.Pos(), End: op.End(), NewText: []byte(text)}), true
}

// typeText renders t as file can name it, or "" when it names a package
// the file does not import.
func (f *fixer) typeText(file *ast.File, t types.Type) string {
	names := map[*types.Package]string{}
	for _, spec := range file.Imports {
		if pn, ok := f.pass.TypesInfo.Implicits[spec].(*types.PkgName); ok {
			names[pn.Imported()] = pn.Name()
		} else if spec.Name != nil {
			if pn, ok := f.pass.TypesInfo.Defs[spec.Name].(*types.PkgName); ok {
				names[pn.Imported()] = pn.Name()
			}
		}
	}
	ok := true
	s := types.TypeString(t, func(p *types.Package) string {
		if p == f.pass.Pkg {
			return ""
		}
		n, found := names[p]
		if !found {
			ok = false
		}
		return n
	})
	if !ok {
		return ""
	}
	return s
}
