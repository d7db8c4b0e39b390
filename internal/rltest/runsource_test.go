package rltest

import (
	"go/ast"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// The in-process driver must type-check standard imports and report, or
// every fuzz target would skip every input and prove nothing.
func TestRunOnSource(t *testing.T) {
	calls := &analysis.Analyzer{
		Name: "calls",
		Doc:  "report each call",
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				ast.Inspect(f, func(n ast.Node) bool {
					if c, ok := n.(*ast.CallExpr); ok {
						pass.Reportf(c.Pos(), "call")
					}
					return true
				})
			}
			return nil, nil
		},
	}
	src := "package p\n\nimport (\n\t\"context\"\n\t\"net/http\"\n\t\"time\"\n)\n\nfunc f(r *http.Request) {\n\tc, cancel := context.WithTimeout(r.Context(), time.Second)\n\tdefer cancel()\n\t_ = c\n}\n"
	diags, err := RunOnSource(src, calls)
	if err != nil || len(diags) != 3 {
		t.Fatalf("RunOnSource = %d diagnostics, %v; want 3, nil", len(diags), err)
	}
	if _, err := RunOnSource("package p\n\nfunc f() int { return \"x\" }\n", calls); err != ErrNotWellTyped {
		t.Errorf("ill-typed source: err %v, want ErrNotWellTyped", err)
	}
}
