package freshtimeout_test

import (
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/freshtimeout"
)

func TestAnalyzer(t *testing.T) {
	a := freshtimeout.Analyzer
	if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
		t.Fatal(err)
	}
	summary, _, _ := strings.Cut(a.Doc, "\n")
	if summary == "" || len(summary) > 60 || strings.HasSuffix(summary, ".") {
		t.Errorf("summary line %q: want a short phrase without a final period", summary)
	}
	if a.URL == "" || len(a.FactTypes) != 1 {
		t.Errorf("URL %q, %d fact types: want a URL and the handoff fact", a.URL, len(a.FactTypes))
	}
}

func TestFreshTimeout(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, freshtimeout.Analyzer,
		"params", "literals", "handlers", "variables", "imports", "dotimport", "negative",
		"failover", "children", "roots", "inherited", "handoff/lib", "handoff")

	// Every diagnostic points at the parameter it inherited from.
	n := 0
	for _, r := range results {
		fset := r.Action.Package.Fset
		for _, d := range r.Diagnostics {
			n++
			if len(d.Related) == 0 || !strings.HasSuffix(d.Related[0].Message, " inherited here") {
				t.Errorf("%v: want related information at the parameter, got %+v", fset.Position(d.Pos), d.Related)
				continue
			}
			if fset.Position(d.Related[0].Pos).Line > fset.Position(d.Pos).Line {
				t.Errorf("%v: related information after the call", fset.Position(d.Pos))
			}
		}
	}
	if n == 0 {
		t.Fatal("no diagnostics")
	}
}

func TestRelated(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, freshtimeout.Analyzer, "variables")
	want := map[string]bool{"ctx inherited here": false, "bg holds context.Background": false}
	for _, r := range results {
		for _, d := range r.Diagnostics {
			for _, rel := range d.Related {
				if _, ok := want[rel.Message]; ok {
					want[rel.Message] = true
				}
			}
		}
	}
	for msg, seen := range want {
		if !seen {
			t.Errorf("no related information %q", msg)
		}
	}
}

func TestFixes(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.RunWithSuggestedFixes(t, dir, freshtimeout.Analyzer, "fix")
	rltest.GoldenCompiles(t, dir)
}

// TestNoFix checks that the calls for which no fix could compile are
// reported without one that reaches the user (the driver drops the fixes
// that edit a generated file).
func TestNoFix(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, freshtimeout.Analyzer, "nofix")
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			if fixes := driver.KeptFixes(r.Pass.Fset, r.Pass.Files, d.SuggestedFixes); len(fixes) > 0 {
				t.Errorf("%v: unexpected fix %q", r.Action.Package.Fset.Position(d.Pos), fixes[0].Message)
			}
		}
	}
	if n == 0 {
		t.Fatal("no diagnostics")
	}
}

// TestGoVersion runs the pass on a module whose go.mod says go 1.20:
// there context.WithoutCancel does not exist, so only the first fix is
// offered.
func TestGoVersion(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	mod := filepath.Join(dir, "src", "oldgo")
	results := analysistest.RunWithSuggestedFixes(t, mod, freshtimeout.Analyzer, "oldgo")
	n := 0
	for _, r := range results {
		for _, d := range r.Diagnostics {
			n++
			if len(d.SuggestedFixes) != 1 {
				t.Errorf("%v: got %d fixes, want only the first", r.Action.Package.Fset.Position(d.Pos), len(d.SuggestedFixes))
			}
		}
	}
	if n == 0 {
		t.Fatal("no diagnostics")
	}
}

var _ = token.NoPos
