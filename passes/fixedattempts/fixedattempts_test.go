package fixedattempts_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/fixedattempts"
)

func TestFixedAttempts(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, fixedattempts.Analyzer, "loops", "libs", "negative", "nofix")
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, fixedattempts.Analyzer, "fix", "fixnew", "shapes")
	rltest.GoldenCompiles(t, dir)
}

// TestFixesBehave runs the fixed shapes against a fake dependency: a
// refused retry returns what the loop returns after its last attempt, the
// attempts stay near 1 + the budget's ratio, every body is closed, and a
// healthy dependency sees no change.
func TestFixesBehave(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	rltest.Behave(t, dir, "shapes", filepath.Join(analysistest.TestData(), "behave", "shapes.go"))
}
