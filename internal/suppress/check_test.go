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
	check := suppress.Check([]*analysis.Analyzer{fixedattempts.Analyzer, freshtimeout.Analyzer}, []string{"fixedattempts", "freshtimeout"})
	if err := analysis.Validate([]*analysis.Analyzer{check}); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), check, "directives")
}

// TestCheckSwitchedOff runs the check with freshtimeout switched off: a
// directive that names it, or retrylint, is not judged unused (the pass
// that would use it did not run), but one with no reason still is
// reported.
func TestCheckSwitchedOff(t *testing.T) {
	check := suppress.Check([]*analysis.Analyzer{fixedattempts.Analyzer}, []string{"fixedattempts", "freshtimeout"})
	analysistest.Run(t, analysistest.TestData(), check, "switchedoff")
}
