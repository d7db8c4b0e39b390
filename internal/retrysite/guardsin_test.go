package retrysite_test

import (
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/rltest"
)

// guardsIn reports every guard of each loop site's body.
var guardsIn = &analysis.Analyzer{
	Name:     "guardsin",
	Doc:      "report the guards in each retry loop",
	Requires: []*analysis.Analyzer{retrysite.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		sites := retrysite.Of(pass)
		for _, s := range sites.List {
			if s.Kind != retrysite.Loop {
				continue
			}
			var descs []string
			for _, g := range sites.GuardsIn(s.Body) {
				descs = append(descs, g.Desc)
			}
			pass.Reportf(s.Pos, "guards: %s", strings.Join(descs, " "))
		}
		return nil, nil
	},
}

func TestGuardsIn(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, guardsIn, "guardsin")
}
