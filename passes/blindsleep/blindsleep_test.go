package blindsleep_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/blindsleep"
)

func TestBlindSleep(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, blindsleep.Analyzer, "loops", "negative", "sleeper", "sleepuse")
	// Every diagnostic points at the inherited context, and a loop's
	// other blind waits follow it.
	n, others := 0, 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			for _, rel := range d.Related[1:] {
				if strings.HasPrefix(rel.Message, "and waits with <-time.After here") {
					others++
				}
			}
			if len(d.Related) == 0 || !strings.HasSuffix(d.Related[0].Message, " inherited here") {
				t.Errorf("%v: related %+v, want the inherited context", r.Pass.Fset.Position(d.Pos), d.Related)
			}
		}
	}
	if n == 0 || others != 1 {
		t.Fatalf("%d diagnostics, %d with a second wait related; want some, and 1", n, others)
	}
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, blindsleep.Analyzer, "fix")
	rltest.GoldenCompiles(t, dir)
}

// TestNoFix wants the cases of nofix reported without a fix that
// reaches the user (the driver drops those that edit a generated file).
func TestNoFix(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	for _, r := range analysistest.Run(t, dir, blindsleep.Analyzer, "nofix") {
		for _, d := range r.Diagnostics {
			if fixes := driver.KeptFixes(r.Pass.Fset, r.Pass.Files, d.SuggestedFixes); len(fixes) > 0 {
				t.Errorf("%v: a fix %q for %q", r.Pass.Fset.Position(d.Pos), fixes[0].Message, d.Message)
			}
		}
	}
}
