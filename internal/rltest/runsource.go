package rltest

import (
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"reflect"
	"sync"

	"golang.org/x/tools/go/analysis"
)

var (
	stdImporterOnce sync.Once
	stdImporter     types.Importer
)

// importerForStd returns a shared importer of the standard library's
// export data; it caches what it loads, so repeated calls (as in fuzzing)
// are cheap after the first.
func importerForStd(fset *token.FileSet) types.Importer {
	stdImporterOnce.Do(func() {
		stdImporter = importer.Default()
	})
	return stdImporter
}

// ErrNotWellTyped is returned by RunOnSource for input that does not parse
// or type-check; fuzz targets skip such input.
var ErrNotWellTyped = fmt.Errorf("source does not type-check")

// RunOnSource parses and type-checks one file of package p (standard
// imports only) and runs the analyzers on it, with their requirements, in
// a minimal in-process driver: facts stay in memory, diagnostics are
// returned. It exists for fuzz targets, which must not panic whatever the
// input; it is not a substitute for analysistest.
func RunOnSource(src string, analyzers ...*analysis.Analyzer) ([]analysis.Diagnostic, error) {
	diags, _, err := RunOnSourceVersion(src, "", analyzers...)
	return diags, err
}

// RunOnSourceVersion is RunOnSource with the file's Go version set (as a
// go.mod would; "" for none), also returning the file set, so that a caller
// can map the diagnostics' positions and apply their fixes.
func RunOnSourceVersion(src, goVersion string, analyzers ...*analysis.Analyzer) ([]analysis.Diagnostic, *token.FileSet, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, fset, ErrNotWellTyped
	}
	info := &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		Scopes:       map[ast.Node]*types.Scope{},
		Instances:    map[*ast.Ident]types.Instance{},
		FileVersions: map[*ast.File]string{},
	}
	conf := types.Config{Importer: importerForStd(fset), GoVersion: goVersion, Error: func(error) {}}
	pkg, err := conf.Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		return nil, fset, ErrNotWellTyped
	}
	facts := map[types.Object][]analysis.Fact{}
	results := map[*analysis.Analyzer]any{}
	var diags []analysis.Diagnostic
	var runOne func(a *analysis.Analyzer) error
	runOne = func(a *analysis.Analyzer) error {
		if _, done := results[a]; done {
			return nil
		}
		for _, req := range a.Requires {
			if err := runOne(req); err != nil {
				return err
			}
		}
		pass := &analysis.Pass{
			Analyzer:   a,
			Fset:       fset,
			Files:      []*ast.File{f},
			Pkg:        pkg,
			TypesInfo:  info,
			TypesSizes: types.SizesFor("gc", "amd64"),
			ResultOf:   results,
			Report:     func(d analysis.Diagnostic) { diags = append(diags, d) },
			ReadFile: func(name string) ([]byte, error) {
				if name == "p.go" {
					return []byte(src), nil
				}
				return os.ReadFile(name)
			},
			ImportObjectFact: func(obj types.Object, fact analysis.Fact) bool {
				for _, have := range facts[obj] {
					if reflect.TypeOf(have) == reflect.TypeOf(fact) {
						reflect.ValueOf(fact).Elem().Set(reflect.ValueOf(have).Elem())
						return true
					}
				}
				return false
			},
			ExportObjectFact: func(obj types.Object, fact analysis.Fact) {
				facts[obj] = append(facts[obj], fact)
			},
			ImportPackageFact: func(*types.Package, analysis.Fact) bool { return false },
			ExportPackageFact: func(analysis.Fact) {},
			AllObjectFacts:    func() []analysis.ObjectFact { return nil },
			AllPackageFacts:   func() []analysis.PackageFact { return nil },
		}
		res, err := a.Run(pass)
		if err != nil {
			return err
		}
		results[a] = res
		return nil
	}
	for _, a := range analyzers {
		if err := runOne(a); err != nil {
			return diags, fset, err
		}
	}
	return diags, fset, nil
}
