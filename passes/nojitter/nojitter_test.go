package nojitter_test

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/nojitter"
)

func TestNoJitter(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, nojitter.Analyzer, "loops", "negative", "delayuse", "libs", "libsneg", "libshapes")
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, nojitter.Analyzer, "fix", "fixold")
	rltest.GoldenCompiles(t, dir)
}

// TestGoVersion runs the pass on a module whose go.mod says go 1.20:
// math/rand and no max, so only a positive constant wait is jittered.
func TestGoVersion(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	mod := filepath.Join(dir, "src", "oldgo")
	fixed := 0
	for _, r := range analysistest.RunWithSuggestedFixes(t, mod, nojitter.Analyzer, "oldgo") {
		for _, d := range r.Diagnostics {
			fixed += len(d.SuggestedFixes)
		}
	}
	if fixed != 1 {
		t.Errorf("%d fixes, want 1 (the constant wait)", fixed)
	}
}

// TestNoFix wants the cases of nofix reported without a fix that
// reaches the user (the driver drops those that edit a generated file).
func TestNoFix(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	for _, r := range analysistest.Run(t, dir, nojitter.Analyzer, "nofix") {
		for _, d := range r.Diagnostics {
			if fixes := driver.KeptFixes(r.Pass.Fset, r.Pass.Files, d.SuggestedFixes); len(fixes) > 0 {
				t.Errorf("%v: a fix %q for %q", r.Pass.Fset.Position(d.Pos), fixes[0].Message, d.Message)
			}
		}
	}
}
