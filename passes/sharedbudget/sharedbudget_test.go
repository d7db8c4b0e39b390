package sharedbudget_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/sharedbudget"
)

func TestSharedBudget(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, sharedbudget.Analyzer,
		"pkgvar", "field", "helper", "registry", "limiter", "owntype", "hosts", "imported", "awsshared",
		"negative")
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, sharedbudget.Analyzer, "fixvar", "fixfield", "fixregistry", "fixaws", "nofix")
	rltest.GoldenCompiles(t, dir)
}
