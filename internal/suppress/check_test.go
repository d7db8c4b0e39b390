package suppress_test

import (
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/passes/fixedattempts"
	"github.com/retrylint/retrylint/passes/freshtimeout"
)

// TestCheck runs the directives check after fixedattempts and
// freshtimeout: directives without a reason and directives that silence
// nothing are reported, the others are not.
func TestCheck(t *testing.T) {
	check := suppress.Check([]*analysis.Analyzer{fixedattempts.Analyzer, freshtimeout.Analyzer})
	if err := analysis.Validate([]*analysis.Analyzer{check}); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), check, "directives")
}
