package retrysite_test

import (
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
)

// TestPackageLevel covers sites outside any function (a crash once).
func TestPackageLevel(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, show, "pkglevel")
}
