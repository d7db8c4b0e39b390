package fixedattempts

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retrysite"
)

// The HTTP client libraries retry inside the client, for every request it
// sends, to whatever host the request names: their sites are the client's
// construction, and the budget a fix gives one is the client's own, made
// beside it (a client is made once per dependency it serves; a budget
// shared by the package would be shared by every client of it). Each hook
// asks the budget when the library would retry, and deposits when a
// request's retrying ends (a success, a failure the library does not
// retry, or a refusal): the hooks see no request start. A request whose
// retries all run out deposits nothing and spends a token on the retry
// that does not follow, so the budget errs toward refusing.
//
//   - go-retryablehttp: the client's CheckRetry wraps the policy in use
//     (the one the function sets, else retryablehttp.DefaultRetryPolicy;
//     for a client literal, the one the literal sets).
//     A refusal answers no retry with an error: the policy's, or, for a
//     status the policy retries with no error, one naming the status, so
//     that Do closes the response and fails as after its last attempt
//     instead of returning the 503 as a success.
//   - resty v2: a retry condition that retries a failed request while the
//     budget allows. resty retries when any condition holds, so the fix is
//     offered only where the function adds no condition of its own.
//
// resty.dev/v3 and failsafe-go get no hook fix (see httpHook).

// httpHook names the hook an HTTP client library site is fixed through
// (retryapi.HookCheckRetry, retryapi.HookCondition), or "" for none.
// resty.dev/v3 retries a request when its default conditions or any added
// one holds, so no condition can refuse a retry; a failsafe-go policy
// serves whatever calls run with it, its AbortIf ends the retries with the
// last error where the policy returns retrypolicy.ExceededError, and its
// WithBudget limits concurrent retries, not a share of the requests, and
// refuses with its own error: neither has a hook (the retryapi entries'
// NoHook says so in the finding).
func httpHook(s *retrysite.Site) string {
	switch s.Node.(type) {
	case *ast.CallExpr, *ast.CompositeLit:
	default:
		return ""
	}
	if s.Func == nil {
		return ""
	}
	switch h := hook(s); h {
	case retryapi.HookCheckRetry, retryapi.HookCondition:
		return h
	}
	return ""
}

// httpLibraryFix fixes an HTTP client library site through its hook, or
// returns nil.
func (f *fixer) httpLibraryFix(file *ast.File, s *retrysite.Site) *analysis.SuggestedFix {
	hook := httpHook(s)
	if hook == "" {
		return nil
	}
	if lit, ok := s.Node.(*ast.CompositeLit); ok {
		return f.literalCheckRetryFix(file, s, lit)
	}
	if !f.canImport {
		return f.decline(s, whyNoBudget)
	}
	call := s.Node.(*ast.CallExpr)
	stmt := enclosingStmt(astx.FuncBody(s.Func), call)
	if stmt == nil {
		return nil
	}
	switch hook {
	case retryapi.HookCheckRetry:
		return f.checkRetryFix(file, s, call, stmt)
	case retryapi.HookCondition:
		return f.conditionFix(file, s, call, stmt)
	}
	return nil
}

// clientBudget returns the name of a new budget of the client x, free at
// pos, and the edits that import the budget package.
func (f *fixer) clientBudget(file *ast.File, x ast.Expr, pos token.Pos) (name, pkg string, edits []analysis.TextEdit) {
	base := "client"
	switch x := ast.Unparen(x).(type) {
	case *ast.Ident:
		base = x.Name
	case *ast.SelectorExpr:
		base = x.Sel.Name
	}
	name = fixutil.FreshName(f.pass.TypesInfo, file, pos, fixutil.IdentName(base)+"Budget")
	pkg, edits = fixutil.AddImport(f.pass, file, retryapi.BudgetPath, file.Package)
	return name, pkg, edits
}

