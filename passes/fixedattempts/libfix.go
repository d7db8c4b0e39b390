package fixedattempts

import (
	"go/ast"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"

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
//     condition in use (the last RetryIf the options hold, else
//     IsRecoverable, the library's default); a refusal ends the retries
//     and Do returns its error of the attempts made. v4 takes it among
//     the call's options; v5 among those of the retrier's constructor,
//     when the retrier is made for the call (retry.New(...).Do(op), or a
//     local used only there): a retrier that serves other calls would
//     guard them with this dependency's budget;
//   - sethvargo/go-retry: the Backoff argument of Do and DoValue is
//     wrapped in a BackoffFunc that stops when the budget refuses the
//     retry the backoff allows; Do then returns the last error, as when
//     the backoff stops by itself. Constant, Exponential and Fibonacci are
//     Do with NewConstant, NewExponential and NewFibonacci (v0.5.0), and
//     are rewritten to that;
//   - k8s client-go retry.OnError: the retriable predicate asks the budget
//     after the predicate in use; a refusal makes OnError return the
//     attempt's error, which is what it returns after its last attempt.
//
// A condition the fix wraps must be a name or a function literal: a call
// would be evaluated once where it is, and on every failure in a wrapper.
//
// When the budget is asked: go-retry's wrapper asks only when the backoff
// would go on, never after the last attempt. backoff's operation,
// retry-go's RetryIf and OnError's predicate are asked after every
// failure, the last one included (the operation runs before backoff asks
// its BackOff; retry-go asks RetryIf before it checks for the last
// attempt; OnError's wait.ExponentialBackoff runs the condition before it
// counts its steps), and they see only the error: so the fix asks once
// more than needed when every attempt fails, which only makes the budget
// slightly stricter. retry-go v5's WithThrottle is asked only when a retry would
// follow, but refuses with ErrThrottled joined to the error, so the fix
// does not use it.
//
// Each deposits once per call of the library (OnRequest before the
// statement that calls it). The budget is the operation's dependency's,
// chosen as for loops.
//
// failsafe-go retry policies and go-grpc-middleware's interceptors get no
// fix: the retryapi table's NoHook says why, in the related line.

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
// is a function literal, retryapi.HookRetryIf, retryapi.HookStopBackoff,
// retryapi.HookRetriable), or "" for none.
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
	case retryapi.HookStopBackoff, retryapi.HookRetriable:
		if s.Op != nil {
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
	ref, ok := f.ref(n)
	if !ok {
		return f.decline(s, f.budgetWhy())
	}
	pkg := pkgQualifier(f.pass, call)
	var hook []analysis.TextEdit
	why := "no fix: " + s.API + "'s hook cannot be reached where the call is (options passed as a slice, or a retry condition computed once by a call)"
	switch libraryHook(s) {
	case retryapi.HookPermanent:
		if pkg == "" {
			return nil
		}
		if lit := f.opLit(s); lit != nil {
			hook, ok = f.permanentEdits(file, lit, pkg, ref.expr)
		} else {
			hook, ok = f.wrapEdits(file, s.Op, pkg, ref.expr)
		}
	case retryapi.HookRetryIf:
		if s.Entry.OptionsOf == retryapi.Receiver {
			nc, shared := f.retrierConstructor(s, call)
			if nc == nil {
				return f.decline(s, shared)
			}
			hook, ok = f.retryIfEdits(nc, 0, pkgQualifier(f.pass, nc), ref.expr)
		} else {
			hook, ok = f.retryIfEdits(call, 1, pkg, ref.expr)
		}
	case retryapi.HookStopBackoff:
		hook, ok = f.stopBackoffEdits(file, stmt, call, pkg, ref.expr)
	case retryapi.HookRetriable:
		hook, ok = f.retriableEdits(call, ref.expr)
	default:
		ok = false
	}
	if !ok {
		return f.decline(s, why)
	}
	edits := append(append([]analysis.TextEdit(nil), ref.edits...), hook...)
	indent := fixutil.Indent(f.pass, file, stmt.Pos())
	edits = append(edits, analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(ref.expr + ".OnRequest()\n" + indent)})
	sortEdits(edits)
	return &analysis.SuggestedFix{Message: ref.message, TextEdits: edits}
}

// pkgQualifier returns the name of the package that qualifies a call of
// a package's function (pkg.F(...), pkg.F[T](...)), or "".
func pkgQualifier(pass *analysis.Pass, call *ast.CallExpr) string {
	fun := ast.Unparen(call.Fun)
	switch x := fun.(type) {
	case *ast.IndexExpr:
		fun = ast.Unparen(x.X)
	case *ast.IndexListExpr:
		fun = ast.Unparen(x.X)
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return ""
	}
	id, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return ""
	}
	if _, ok := pass.TypesInfo.Uses[id].(*types.PkgName); !ok {
		return ""
	}
	return id.Name
}

