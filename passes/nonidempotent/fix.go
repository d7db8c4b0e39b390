package nonidempotent

import (
	"go/ast"

	"golang.org/x/tools/go/analysis"
)

func (c *checker) keyFix(r *request, rt *retry) *analysis.SuggestedFix { return nil }

func (c *checker) hoistFix(r *request, rt *retry, k keyEvent, g *ast.CallExpr) *analysis.SuggestedFix {
	return nil
}