// checkRetryFix gives a go-retryablehttp client made by NewClient and kept
// in a variable or field (c := retryablehttp.NewClient(), var c =
// retryablehttp.NewClient(), or a keyed field of a literal so kept: a :=
// &api{hc: retryablehttp.NewClient()}) a CheckRetry that asks a budget of
// its own, set on the line after the statement. A CheckRetry the function sets is
// wrapped, when it is a name or a function literal; otherwise the fix
// sets one that wraps DefaultRetryPolicy after the client is made.
func (f *fixer) checkRetryFix(file *ast.File, s *retrysite.Site, call *ast.CallExpr, stmt ast.Stmt) *analysis.SuggestedFix {
	// The statement keeps the client: it assigns the call, or a literal
	// holding it in a keyed field, and nothing else.
	switch st := stmt.(type) {
	case *ast.AssignStmt:
		if len(st.Lhs) != 1 || len(st.Rhs) != 1 {
			return nil
		}
	case *ast.DeclStmt:
		if gd := st.Decl.(*ast.GenDecl); len(gd.Specs) != 1 || len(gd.Specs[0].(*ast.ValueSpec).Names) != 1 {
			return nil
		}
	default:
		return nil
	}
	if s.Kept == nil {
		return nil
	}
	client := s.Kept
	switch c := ast.Unparen(client).(type) {
	case *ast.Ident:
		if c.Name == "_" {
			return nil
		}
	case *ast.SelectorExpr:
	default:
		return nil
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	lib, ok := ast.Unparen(sel.X).(*ast.Ident)
	if !ok {
		return nil
	}
	// The CheckRetry the function sets, if any: the last assignment.
	var set *ast.AssignStmt
	var bad bool
	want := types.ExprString(client)
	astx.InspectNoLit(astx.FuncBody(s.Func), func(n ast.Node) bool {
		a, ok := n.(*ast.AssignStmt)
		if !ok {
			return true
		}
		for _, l := range a.Lhs {
			if x, ok := ast.Unparen(l).(*ast.SelectorExpr); ok && x.Sel.Name == "CheckRetry" && types.ExprString(x.X) == want {
				if len(a.Lhs) != 1 || len(a.Rhs) != 1 || set != nil || a.Pos() < stmt.End() {
					bad = true
				}
				set = a
			}
		}
		return true
	})
	if bad {
		return nil
	}
	policy := lib.Name + ".DefaultRetryPolicy"
	at, indent := stmt.End(), fixutil.Indent(f.pass, file, stmt.Pos())
	var edits []analysis.TextEdit
	if set != nil {
		v := ast.Unparen(set.Rhs[0])
		switch v.(type) {
		case *ast.Ident, *ast.SelectorExpr:
			policy = f.source(v)
		case *ast.FuncLit:
			policy = "(" + f.source(v) + ")"
		default:
			return nil // evaluated once; a wrapper would evaluate it on every attempt
		}
		// The assignment is replaced by the wrapper.
		at = set.Pos()
		indent = fixutil.Indent(f.pass, file, set.Pos())
		edits = append(edits, analysis.TextEdit{Pos: set.Pos(), End: set.End()})
	}
	name, pkg, imp := f.clientBudget(file, client, at)
	edits = append(edits, imp...)
	wrapper, imp := f.checkRetryWrapper(file, at, indent, name, policy)
	edits = append(edits, imp...)
	text := name + " := " + pkg + ".New()\n" +
		indent + types.ExprString(client) + ".CheckRetry = " + wrapper
	if set == nil {
		// On the line after the client's, after any comment that ends it.
		tf := f.pass.Fset.File(stmt.End())
		line := tf.Line(stmt.End())
		if line >= tf.LineCount() {
			return nil
		}
		at = tf.LineStart(line + 1)
		text = indent + text + "\n"
	}
	edits = append(edits, analysis.TextEdit{Pos: at, End: at, NewText: []byte(text)})
	sortEdits(edits)
	return &analysis.SuggestedFix{Message: "Guard the client's retries with a new retry budget " + name + " in its CheckRetry", TextEdits: edits}
}

// checkRetryWrapper returns a CheckRetry, as a function literal whose
// lines after the first are indented by indent, that asks the budget
// name when policy would retry: an allowed retry goes ahead; a refusal,
// and any answer of no retry, deposits the request's share, and a refused
// retry of a status the policy retries with no error gets an error naming
// the status, so that Do closes the response and fails as after its last
// attempt. The edits import what the literal names.
func (f *fixer) checkRetryWrapper(file *ast.File, at token.Pos, indent, name, policy string) (string, []analysis.TextEdit) {
	var edits []analysis.TextEdit
	ctxName, imp := fixutil.AddImport(f.pass, file, "context", at)
	edits = append(edits, imp...)
	httpName, imp := fixutil.AddImport(f.pass, file, "net/http", at)
	edits = append(edits, imp...)
	fmtName, imp := fixutil.AddImport(f.pass, file, "fmt", at)
	edits = append(edits, imp...)
	text := "func(ctx " + ctxName + ".Context, resp *" + httpName + ".Response, err error) (bool, error) {\n" +
		indent + "\tretry, checkErr := " + policy + "(ctx, resp, err)\n" +
		indent + "\tif retry && " + name + ".TryRetry() {\n" +
		indent + "\t\treturn true, checkErr\n" +
		indent + "\t}\n" +
		indent + "\t" + name + ".OnRequest()\n" +
		indent + "\tif retry && checkErr == nil && err == nil && resp != nil {\n" +
		indent + "\t\tcheckErr = " + fmtName + `.Errorf("unexpected status: %s", resp.Status)` + "\n" +
		indent + "\t}\n" +
		indent + "\treturn false, checkErr\n" +
		indent + "}"
	return text, edits
}

// literalCheckRetryFix gives a go-retryablehttp client literal
// (&retryablehttp.Client{RetryMax: 3, CheckRetry: policy, ...}) a
// CheckRetry that wraps its own and asks a budget made before the
// statement. A literal must set CheckRetry (Do calls it: a literal
// without one panics on its first request), as a name or a function
// literal: a call would make a policy on every attempt instead of once.
// A client that the function making it also sends with is made for each
// request, and a budget made beside it would start full each time: no
// fix.
func (f *fixer) literalCheckRetryFix(file *ast.File, s *retrysite.Site, lit *ast.CompositeLit) *analysis.SuggestedFix {
	body := astx.FuncBody(s.Func)
	stmt := enclosingStmt(body, lit)
	if stmt == nil {
		return nil
	}
	var value ast.Expr
	for _, e := range lit.Elts {
		if kv, ok := e.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "CheckRetry" {
				value = kv.Value
			}
		}
	}
	if value == nil {
		return f.decline(s, "no fix: the client literal sets no CheckRetry, which Do calls on every attempt; set one (retryablehttp.DefaultRetryPolicy) and run again")
	}
	var policy string
	switch v := ast.Unparen(value).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		policy = f.source(v)
	case *ast.FuncLit:
		policy = "(" + f.source(v) + ")"
	default:
		return f.decline(s, "no fix: the client literal's CheckRetry is computed by a call, which a wrapper would repeat on every attempt; keep the policy in a variable")
	}
	// The client: the variable or field it is kept in, else the literal
	// itself, for the budget's name.
	var client ast.Expr = lit
	if as, ok := stmt.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && len(as.Rhs) == 1 && unaddr(as.Rhs[0]) == lit {
		client = as.Lhs[0]
		if f.sendsWith(body, client) {
			return f.decline(s, "no fix: the function that makes the client sends with it, so the client is made for each request and a budget made beside it would start full every time; make the client once (a field or a package variable) and run again")
		}
	} else {
		// A keyed field of a literal (Vault{retrying: &retryablehttp.Client{...}}):
		// the budget is named after the field.
		ast.Inspect(stmt, func(n ast.Node) bool {
			if kv, ok := n.(*ast.KeyValueExpr); ok && unaddr(kv.Value) == lit {
				if k, ok := kv.Key.(*ast.Ident); ok {
					client = k
				}
			}
			return client == ast.Expr(lit)
		})
	}
	if !f.canImport {
		return f.decline(s, whyNoBudget)
	}
	name, pkg, edits := f.clientBudget(file, client, stmt.Pos()) // a bare literal's is clientBudget
	indent := fixutil.Indent(f.pass, file, stmt.Pos())
	edits = append(edits, analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(name + " := " + pkg + ".New()\n" + indent)})
	wrapper, imp := f.checkRetryWrapper(file, stmt.Pos(), fixutil.Indent(f.pass, file, value.Pos()), name, policy)
	edits = append(edits, imp...)
	edits = append(edits, analysis.TextEdit{Pos: value.Pos(), End: value.End(), NewText: []byte(wrapper)})
	sortEdits(edits)
	return &analysis.SuggestedFix{Message: "Guard the client's retries with a new retry budget " + name + " in its CheckRetry", TextEdits: edits}
}