// retrierConstructor returns the constructor call whose options a
// retry-go v5 Do call runs with, when that retrier serves this call
// alone: the receiver is the call (retry.New(opts...).Do(op)), or a local
// variable assigned once from it and used only here. Otherwise it returns
// nil and why there is no fix: a condition in a retrier that serves other
// calls would guard them with this dependency's budget.
func (f *fixer) retrierConstructor(s *retrysite.Site, call *ast.CallExpr) (*ast.CallExpr, string) {
	shared := "no fix: the retrier is made apart from this call and may serve others, which a RetryIf in its constructor would guard with this dependency's budget; make the retrier where it is used, or give it WithThrottle"
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, shared
	}
	var nc *ast.CallExpr
	switch x := ast.Unparen(sel.X).(type) {
	case *ast.CallExpr:
		nc = x
	case *ast.Ident:
		v, ok := f.pass.TypesInfo.Uses[x].(*types.Var)
		if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || len(f.uses(v)) != 1 {
			return nil, shared
		}
		nc, _ = ast.Unparen(retrysite.Of(f.pass).Vars().Once(v)).(*ast.CallExpr)
	}
	if nc == nil {
		return nil, shared
	}
	fn := callee(f.pass, nc)
	if fn == nil || pkgQualifier(f.pass, nc) == "" || !slices.Contains(s.Entry.Constructors, fn.Name()) {
		return nil, shared
	}
	return nc, ""
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
// after the condition in use: the options are call's arguments from index
// from on (v4's Do(op, opts...), v5's New(opts...)). The last RetryIf is
// the one in use; without one, the library's default, IsRecoverable.
func (f *fixer) retryIfEdits(call *ast.CallExpr, from int, pkg, b string) ([]analysis.TextEdit, bool) {
	if pkg == "" || call.Ellipsis.IsValid() || len(call.Args) < from {
		return nil, false
	}
	var last *ast.CallExpr
	for _, a := range call.Args[from:] {
		opt, ok := ast.Unparen(a).(*ast.CallExpr)
		if !ok {
			return nil, false // an option we cannot see
		}
		if fn := callee(f.pass, opt); fn != nil && fn.Name() == "RetryIf" && len(opt.Args) == 1 {
			last = opt
		}
	}
	if last != nil {
		text, ok := f.condWrap(last.Args[0], b)
		if !ok {
			return nil, false
		}
		return []analysis.TextEdit{{Pos: last.Args[0].Pos(), End: last.Args[0].End(), NewText: []byte(text)}}, true
	}
	text := pkg + ".RetryIf(func(err error) bool { return " + pkg + ".IsRecoverable(err) && " + b + ".TryRetry() })"
	if len(call.Args) > 0 {
		lastArg := call.Args[len(call.Args)-1]
		at := lastArg.End()
		sep := ", "
		if f.pass.Fset.Position(call.Rparen).Line > f.pass.Fset.Position(at).Line {
			// The arguments are on lines of their own (the last one
			// ends with a comma): the option gets one too.
			sep = ",\n" + fixutil.Indent(f.pass, nil, lastArg.Pos())
		}
		return []analysis.TextEdit{{Pos: at, End: at, NewText: []byte(sep + text)}}, true
	}
	return []analysis.TextEdit{{Pos: call.Rparen, End: call.Rparen, NewText: []byte(text)}}, true
}

// condWrap returns a retry condition that asks the budget b after the
// condition cond holds, evaluating cond where it is now: a name or a
// function literal (a call would be evaluated once now, and on every
// failure in a wrapper). ok is false for another condition.
func (f *fixer) condWrap(cond ast.Expr, b string) (string, bool) {
	c := ast.Unparen(cond)
	src := f.source(c)
	switch x := c.(type) {
	case *ast.Ident:
		if x.Name == "nil" {
			return "", false
		}
	case *ast.SelectorExpr:
	case *ast.FuncLit:
		src = "(" + src + ")"
	default:
		return "", false // evaluated once; a wrapper would evaluate it each time
	}
	// The parameter must not hide a name the condition uses from outside.
	taken := []string{rootNameOf(b)}
	ast.Inspect(c, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := f.pass.TypesInfo.Uses[id]; obj != nil && (obj.Pos() < c.Pos() || obj.Pos() >= c.End()) {
				taken = append(taken, id.Name)
			}
		}
		return true
	})
	errName := freeName("err", taken...)
	return "func(" + errName + " error) bool { return " + src + "(" + errName + ") && " + b + ".TryRetry() }", true
}

