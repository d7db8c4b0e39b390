// Package driver loads packages and runs analyzers on them for the
// retrylint command's lint and audit modes.
//
// It differs from x/tools' multichecker in one respect that matters for
// speed: the packages named on the command line are parsed and
// type-checked from source, and their dependencies are read from export
// data, even though the shared retry-site analysis uses facts. Facts
// therefore flow between the analyzed packages (a retry helper in one
// analyzed package is known in another) but are not computed for the
// standard library or third-party modules, whose retry APIs are known
// through the library tables instead. multichecker, by contrast, parses and
// type-checks every dependency from source as soon as any analyzer declares
// a fact type, which costs about four times the time and memory.
package driver

import (
	"fmt"
	"os"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// LoadMode is what the driver asks of go/packages: syntax and types for
// the named packages, export data for their dependencies.
const LoadMode = packages.LoadSyntax | packages.NeedModule

// Load loads the packages matching patterns (with their tests if tests is
// set), from directory dir ("" for the current one). Errors inside packages
// (syntax or type errors) are left on the packages, for PrintErrors; a
// pattern that matches no package is an error, naming the pattern.
//
// In a Go workspace (go.work), a directory pattern such as ./... also
// matches the packages of every workspace module below the directory,
// where the go command stops at module boundaries (and fails outright at a
// workspace root that is not itself a module): run at the root of a
// monorepo, retrylint ./... analyzes every module.
func Load(dir string, patterns []string, tests bool) ([]*packages.Package, error) {
	expanded, err := expandWorkspace(dir, patterns)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{Mode: LoadMode, Tests: tests, Dir: dir}
	pkgs, err := packages.Load(cfg, expanded...)
	if err != nil {
		return nil, err
	}
	if err := unmatched(dir, patterns, expanded, pkgs); err != nil {
		return nil, err
	}
	return pkgs, nil
}

// Analyze runs the analyzers on the packages. Analyzers with facts also run
// on the dependencies, which have no syntax here: they find nothing there,
// at almost no cost. A dependency that itself imports an analyzed package
// is type-checked from source by go/packages, but without function bodies;
// its syntax is dropped so that no analyzer walks bodies that have no
// type information.
func Analyze(analyzers []*analysis.Analyzer, pkgs []*packages.Package, sequential bool) (*checker.Graph, error) {
	roots := make(map[*packages.Package]bool, len(pkgs))
	for _, p := range pkgs {
		roots[p] = true
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if !roots[p] && p.Syntax != nil {
			p.Syntax, p.TypesInfo = nil, nil
		}
	})
	return checker.Analyze(analyzers, pkgs, &checker.Options{Sequential: sequential})
}

// PrintErrors prints the errors of packages that did not load or
// type-check, each once, and returns how many it printed.
func PrintErrors(pkgs []*packages.Package) int {
	n := 0
	seen := map[string]bool{}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msg := e.Error()
			if seen[msg] {
				continue
			}
			seen[msg] = true
			fmt.Fprintln(os.Stderr, msg)
			n++
		}
	})
	return n
}
