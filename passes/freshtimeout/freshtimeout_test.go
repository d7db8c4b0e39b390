package freshtimeout_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/freshtimeout"
)

func TestFreshTimeout(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, freshtimeout.Analyzer,
		"params", "literals", "handlers", "variables", "imports", "dotimport", "negative")
}
