// Command noop is the floor retrylint's cost is measured against: an
// analyzer that walks every file with the inspector and reports nothing,
// run through retrylint's own driver (or, with -multichecker, through
// x/tools' standalone driver). With -facts the analyzer declares a fact
// type, which is what makes drivers compute facts.
//
//	noop [-facts] [-multichecker] [-test=false] packages
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"os"
	"reflect"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/driver"
)

type fact struct{}

func (*fact) AFact()         {}
func (*fact) String() string { return "fact" }

func analyzer(facts bool) *analysis.Analyzer {
	a := &analysis.Analyzer{
		Name:       "noop",
		Doc:        "walk every file, report nothing",
		Requires:   []*analysis.Analyzer{inspect.Analyzer},
		ResultType: reflect.TypeFor[int](),
		Run: func(pass *analysis.Pass) (any, error) {
			n := 0
			pass.ResultOf[inspect.Analyzer].(*inspector.Inspector).Preorder([]ast.Node{(*ast.CallExpr)(nil)}, func(ast.Node) { n++ })
			return n, nil
		},
	}
	if facts {
		a.FactTypes = []analysis.Fact{new(fact)}
	}
	return a
}

func main() {
	fs := flag.NewFlagSet("noop", flag.ExitOnError)
	facts := fs.Bool("facts", false, "declare a fact type")
	mc := fs.Bool("multichecker", false, "run through x/tools' multichecker instead of retrylint's driver")
	tests := fs.Bool("test", true, "analyze test files too")
	fs.Parse(os.Args[1:])
	if *mc {
		os.Args = append([]string{os.Args[0], fmt.Sprintf("-test=%t", *tests)}, fs.Args()...)
		multichecker.Main(analyzer(*facts))
		return
	}
	pkgs, err := driver.Load("", fs.Args(), *tests)
	if err != nil {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
	if _, err := driver.Analyze([]*analysis.Analyzer{analyzer(*facts)}, pkgs, false); err != nil {
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
}
