package inherit_test

import (
	"go/ast"
	"go/types"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/inherit"
	"github.com/retrylint/retrylint/internal/rltest"
)

// show reports, at every call of a function named here, the context the
// code there inherited.
var show = &analysis.Analyzer{
	Name:     "show",
	Doc:      "report inherited contexts",
	Requires: []*analysis.Analyzer{inspect.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		insp := pass.ResultOf[inspect.Analyzer].(*inspector.Inspector)
		for cur := range insp.Root().Preorder((*ast.CallExpr)(nil)) {
			call := cur.Node().(*ast.CallExpr)
			if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "here" {
				continue
			}
			p := inherit.Of(pass.TypesInfo, cur)
			if p == nil {
				pass.Reportf(call.Pos(), "none")
				continue
			}
			at := "unnamed"
			if p.Var != nil {
				at = types.ObjectString(p.Var, nil)
			}
			pass.Reportf(call.Pos(), "%s (%s)", p.Describe(), at)
		}
		return nil, nil
	},
}

func TestOf(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, show, "inherit")
}
