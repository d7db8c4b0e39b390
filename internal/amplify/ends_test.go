package amplify_test

import (
	"fmt"
	"go/ast"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/types/typeutil"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/rltest"
)

// testLinks is a Linker that takes every call of a method named Remote...
// for a call out of the process, and every literal passed to
// remote.Handle for an entry.
type testLinks struct {
	links   map[ast.Node][]amplify.Link
	entries []*ast.FuncLit
}

func (l *testLinks) Links(n ast.Node) []amplify.Link { return l.links[n] }
func (l *testLinks) Entries() []*ast.FuncLit         { return l.entries }
func (l *testLinks) Any() bool                       { return len(l.links)+len(l.entries) > 0 }

var testLinker = &analysis.Analyzer{
	Name:       "testlinker",
	Doc:        "link calls of Remote methods",
	ResultType: reflect.TypeFor[*testLinks](),
	Run: func(pass *analysis.Pass) (any, error) {
		res := &testLinks{links: map[ast.Node][]amplify.Link{}}
		for _, f := range pass.Files {
			ast.Inspect(f, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok {
					return true
				}
				fn := typeutil.StaticCallee(pass.TypesInfo, call)
				switch {
				case fn == nil:
				case strings.HasPrefix(fn.Name(), "Remote"):
					res.links[call] = []amplify.Link{{Kind: "grpc", Method: "/svc/" + fn.Name()}}
				case fn.Name() == "Handle" && fn.Pkg().Path() == "remote":
					if lit, ok := call.Args[0].(*ast.FuncLit); ok {
						res.entries = append(res.entries, lit)
					}
				}
				return true
			})
		}
		return res, nil
	},
}

var linkedAmp = amplify.New(retrysite.Analyzer, testLinker)

// showEntries reports the entries of the linked amplification.
var showEntries = &analysis.Analyzer{
	Name:     "showentries",
	Doc:      "report the entries",
	Requires: []*analysis.Analyzer{linkedAmp},
	Run: func(pass *analysis.Pass) (any, error) {
		res := pass.ResultOf[linkedAmp].(*amplify.Result)
		for _, e := range res.Entries {
			var ends []string
			for _, end := range e.Ends {
				ends = append(ends, fmt.Sprintf("%s %s", end.Mult, end.Method))
			}
			pass.Reportf(e.Lit.Pos(), "entry total=%s ends=%s", e.Mult, strings.Join(ends, ", "))
		}
		return nil, nil
	},
}

// TestEnds checks the ends: products of the retries around a linked call
// on the way, through calls in the package and across packages (facts),
// detached ends through a goroutine and a callback, and an entry literal
// computed apart.
func TestEnds(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, linkedAmp, "remote", "endsuse", "endsuse2")
	analysistest.Run(t, dir, showEntries, "endsentry")
}

// TestNoLinker: without a linker nothing is an end, and the same calls
// are ordinary calls (no EndsFact).
func TestNoLinker(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	results := analysistest.Run(t, dir, amplify.Analyzer, "facts")
	for _, r := range results {
		for _, f := range r.Facts {
			for _, fact := range f {
				if _, ok := fact.(*amplify.EndsFact); ok {
					t.Errorf("an EndsFact without a linker: %v", fact)
				}
			}
		}
	}
}
