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
		"params", "callerdeps", "negative")
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

// TestCallers checks the related information of budgets and dependencies
// known through the callers (each use points at the caller's call), and
// that they get no fix: one expression serves several dependencies.
func TestCallers(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, sharedbudget.Analyzer, "params", "callerdeps")
	want := map[string][]string{
		"postBudget": {"35: guards retries to inventory.internal through post", "39: guards retries to payments.internal through post"},
		"b":          {"52: guards retries to inventory through retryBoth", "52: guards retries to payments through retryBoth"},
	}
	seen := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			if len(d.SuggestedFixes) > 0 {
				t.Errorf("%s: %q offers a fix", r.Pass.Fset.Position(d.Pos), d.Message)
			}
			name := strings.Fields(d.Message)[2]
			w, ok := want[name]
			if !ok || r.Pass.Pkg.Path() == "callerdeps" && name == "b" {
				continue
			}
			seen++
			var got []string
			for _, rel := range d.Related {
				got = append(got, fmt.Sprintf("%d: %s", r.Pass.Fset.Position(rel.Pos).Line, rel.Message))
			}
			if !slices.Equal(got, w) {
				t.Errorf("related information of %q:\n got %q\nwant %q", d.Message, got, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("checked %d diagnostics, want %d", seen, len(want))
	}
}
