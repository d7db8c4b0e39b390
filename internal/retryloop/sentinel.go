package retryloop

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"

	"github.com/retrylint/retrylint/internal/typesx"
)

// This file knows the package's answer sentinels: error variables of the
// package that it makes only when a dependency answered and the answer
// says no (putNewKV: if !txnresp.Succeeded { return 0, ErrKeyExists }).
// A loop that goes round only on one polls for a state or retries a
// conflict; no outage produces it by itself.

// answerSentinel reports whether e names an answer sentinel: a
// package-level error variable of this package every use of which,
// outside comparisons (err == ErrX, errors.Is(err, ErrX), case ErrX), is
// under a condition of the function that tests no error and no status
// (if !resp.Succeeded, if len(items) == 0).
func (a *Definer) answerSentinel(e ast.Expr) bool {
	v, ok := a.objOf(e).(*types.Var)
	if !ok || v.Pkg() != a.pass.Pkg || v.Parent() != a.pass.Pkg.Scope() || !typesx.IsError(v.Type()) {
		return false
	}
	if a.sentinels == nil {
		a.sentinels = a.findAnswerSentinels()
	}
	return a.sentinels[v]
}

// absentErr reports whether e names an error variable that says the
// thing asked for does not exist: io/fs's ErrNotExist (os.ErrNotExist is
// it), or, where no body says how the error is made (another package's,
// or one the package maps from a response's code), an error variable
// whose name says so (ErrNoNode, ErrKeyNotFound, ErrNoSuchKey:
// isAbsentName). Like a 404, it is the answer of a dependency that is up.
func (a *Definer) absentErr(e ast.Expr) bool {
	v, ok := a.objOf(e).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() != v.Pkg().Scope() || !typesx.IsError(v.Type()) {
		return false
	}
	switch v.Pkg().Path() {
	case "io/fs", "os":
		return v.Name() == "ErrNotExist"
	}
	return !typesx.IsStd(v.Pkg().Path()) && isAbsentName(v.Name())
}

// isAbsentName reports whether an error variable's name says that what
// was asked for does not exist.
func isAbsentName(name string) bool {
	for _, w := range []string{"NotFound", "NotExist", "NoNode", "NoSuch", "DoesNotExist"} {
		if strings.Contains(name, w) {
			return true
		}
	}
	return false
}

// findAnswerSentinels classifies the package's error variables once.
func (a *Definer) findAnswerSentinels() map[*types.Var]bool {
	made := map[*types.Var]bool{} // some use makes it
	bad := map[*types.Var]bool{}  // some use makes it where no answer was tested
	for _, f := range a.pass.Files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
			if !ok || v.Pkg() != a.pass.Pkg || v.Parent() != a.pass.Pkg.Scope() || !typesx.IsError(v.Type()) {
				return true
			}
			switch a.sentinelUse(stack) {
			case useCompare:
			case useAnswer:
				made[v] = true
			default:
				made[v] = true
				bad[v] = true
			}
			return true
		})
	}
	out := map[*types.Var]bool{}
	for v := range made {
		if !bad[v] {
			out[v] = true
		}
	}
	return out
}

type sentinelUse uint8

const (
	useOther   sentinelUse = iota // made with no answer tested, or outside a function
	useCompare                    // compared with: err == ErrX, errors.Is(err, ErrX), case ErrX
	useAnswer                     // made under conditions that test an answer only
)

// sentinelUse classifies the use of an error variable at the top of
// stack (the path from the file to the identifier).
func (a *Definer) sentinelUse(stack []ast.Node) sentinelUse {
	id := stack[len(stack)-1]
	if len(stack) >= 2 {
		switch p := stack[len(stack)-2].(type) {
		case *ast.BinaryExpr:
			if p.Op == token.EQL || p.Op == token.NEQ {
				return useCompare
			}
		case *ast.CallExpr:
			if fn := a.callee(p); fn != nil && typesx.PkgPath(fn) == "errors" && (fn.Name() == "Is" || fn.Name() == "As") {
				return useCompare
			}
		case *ast.CaseClause:
			for _, x := range p.List {
				if x == id {
					return useCompare
				}
			}
		case *ast.ValueSpec:
			return useCompare // its declaration
		}
	}
	conds := 0
	for i := len(stack) - 2; i >= 0; i-- {
		switch n := stack[i].(type) {
		case *ast.FuncDecl, *ast.FuncLit:
			if conds == 0 {
				return useOther
			}
			return useAnswer
		case *ast.IfStmt:
			if stack[i+1] == n.Init || stack[i+1] == n.Cond {
				continue
			}
			if !a.answerCond(n.Cond) {
				return useOther
			}
			conds++
		case *ast.CaseClause:
			if len(n.List) == 0 {
				return useOther // default: no answer tested
			}
			for _, x := range n.List {
				if !a.answerCond(x) {
					return useOther
				}
			}
			conds++
		case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.CommClause:
			if sw, ok := n.(*ast.SwitchStmt); ok && sw.Tag != nil && !a.answerCond(sw.Tag) {
				return useOther
			}
			if _, ok := n.(*ast.SwitchStmt); !ok {
				return useOther
			}
		}
	}
	return useOther
}

// answerCond reports whether a condition tests an answer: it mentions no
// error value, no response status and no call that can fail.
func (a *Definer) answerCond(cond ast.Expr) bool {
	ok := true
	ast.Inspect(cond, func(n ast.Node) bool {
		if !ok {
			return false
		}
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SelectorExpr:
			if isStatusName(n.Sel.Name) {
				ok = false
			}
		case *ast.CallExpr:
			if a.resultsError(n) {
				ok = false
			}
		case ast.Expr:
			if t := a.pass.TypesInfo.TypeOf(n); t != nil && typesx.IsError(t) && !a.isNil(n) {
				ok = false
			}
		}
		return ok
	})
	return ok
}
