package retrysite_test

import (
	"fmt"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/rltest"
)

// showDeps reports, for each loop with one attempt, its Dep, the one
// Deps trusts, and the one a fix names its budget after.
var showDeps = &analysis.Analyzer{
	Name:     "showdeps",
	Doc:      "report the dependency model of each retry loop",
	Requires: []*analysis.Analyzer{retrysite.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		sites := retrysite.Of(pass)
		deps := sites.Deps()
		show := func(d retrysite.Dep) string { return d.Kind.String() + ":" + d.Name }
		for _, s := range sites.List {
			if s.Kind != retrysite.Loop || len(s.Attempts) != 1 {
				continue
			}
			at := s.Attempts[0]
			trusted := deps.Site(s)
			if trusted.Key != deps.Attempt(at).Key {
				return nil, fmt.Errorf("Site and Attempt disagree on the loop at %v", pass.Fset.Position(s.Pos))
			}
			budget := deps.ForBudget(at)
			if trusted.Key != "" && budget.Key != trusted.Key {
				return nil, fmt.Errorf("ForBudget is not the trusted dependency at %v", pass.Fset.Position(s.Pos))
			}
			pass.Reportf(s.Pos, "raw=%s trusted=%s budget=%s", show(at.Dep), show(trusted), show(budget))
		}
		return nil, nil
	},
}

// showReached reports, for each site, the dependencies Deps.Reached gives
// and whether Deps.Passed holds.
var showReached = &analysis.Analyzer{
	Name:     "showreached",
	Doc:      "report the dependencies each retry site reaches",
	Requires: []*analysis.Analyzer{retrysite.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		sites := retrysite.Of(pass)
		deps := sites.Deps()
		for _, s := range sites.List {
			var names []string
			for _, d := range deps.Reached(s) {
				names = append(names, d.Kind.String()+":"+d.Name)
			}
			pass.Reportf(s.Pos, "reached=%v passed=%v", names, deps.Passed(s))
		}
		return nil, nil
	},
}

func TestReached(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, showReached, "reached")
}

func TestDeps(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, showDeps, "deps")
}

// TestLabelsLocal names two locals of one name by their name: their keys
// hold positions in the run's file set, which a message must not show.
func TestLabelsLocal(t *testing.T) {
	a := retrysite.Dep{Kind: retrysite.DepLocal, Key: "var:c@100", Name: "c"}
	b := retrysite.Dep{Kind: retrysite.DepLocal, Key: "var:c@200", Name: "c"}
	f := retrysite.Dep{Kind: retrysite.DepField, Key: "field:example.com/orders.Service.c", Name: "c"}
	var l retrysite.Labels
	for _, d := range []retrysite.Dep{a, b, f} {
		l.Add(d)
	}
	if got := l.Name(a); got != "c" {
		t.Errorf("a local: %q, want c", got)
	}
	if got := l.Name(f); got != "orders.Service.c" {
		t.Errorf("a field beside locals of its name: %q, want orders.Service.c", got)
	}
}
