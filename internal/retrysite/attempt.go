package retrysite

import (
	"go/ast"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
)

// PerAttempt returns the code that runs once per attempt of the site, the
// one answer every pass gives to that question: Body first, then the
// bodies of the function literals that Body calls through a local variable
// (attempt := func() error { ... }; for { err := attempt() ... }), in
// source order. A call started by go or defer runs apart from the
// attempts and does not count. A variable counts when it is declared with
// the literal and never assigned again (nor its address taken); a literal
// called from the code it adds is added too. Nil when Body is nil: the
// operation is not a literal of this package, and the attempts are its
// calls (Attempts).
func (s *Site) PerAttempt() []*ast.BlockStmt {
	if s.perAttempt == nil && s.Body != nil {
		return []*ast.BlockStmt{s.Body} // a site made outside this package
	}
	return s.perAttempt
}

// fillPerAttempt computes PerAttempt for every site.
func (a *analyzer) fillPerAttempt() {
	for _, s := range a.sites {
		if s.Body == nil {
			continue
		}
		s.perAttempt = []*ast.BlockStmt{s.Body}
		seen := map[*ast.BlockStmt]bool{s.Body: true}
		for i := 0; i < len(s.perAttempt); i++ {
			astx.InspectNoLit(s.perAttempt[i], func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.GoStmt, *ast.DeferStmt:
					return false
				case *ast.CallExpr:
					if lit := a.localLit(n.Fun); lit != nil && !seen[lit.Body] {
						seen[lit.Body] = true
						s.perAttempt = append(s.perAttempt, lit.Body)
					}
				}
				return true
			})
		}
	}
}

// localLit returns the function literal that the local variable e names
// holds: the one it is declared with, when it is never assigned again.
func (a *analyzer) localLit(e ast.Expr) *ast.FuncLit {
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	v, ok := a.pass.TypesInfo.Uses[id].(*types.Var)
	if !ok || v.IsField() || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() || a.reassigned(v) {
		return nil
	}
	lit, _ := unparen(a.definingExpr(v)).(*ast.FuncLit)
	return lit
}
