package nonidempotent_test

import (
	"fmt"
	"slices"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/nonidempotent"
)

func TestNonIdempotent(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, nonidempotent.Analyzer,
		"loops", "libs", "clients", "helpers", "helperuse", "perattempt", "negative",
		"crossfunc", "switched", "dispatch", "bookkeeping", "apiclient", "builders", "methodlocal", "retryclient", "restywrap", "restyv3", "holders", "senders", "sdkcall", "sdkopts", "sdkfuncopts", "sdkvalue", "sdkvalueuse", "descriptions", "descuse", "literals", "sdkchain", "sdkconfig", "sdkconfiguse", "sdkconfigkeyed", "sdkmutual")
}

// TestCrossRelated checks where the related information of a request
// built in a function an attempt calls points: the retry site, then the
// call of the attempt that leads to the request.
func TestCrossRelated(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, nonidempotent.Analyzer, "crossfunc")
	want := map[int][]string{
		23:  {"36: retried by this loop", "37: each attempt calls upload here"},
		139: {"170: retried by withRetry", "168: each attempt calls Store here"},
		179: {"184: retried by this loop", "185: each attempt calls chargeOnce here"},
	}
	// The package is analyzed alone and with its tests (a fake of Store
	// in fake_test.go): each diagnostic is checked in both.
	seen := map[int]bool{}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			line := r.Pass.Fset.Position(d.Pos).Line
			w, ok := want[line]
			if !ok {
				continue
			}
			seen[line] = true
			var got []string
			for _, rel := range d.Related {
				got = append(got, fmt.Sprintf("%d: %s", r.Pass.Fset.Position(rel.Pos).Line, rel.Message))
			}
			if !slices.Equal(got, w) {
				t.Errorf("related information of the diagnostic at line %d:\n got %q\nwant %q", line, got, w)
			}
			if len(d.SuggestedFixes) > 0 {
				t.Errorf("the diagnostic at line %d offers a fix across the function boundary", line)
			}
		}
	}
	if len(seen) != len(want) {
		t.Errorf("found %d of the %d diagnostics checked", len(seen), len(want))
	}
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, nonidempotent.Analyzer, "fixloop", "fixclient", "fixpost", "fixhoist", "fixold", "fixsdk")
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
