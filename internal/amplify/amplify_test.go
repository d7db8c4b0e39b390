package amplify_test

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/retrysite"
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

// TestRiskOrder checks the order of Worse: unbounded, time-bounded, then
// the product of the counted factors, an unknown count by its known part.
func TestRiskOrder(t *testing.T) {
	count := func(v float64) amplify.Mult { return amplify.Mult{Kind: amplify.Count, Value: v} }
	unknown := func(v float64) amplify.Mult { return amplify.Mult{Kind: amplify.UnknownCount, Value: v} }
	timed := func(v float64) amplify.Mult { return amplify.Mult{Kind: amplify.TimeBounded, Value: v} }
	unbounded := amplify.Mult{Kind: amplify.Unbounded, Value: 1}
	// Worst first.
	order := []amplify.Mult{unbounded, timed(3), timed(1), unknown(27), count(27), unknown(3), count(3), unknown(1), count(1)}
	for i := range order {
		for j := range order {
			if got := order[i].Worse(order[j]); got != (i < j) {
				t.Errorf("%v.Worse(%v) = %v, want %v", order[i], order[j], got, i < j)
			}
		}
	}
	// A budget's 1.1 around an unbounded retry does not make it worse.
	if around := (amplify.Mult{Kind: amplify.Unbounded, Value: 1.1}); around.Worse(unbounded) || unbounded.Worse(around) {
		t.Error("1.1 × unbounded and unbounded should rank alike")
	}
}

// TestExceeds checks what a limit can be compared with: a count, an
// unbounded product, and the known part of any other.
func TestExceeds(t *testing.T) {
	for _, c := range []struct {
		m          amplify.Mult
		limit      float64
		exceeds    bool
		comparable bool
	}{
		{amplify.Mult{Kind: amplify.Count, Value: 9}, 1, true, true},
		{amplify.Mult{Kind: amplify.Count, Value: 9}, 9, false, true},
		{amplify.Mult{Kind: amplify.Unbounded, Value: 1}, 1e6, true, true},
		// A time-bounded retry does not fail every limit: its count is not known.
		{amplify.Mult{Kind: amplify.TimeBounded, Value: 1}, 1e6, false, false},
		{amplify.Mult{Kind: amplify.TimeBounded, Value: 3}, 2, true, false},
		{amplify.Mult{Kind: amplify.UnknownCount, Value: 3}, 2, true, false},
		{amplify.Mult{Kind: amplify.UnknownCount, Value: 1}, 1, false, false},
	} {
		if got := c.m.Exceeds(c.limit); got != c.exceeds {
			t.Errorf("%v.Exceeds(%v) = %v, want %v", c.m, c.limit, got, c.exceeds)
		}
		if got := c.m.Comparable(); got != c.comparable {
			t.Errorf("%v.Comparable() = %v, want %v", c.m, got, c.comparable)
		}
	}
}

// TestBoundText: a count bound with neither a number nor an expression is
// "unknown", never " attempts".
func TestBoundText(t *testing.T) {
	for _, c := range []struct {
		b    retrysite.Bound
		want string
	}{
		{retrysite.Bound{Kind: retrysite.BoundCount, N: 3}, "3 attempts"},
		{retrysite.Bound{Kind: retrysite.BoundCount, Expr: "cfg.MaxTries"}, "cfg.MaxTries attempts"},
		{retrysite.Bound{Kind: retrysite.BoundCount}, "unknown"},
		{retrysite.Bound{Kind: retrysite.BoundCount, Expr: " "}, "unknown"},
		{retrysite.Bound{Kind: retrysite.BoundTime}, "time-bounded"},
		{retrysite.Bound{Kind: retrysite.Unbounded}, "unbounded"},
		{retrysite.Bound{}, "unknown"},
	} {
		if got := amplify.BoundText(c.b); got != c.want {
			t.Errorf("BoundText(%+v) = %q, want %q", c.b, got, c.want)
		}
	}
}

func TestGoroutines(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, amplify.Analyzer, "goroutines", "registrar")
}
