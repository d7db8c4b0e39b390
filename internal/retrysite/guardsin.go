package retrysite

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/astx"
)

// GuardsIn returns every budget guard called in n, outside nested function
// literals, in source order, for a pass that needs more than a site's
// first guard (a rate limit asked before each attempt may come first and a
// retry budget after the failure). pass is the calling pass: functions
// known as budget checks only through a GuardFact of another package are
// not found, since facts belong to the analyzer that exports them.
// The guards are recognised with the settings of the analysis that found
// the sites.
func (s *Sites) GuardsIn(pass *analysis.Pass, n ast.Node) []*Guard {
	a := &analyzer{pass: pass, methods: s.methods, funcs: s.funcs}
	var gs []*Guard
	astx.InspectNoLit(n, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if g := a.guardOf(call); g != nil {
				gs = append(gs, g)
			}
		}
		return true
	})
	return gs
}