// retriableEdits makes k8s retry.OnError's retriable predicate ask the
// budget after the predicate in use: a refusal makes OnError return the
// attempt's error, as after its last attempt.
func (f *fixer) retriableEdits(call *ast.CallExpr, b string) ([]analysis.TextEdit, bool) {
	if len(call.Args) != 3 || call.Ellipsis.IsValid() {
		return nil, false
	}
	text, ok := f.condWrap(call.Args[1], b)
	if !ok {
		return nil, false
	}
	return []analysis.TextEdit{{Pos: call.Args[1].Pos(), End: call.Args[1].End(), NewText: []byte(text)}}, true
}

// stopBackoffEdits wraps the backoff of a go-retry call in a BackoffFunc
// that stops when the budget refuses the retry the backoff allows, so
// that Do returns the last error as when the backoff stops by itself; the
// budget is asked only when the backoff would go on, never after the last
// attempt. The wrapped backoff is evaluated once, where it was:
//
//	func(next retry.Backoff) retry.Backoff {
//		return retry.BackoffFunc(func() (time.Duration, bool) {
//			d, stop := next.Next()
//			if !stop && !b.TryRetry() {
//				return 0, true
//			}
//			return d, stop
//		})
//	}(backoff)
//
// The shortcuts Constant, Exponential and Fibonacci are Do with the
// backoff of the same name (go-retry v0.5.0: Constant(ctx, t, f) is
// Do(ctx, NewConstant(t), f)), and become that.
func (f *fixer) stopBackoffEdits(file *ast.File, stmt ast.Stmt, call *ast.CallExpr, pkg, b string) ([]analysis.TextEdit, bool) {
	fn := callee(f.pass, call)
	if pkg == "" || fn == nil || len(call.Args) != 3 || call.Ellipsis.IsValid() {
		return nil, false
	}
	arg := call.Args[1]
	var edits []analysis.TextEdit
	backoff := f.source(arg)
	switch fn.Name() {
	case "Do", "DoValue":
	case "Constant", "Exponential", "Fibonacci":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			return nil, false
		}
		edits = append(edits, analysis.TextEdit{Pos: sel.Sel.Pos(), End: sel.Sel.End(), NewText: []byte("Do")})
		backoff = pkg + ".New" + fn.Name() + "(" + backoff + ")"
	default:
		return nil, false
	}
	timeName, imp := fixutil.AddImport(f.pass, file, "time", call.Pos())
	edits = append(edits, imp...)
	taken := []string{pkg, timeName, rootNameOf(b)}
	next := freeName("next", taken...)
	d := freeName("d", append(taken, next)...)
	stop := freeName("stop", append(taken, next, d)...)
	indent := fixutil.Indent(f.pass, file, stmt.Pos())
	text := "func(" + next + " " + pkg + ".Backoff) " + pkg + ".Backoff {\n" +
		indent + "\treturn " + pkg + ".BackoffFunc(func() (" + timeName + ".Duration, bool) {\n" +
		indent + "\t\t" + d + ", " + stop + " := " + next + ".Next()\n" +
		indent + "\t\tif !" + stop + " && !" + b + ".TryRetry() {\n" +
		indent + "\t\t\treturn 0, true\n" +
		indent + "\t\t}\n" +
		indent + "\t\treturn " + d + ", " + stop + "\n" +
		indent + "\t})\n" +
		indent + "}(" + backoff + ")"
	return append(edits, analysis.TextEdit{Pos: arg.Pos(), End: arg.End(), NewText: []byte(text)}), true
}

// rootNameOf returns the identifier a budget expression's text starts
// with: s in s.inventoryBudget, hostBudgets in hostBudgets.For(c.url).
func rootNameOf(expr string) string {
	end := strings.IndexFunc(expr, func(r rune) bool { return r != '_' && !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if end < 0 {
		return expr
	}
	return expr[:end]
}

// freeName returns base, or base with a number, different from taken:
// the name of a parameter or local of a new function literal that must
// not hide the names its body uses.
func freeName(base string, taken ...string) string {
	name := base
	for i := 1; slices.Contains(taken, name); i++ {
		name = base + strconv.Itoa(i)
	}
	return name
}

// source returns the source text of a node (fixutil.Source), or its
// printed form when the file cannot be read.
func (f *fixer) source(n ast.Node) string {
	if src := fixutil.Source(f.pass, n); src != "" {
		return src
	}
	return types.ExprString(n.(ast.Expr))
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
	if s.Entry != nil && s.Entry.NoHook != "" {
		return s.Entry.NoHook
	}
	switch hook(s) {
	case "":
		return "no fix: " + s.API + " has no hook through which a budget can refuse a retry; guard the operation with a budget check of its own, or use a client with a retry budget (budget/retry's Do)"
	case retryapi.HookCheckRetry:
		return "no fix: the client's CheckRetry cannot be wrapped here (the client is not kept in a variable or field that a statement after it can set, or its CheckRetry is computed by a call)"
	case retryapi.HookCondition:
		return "no fix: resty retries when any of its retry conditions holds, and the function adds one of its own, which would retry what the budget refuses"
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