// unaddr returns x without parentheses and a leading &.
func unaddr(x ast.Expr) ast.Expr {
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		return ast.Unparen(u.X)
	}
	return x
}

// sendsWith reports whether body calls a method of the client kept in
// x (x.Do(req), x.Get(url)): the client is made where it is used.
func (f *fixer) sendsWith(body *ast.BlockStmt, x ast.Expr) bool {
	want := types.ExprString(x)
	found := false
	astx.InspectNoLit(body, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if sel, ok := ast.Unparen(c.Fun).(*ast.SelectorExpr); ok && types.ExprString(sel.X) == want {
				if fn, ok := f.pass.TypesInfo.Uses[sel.Sel].(*types.Func); ok && fn.Signature().Recv() != nil {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// conditionFix gives a resty v2 client whose retries SetRetryCount turns
// on a retry condition that asks a budget of its own, made before the
// statement: c := resty.New().SetRetryCount(3).AddRetryCondition(...).
// The function must add no retry condition itself (resty retries when any
// holds).
func (f *fixer) conditionFix(file *ast.File, s *retrysite.Site, call *ast.CallExpr, stmt ast.Stmt) *analysis.SuggestedFix {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	fn := callee(f.pass, call)
	var other bool
	astx.InspectNoLit(astx.FuncBody(s.Func), func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if g := callee(f.pass, c); g != nil && g.Pkg() == fn.Pkg() && strings.HasPrefix(g.Name(), "AddRetry") {
				other = true
			}
		}
		return !other
	})
	if other {
		return nil
	}
	// The budget is named after the variable or field that keeps the
	// client, or the receiver of the call.
	client := sel.X
	if st, ok := stmt.(*ast.AssignStmt); ok && len(st.Lhs) == 1 && len(st.Rhs) == 1 {
		if id, ok := ast.Unparen(st.Lhs[0]).(*ast.Ident); !ok || id.Name != "_" {
			client = st.Lhs[0]
		}
	}
	// The resty package's name in this file.
	lib := ""
	for _, spec := range file.Imports {
		if strings.Trim(spec.Path.Value, "`\"") != fn.Pkg().Path() {
			continue
		}
		if spec.Name != nil {
			lib = spec.Name.Name
		} else if pn, ok := f.pass.TypesInfo.Implicits[spec].(*types.PkgName); ok {
			lib = pn.Name()
		}
	}
	if lib == "" || lib == "_" || lib == "." {
		return nil
	}
	name, pkg, edits := f.clientBudget(file, client, stmt.Pos())
	indent := fixutil.Indent(f.pass, file, stmt.Pos())
	edits = append(edits, analysis.TextEdit{Pos: stmt.Pos(), End: stmt.Pos(), NewText: []byte(name + " := " + pkg + ".New()\n" + indent)})
	cond := ".AddRetryCondition(func(_ *" + lib + ".Response, err error) bool {\n" +
		indent + "\tif err != nil && " + name + ".TryRetry() {\n" +
		indent + "\t\treturn true\n" +
		indent + "\t}\n" +
		indent + "\t" + name + ".OnRequest()\n" +
		indent + "\treturn false\n" +
		indent + "})"
	edits = append(edits, analysis.TextEdit{Pos: call.End(), End: call.End(), NewText: []byte(cond)})
	sortEdits(edits)
	return &analysis.SuggestedFix{Message: "Guard the client's retries with a new retry budget " + name + " in a retry condition", TextEdits: edits}
}
