package nonidempotent_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/nonidempotent"
)

func TestNonIdempotent(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, nonidempotent.Analyzer,
		"loops", "libs", "clients", "helpers", "helperuse", "perattempt", "negative")
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, nonidempotent.Analyzer, "fixloop", "fixclient", "fixpost", "fixhoist", "fixold")
	rltest.GoldenCompiles(t, dir)
}
