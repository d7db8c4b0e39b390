package sharedbudget_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/sharedbudget"
)

func TestSharedBudget(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, sharedbudget.Analyzer,
		"pkgvar", "field", "helper", "registry", "limiter", "owntype", "hosts", "imported", "awsshared",
		"negative")
	// Each diagnostic points at every use of the budget.
	for _, r := range results {
		if r.Pass.Pkg.Path() != "pkgvar" {
			continue
		}
		for _, d := range r.Diagnostics {
			if !strings.Contains(d.Message, "defaultBudget") {
				continue
			}
			var got []string
			for _, rel := range d.Related {
				got = append(got, fmt.Sprintf("%d: %s", r.Pass.Fset.Position(rel.Pos).Line, rel.Message))
			}
			want := []string{"28: guards retries to inventory", "39: guards retries to payments", "51: guards retries to inventory"}
			if !slices.Equal(got, want) {
				t.Errorf("related information of %q:\n got %q\nwant %q", d.Message, got, want)
			}
		}
	}
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, sharedbudget.Analyzer, "fixvar", "fixfield", "fixregistry", "fixaws", "nofix")
	rltest.GoldenCompiles(t, dir)
}
