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
