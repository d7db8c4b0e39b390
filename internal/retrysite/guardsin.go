package retrysite

import (
	"go/ast"

	"github.com/retrylint/retrylint/internal/astx"
)

// GuardsIn returns every budget guard called in n, outside nested function
// literals, in source order, for a pass that needs more than a site's
// first guard (a rate limit asked before each attempt may come first and a
// retry budget after the failure), as the analysis that found the sites
// recognises them (its settings, its facts).
func (s *Sites) GuardsIn(n ast.Node) []*Guard {
	a := s.a
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
