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

// TestHeadersFlag checks -nonidempotent.headers: only the listed names
// count, and fixes set the first.
func TestHeadersFlag(t *testing.T) {
	f := nonidempotent.Analyzer.Flags.Lookup("headers")
	old := f.Value.String()
	t.Cleanup(func() { f.Value.Set(old) })
	if err := f.Value.Set("X-Txn-Id, Idempotency-Token"); err != nil {
		t.Fatal(err)
	}
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, nonidempotent.Analyzer, "flagged")
	rltest.GoldenCompiles(t, dir, "flagged")
}

func TestHeadersFlagErrors(t *testing.T) {
	f := nonidempotent.Analyzer.Flags.Lookup("headers")
	old := f.Value.String()
	t.Cleanup(func() { f.Value.Set(old) })
	for _, bad := range []string{"", " , ", "Idempotency Key", "X-Key:1"} {
		if err := f.Value.Set(bad); err == nil {
			t.Errorf("Set(%q): no error", bad)
		}
	}
	if got := f.Value.String(); got != old {
		t.Errorf("after bad values the flag is %q, want %q", got, old)
	}
}
