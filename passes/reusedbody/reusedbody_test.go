package reusedbody_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/reusedbody"
)

func TestReusedBody(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, reusedbody.Analyzer, "loops", "libs", "negative")
	// Every diagnostic points at the send, after the construction.
	n := 0
	for _, r := range results {
		fset := r.Pass.Fset
		for _, d := range r.Diagnostics {
			n++
			if len(d.Related) != 1 || !strings.HasPrefix(d.Related[0].Message, "sent again here") || fset.Position(d.Related[0].Pos).Line <= fset.Position(d.Pos).Line {
				t.Errorf("%v: related %+v, want the send after the construction", fset.Position(d.Pos), d.Related)
			}
		}
	}
	if n == 0 {
		t.Fatal("no diagnostics")
	}
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, reusedbody.Analyzer, "fix")
	rltest.GoldenCompiles(t, dir)
}

// TestNoFix wants the cases of nofix reported without a fix that
// reaches the user (the driver drops those that edit a generated file).
func TestNoFix(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	for _, r := range analysistest.Run(t, dir, reusedbody.Analyzer, "nofix") {
		for _, d := range r.Diagnostics {
			if fixes := driver.KeptFixes(r.Pass.Fset, r.Pass.Files, d.SuggestedFixes); len(fixes) > 0 {
				t.Errorf("%v: a fix %q for %q", r.Pass.Fset.Position(d.Pos), fixes[0].Message, d.Message)
			}
		}
	}
}
