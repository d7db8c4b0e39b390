// Command noop is the floor retrylint's cost is measured against: an
// analyzer that walks every file with the inspector and reports nothing,
// run through retrylint's own driver (or, with -multichecker, through
// x/tools' standalone driver). With -facts the analyzer declares a fact
// type, which is what makes drivers compute facts.
//
//	noop [-facts] [-multichecker] [-test=false] [-t] [-cpuprofile FILE] packages
//	go vet -vettool=$(which noop) packages   # a no-op vet tool
//
// Linked with -ldflags=-X=main.vetFacts=true, the vet tool declares the
// fact type, and go vet then runs it on every dependency too.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"os"
	"reflect"
	"runtime/pprof"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/analysis/unitchecker"
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

// vetFacts is set to "true" at link time (-ldflags=-X main.vetFacts=true)
// for the vet tool that declares a fact type: go vet passes the tool no
// flags of ours, and a binary per variant keeps go vet's cache keys apart.
var vetFacts string

// vetMode reports whether go vet invoked the binary as its -vettool: to ask
// its version or flags, or to analyze one package described by a .cfg file.
func vetMode(args []string) bool {
	if len(args) == 0 {
		return false
	}
	return strings.HasPrefix(args[0], "-V=") || args[0] == "-flags" || strings.HasSuffix(args[len(args)-1], ".cfg")
}

func main() {
	if vetMode(os.Args[1:]) {
		unitchecker.Main(analyzer(vetFacts == "true"))
		return
	}
	fs := flag.NewFlagSet("noop", flag.ExitOnError)
	facts := fs.Bool("facts", false, "declare a fact type")
	mc := fs.Bool("multichecker", false, "run through x/tools' multichecker instead of retrylint's driver")
	tests := fs.Bool("test", true, "analyze test files too")
	timing := fs.Bool("t", false, "print the time of loading and of analysis")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	fs.Parse(os.Args[1:])
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "noop:", err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "noop:", err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	if *mc {
		os.Args = append([]string{os.Args[0], fmt.Sprintf("-test=%t", *tests)}, fs.Args()...)
		multichecker.Main(analyzer(*facts))
		return
	}
	start := time.Now()
	pkgs, err := driver.Load("", fs.Args(), *tests)
	loaded := time.Now()
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
	if _, err := driver.Analyze([]*analysis.Analyzer{analyzer(*facts)}, pkgs, false); err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "noop:", err)
		os.Exit(1)
	}
	if *timing {
		fmt.Fprintf(os.Stderr, "load and type-check: %.3fs; analysis: %.3fs\n", loaded.Sub(start).Seconds(), time.Since(loaded).Seconds())
	}
}
