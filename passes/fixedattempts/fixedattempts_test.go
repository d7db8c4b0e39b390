package fixedattempts_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/fixedattempts"
	"github.com/retrylint/retrylint/passes/sharedbudget"
)

func TestFixedAttempts(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, fixedattempts.Analyzer, "loops", "libs", "negative", "nofix", "helpers", "nofixdeps", "libnofix", "calldeps", "exported/outside", "polls")
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, fixedattempts.Analyzer, "fix", "fixnew", "shapes", "perdep", "libfix", "exported", "optcall")
	rltest.GoldenCompiles(t, dir)
}

// TestFixesBehave runs the fixed shapes against a fake dependency: a
// refused retry returns what the loop returns after its last attempt, the
// attempts stay near 1 + the budget's ratio, every body is closed, and a
// healthy dependency sees no change.
func TestFixesBehave(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	for _, pkg := range []string{"shapes", "perdep", "libfix", "exported", "optcall"} {
		t.Run(pkg, func(t *testing.T) {
			rltest.Behave(t, dir, pkg, filepath.Join(analysistest.TestData(), "behave", pkg+".go"))
		})
	}
}

// TestFixesShareNoBudget checks the fix contract on the code as the fixes
// leave it: sharedbudget reports nothing it did not report before (no fix
// makes two dependencies share a budget), and fixedattempts reports only
// the sites that had no fix (a fixed site is budgeted on every path).
func TestFixesShareNoBudget(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	fixed := rltest.FixedTree(t, dir)
	pkgs := []string{"fix", "fixnew", "shapes", "perdep", "libfix", "exported", "optcall"}
	key := func(d rltest.Diag) string { return strings.SplitN(d.Posn, ":", 2)[0] + ": " + d.Message }
	before := map[string]int{}
	for _, d := range rltest.Diagnostics(t, dir, sharedbudget.Analyzer, pkgs...) {
		before[key(d)]++
	}
	for _, d := range rltest.Diagnostics(t, fixed, sharedbudget.Analyzer, pkgs...) {
		if before[key(d)] == 0 {
			t.Errorf("after the fixes, sharedbudget: %s", d)
			continue
		}
		before[key(d)]--
	}
	unfixed := map[string]int{}
	n := 0
	for _, d := range rltest.Diagnostics(t, dir, fixedattempts.Analyzer, pkgs...) {
		if !d.Fix {
			unfixed[key(d)]++
		} else {
			n++
		}
	}
	if n < 20 {
		t.Errorf("%d diagnostics with a fix: the test checks too little", n)
	}
	for _, d := range rltest.Diagnostics(t, fixed, fixedattempts.Analyzer, pkgs...) {
		if unfixed[key(d)] == 0 {
			t.Errorf("after the fixes, fixedattempts still reports: %s", d)
			continue
		}
		unfixed[key(d)]--
	}
}

