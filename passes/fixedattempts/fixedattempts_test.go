package fixedattempts_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/fixedattempts"
)

func TestFixedAttempts(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, fixedattempts.Analyzer, "loops", "libs", "negative", "nofix", "helpers")
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, fixedattempts.Analyzer, "fix", "fixnew")
	rltest.GoldenCompiles(t, dir)
}
