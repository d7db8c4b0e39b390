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
	"go/ast"
	"go/types"
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
func Load(dir string, patterns []string, tests bool, progress ...Progress) ([]*packages.Package, error) {
	expanded, err := expandWorkspace(dir, patterns)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{Mode: LoadMode, Tests: tests, Dir: dir}
	if len(progress) > 0 {
		cfg.ParseFile = countParsed(dir, expanded, tests, progress[0])
	}
	pkgs, err := packages.Load(cfg, expanded...)
	if err != nil {
		return nil, err
	}
	if err := unmatched(dir, patterns, expanded, pkgs); err != nil {
		return nil, err
	}
	dropDependencySyntax(pkgs)
	return pkgs, nil
}

// dropDependencySyntax removes the syntax of every package that is not
// one of roots. go/packages parses a dependency from source when it finds
// no export data for it (it happens in the corpus for a module required at
// a pseudo-version) or when it imports an analyzed package, and
// type-checks only its declarations, so that the expressions in its
// function bodies have no types; analyzers would take it for an analyzed
// package and fail on it. Without syntax it is what every other dependency
// is here: types only, with an empty types.Info (analyzers of x/tools
// such as ctrlflow read it even when there are no files).
func dropDependencySyntax(roots []*packages.Package) {
	root := make(map[*packages.Package]bool, len(roots))
	for _, p := range roots {
		root[p] = true
	}
	packages.Visit(roots, nil, func(p *packages.Package) {
		if !root[p] {
			p.Syntax = nil
			p.TypesInfo = &types.Info{
				Types:      map[ast.Expr]types.TypeAndValue{},
				Defs:       map[*ast.Ident]types.Object{},
				Uses:       map[*ast.Ident]types.Object{},
				Implicits:  map[ast.Node]types.Object{},
				Selections: map[*ast.SelectorExpr]*types.Selection{},
				Scopes:     map[ast.Node]*types.Scope{},
				Instances:  map[*ast.Ident]types.Instance{},
			}
		}
	})
}

// Analyze runs the analyzers on the packages loaded by Load. Analyzers with
// facts also run on the dependencies, which have no syntax here: they find
// nothing there, at almost no cost.
func Analyze(analyzers []*analysis.Analyzer, pkgs []*packages.Package, sequential bool) (*checker.Graph, error) {
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
