package retrysite_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/rltest"
)

// show reports every retry site as a diagnostic, so that testdata can
// assert what the shared analysis found with // want comments.
var show = &analysis.Analyzer{
	Name:     "show",
	Doc:      "report retry sites",
	Requires: []*analysis.Analyzer{retrysite.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		sites := pass.ResultOf[retrysite.Analyzer].(*retrysite.Sites)
		for _, s := range sites.List {
			if err := checkSite(s); err != nil {
				return nil, fmt.Errorf("%s: %v", pass.Fset.Position(s.Pos), err)
			}
			pass.Reportf(s.Pos, "%s", describe(s))
		}
		return nil, nil
	},
}

func describe(s *retrysite.Site) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s", s.Kind)
	if s.API != "" {
		fmt.Fprintf(&b, " %s", s.API)
	}
	fmt.Fprintf(&b, " [%s]", s.Bound)
	if s.Guard != nil {
		fmt.Fprintf(&b, " guard=%s", s.Guard.Desc)
	}
	if s.Exempt != "" {
		b.WriteString(" exempt")
	}
	if s.Kind == retrysite.Loop || s.Kind == retrysite.HelperCall {
		fmt.Fprintf(&b, " delay=%s", s.Backoff)
	}
	var deps []string
	for _, at := range s.Attempts {
		if at.Dep.Key != "" {
			deps = append(deps, at.Dep.Name)
		}
	}
	if len(deps) > 0 {
		fmt.Fprintf(&b, " dep=%s", strings.Join(deps, ","))
	}
	if s.Kind == retrysite.Library {
		fmt.Fprintf(&b, " backoff=%s", s.Backoff)
	}
	return b.String()
}

func TestSites(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, show, "loops", "timers", "libs", "guards", "helperuse", "polarityuse", "github.com/failsafe-go/failsafe-go/failsafehttp")
}

// TestBackoff asserts the wait between attempts: each shape beside its
// look-alike.
func TestBackoff(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, show, "backoffs")
}

func TestHelperFacts(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, retrysite.Analyzer, "helpers", "delays", "sleepers", "sleepuse", "polarity")
}

// between reports the calls of time.Sleep and note that a retry loop's
// Path holds: what runs between two attempts.
var between = &analysis.Analyzer{
	Name:     "between",
	Doc:      "report calls between attempts",
	Requires: []*analysis.Analyzer{retrysite.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		for _, s := range retrysite.Of(pass).List {
			if s.Loop == nil {
				continue
			}
			pass.Reportf(s.Pos, "loop")
			for _, n := range s.Loop.Path {
				ast.Inspect(n, func(n ast.Node) bool {
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					switch name := types.ExprString(call.Fun); name {
					case "time.Sleep", "note", "wait":
						pass.Reportf(call.Pos(), "between attempts: %s", name)
					}
					return true
				})
			}
		}
		return nil, nil
	},
}

func TestPath(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, between, "between")
}