// TestNoFix checks that the loops no fix can keep the behaviour of, or
// name the budget of, are reported without one.
func TestNoFix(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	diags := rltest.Diagnostics(t, dir, fixedattempts.Analyzer, "nofix", "nofixdeps", "libnofix")
	if len(diags) != 39 {
		t.Errorf("%d diagnostics, want the 39 retry sites of nofix, nofixdeps and libnofix", len(diags))
	}
	for _, d := range diags {
		if d.Fix {
			t.Errorf("%s: offers a fix", d)
		}
		why := 0
		for _, r := range d.Related {
			if strings.HasPrefix(r, "no fix: ") {
				why++
			}
		}
		if why != 1 {
			t.Errorf("%s: %d related lines say why there is no fix, want 1: %q", d, why, d.Related)
		}
	}
	// A retry helper's reason names the use that stops its fix.
	reasons := map[string]string{
		"nofixdeps/nofixdeps.go:70":  "no fix: the retry helper is used as a value at nofixdeps.go:79, where no budget can be passed to it",
		"nofixdeps/nofixdeps.go:85":  "no fix: the dependency of the retry helper's call at nofixdeps.go:94 is not known, so no budget can be passed for it",
		"nofixdeps/nofixdeps.go:106": "no fix: the loop leaves only when an attempt succeeds or it is stopped, and its function returns nothing that could carry the failure: a refused retry could only stop it for good",
		"nofixdeps/nofixdeps.go:122": "no fix: there is no place where a refused retry ends the retrying the way the last attempt does",
		"nofixdeps/nofixdeps.go:143": "no fix: the retry helper is a function literal, which cannot take a budget parameter from its callers",
		"nofixdeps/nofixdeps.go:162": "no fix: the retry helper is a function literal, which cannot take a budget parameter from its callers",
		"nofixdeps/nofixdeps.go:180": "no fix: there is no place where a refused retry ends the retrying the way the last attempt does",
		"nofixdeps/nofixdeps.go:198": "no fix: the attempts' dependency is not known, so no budget can be named after it",
		"nofixdeps/nofixdeps.go:222": "no fix: the attempts' dependency is not known, so no budget can be named after it",
		"nofixdeps/nofixdeps.go:240": "no fix: the attempts' dependency is not known, so no budget can be named after it",
		"nofixdeps/nofixdeps.go:252": "no fix: the attempts' dependency is not known, so no budget can be named after it",
		"nofixdeps/nofixdeps.go:321": "no fix: the loop also goes round on an answer that is not yet what it waits for, no failure of the dependency, and a budget asked where the paths meet would refuse those polls too",
		"nofixdeps/nofixdeps.go:336": "no fix: the attempts' dependency is not known, so no budget can be named after it",
		"nofixdeps/nofixdeps.go:349": "no fix: the loop leaves only when an attempt succeeds or it is stopped, and its function returns nothing that could carry the failure: a refused retry could only stop it for good",
		"nofixdeps/nofixdeps.go:293": "no fix: the attempt is made in a goroutine that reports over channels, where the fixer places no guard yet",
		"nofixdeps/nofixdeps.go:402": "no fix: the attempts' dependency is not known, so no budget can be named after it",
		"nofixdeps/nofixdeps.go:378": "no fix: the attempts' dependency is not known, so no budget can be named after it",
		"nofixdeps/nofixdeps.go:273": "no fix: the loop leaves only when an attempt succeeds or it is stopped, and its function returns nothing that could carry the failure: a refused retry could only stop it for good",
	}
	for _, d := range diags {
		want, ok := reasons[d.Posn]
		if !ok {
			continue
		}
		delete(reasons, d.Posn)
		if !slices.Contains(d.Related, want) {
			t.Errorf("%s: related %q, want %q", d, d.Related, want)
		}
	}
	for posn := range reasons {
		t.Errorf("%s: no diagnostic", posn)
	}
}

// TestExportedHelperCallers checks the calls of fixed exported retry
// helpers from another package: they compile as they are, and, passing no
// budget, are reported at the call (the helper's loop is budgeted now),
// with a fix that passes their own dependency's budget (optcall's golden
// shows it).
func TestExportedHelperCallers(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	if d := rltest.Diagnostics(t, dir, fixedattempts.Analyzer, "exported/outside"); len(d) != 0 {
		t.Errorf("before the fixes, the calls are reported: %v", d)
	}
	fixed := rltest.FixedTree(t, dir)
	var got []string
	for _, d := range rltest.Diagnostics(t, fixed, fixedattempts.Analyzer, "exported/outside") {
		got = append(got, d.String())
		if !d.Fix {
			t.Errorf("%s: no fix", d)
		}
	}
	want := []string{
		"exported/outside/outside.go:19: exported.Retry is given no retry budget: its retries (3 attempts) are unbudgeted, and a failing dependency gets every one of them",
		"exported/outside/outside.go:23: exported.Do is given no retry budget: its retries (2 attempts) are unbudgeted, and a failing dependency gets every one of them",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("after the fixes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestCallDeps checks the related lines of a retry helper's finding: each
// call names the dependency it retries, qualified by its owner where two
// dependencies share a name (as the audit names them), short otherwise; a
// local variable by its name, never by a position that changes from run
// to run.
func TestCallDeps(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	diags := rltest.Diagnostics(t, dir, fixedattempts.Analyzer, "calldeps")
	if len(diags) != 1 {
		t.Fatalf("%d diagnostics, want the helper's loop: %v", len(diags), diags)
	}
	var calls []string
	for _, r := range diags[0].Related {
		if strings.HasPrefix(r, "called here") {
			calls = append(calls, r)
		}
	}
	want := []string{"called here: retries calldeps.Orders.client", "called here: retries calldeps.Tools.client", "called here: retries store",
		"called here: retries l, conn", "called here: retries l, conn"}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("related lines of the calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
}
