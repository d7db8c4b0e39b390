package amplify_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/rltest"
)

// show reports every site of the amplify result, so that testdata can
// assert totals, chains and flags with // want comments.
var show = &analysis.Analyzer{
	Name:     "show",
	Doc:      "report amplification per site",
	Requires: []*analysis.Analyzer{amplify.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, a := range amplify.Of(pass).Sites {
			var names []string
			for _, st := range a.Chain {
				names = append(names, st.Func)
			}
			msg := fmt.Sprintf("site %s total=%s chain=%s", a.Step.Site, a.Total, strings.Join(names, ","))
			if a.Config {
				msg += " config"
			}
			if a.Step.Budget != "" {
				msg += fmt.Sprintf(" budget=%q", a.Step.Budget)
			}
			pass.Reportf(a.Site.Pos, "%s", msg)
		}
		return nil, nil
	},
}

func TestFacts(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, amplify.Analyzer, "facts")
}

func TestSites(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, show, "sites")
}

func TestMult(t *testing.T) {
	three := amplify.Mult{Kind: amplify.Count, Value: 3}
	budget := amplify.Mult{Kind: amplify.Count, Value: 1.1}
	for _, c := range []struct {
		m    amplify.Mult
		text string
	}{
		{three.Times(three).Times(three), "27"},
		{budget.Times(budget).Times(budget), "1.33"},
		{three.Times(amplify.Mult{Kind: amplify.Count, Value: 1, Open: true}), "≥3"},
		{three.Times(amplify.Mult{Kind: amplify.TimeBounded, Value: 1}), "3 × time-bounded"},
		{three.Times(amplify.Mult{Kind: amplify.UnknownCount, Value: 1}), "3 × ?"},
		{amplify.Mult{Kind: amplify.Unbounded, Value: 1}, "unbounded"},
		{budget.Times(amplify.Mult{Kind: amplify.Count, Value: 1, Assumed: true}), "~1.1"},
	} {
		if got := c.m.String(); got != c.text {
			t.Errorf("%+v: %q, want %q", c.m, got, c.text)
		}
	}
	if !(amplify.Mult{Kind: amplify.TimeBounded, Value: 1}).Worse(amplify.Mult{Kind: amplify.Count, Value: 1000}) {
		t.Error("time-bounded should be worse than any count")
	}
	if !(amplify.Mult{Kind: amplify.Count, Value: 9, Open: true}).Worse(amplify.Mult{Kind: amplify.Count, Value: 9}) {
		t.Error("an open 9 should be worse than a closed 9")
	}
	if (amplify.Mult{Kind: amplify.UnknownCount, Value: 3}).Exceeds(10) || !(amplify.Mult{Kind: amplify.Unbounded, Value: 1}).Exceeds(10) {
		t.Error("Exceeds: an unknown 3 stays below 10; unbounded exceeds it")
	}
}

func TestGoroutines(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, amplify.Analyzer, "goroutines", "registrar")
}
