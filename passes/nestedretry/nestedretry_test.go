package nestedretry_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/nestedretry"
)

// The cross-package cases (27, 64, 1.33, shared helpers) are in
// analysistest/, over a module of four packages.
func TestNestedRetry(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, nestedretry.Analyzer, "nested")
}
