// Package driver loads packages and runs analyzers on them for the
// retrylint command's lint and audit modes.
//
// It differs from x/tools' multichecker in one respect that matters for
// speed: the packages named on the command line (with ModuleFacts, also
// the packages of their modules that they import) are parsed and
// type-checked from source, and the other dependencies are read from
// export data, even though the shared retry-site analysis uses facts. A
// package reads only the facts of its own module (and a main module's
// package those of every main module; internal/factscope), so over whole
// modules, or with ModuleFacts whatever subset of a module is named, a
// package gets the facts go vet gives it: a retry helper in one package of
// a module is known in another. The standard library and other modules are
// known through the library tables instead. multichecker, by contrast,
// parses and type-checks every dependency from source as soon as any
// analyzer declares a fact type, which costs about four times the time
// and memory.
package driver

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/internal/factscope"
)

// ModuleFacts makes Load parse and type-check, beside the named packages,
// the packages of their modules that they import, so that their facts are
// computed as go vet computes them and a package's findings do not depend
// on what else is named. It is off by default: naming a few packages of a
// large module then parses much of the module (on the corpus, 39 packages
// named one by one, the run took several times as long and twice the
// memory), while a run over whole modules (./... at a module's root) needs
// none of it. Without it, a package named without the packages of its
// module it imports misses their facts (a retry helper, a budget check
// defined there).
var ModuleFacts bool

// LoadMode is what the driver asks of go/packages: syntax and types for
// the named packages (with ModuleFacts, also the packages of their modules
// they import), export data for the other dependencies.
const LoadMode = packages.LoadSyntax | packages.NeedModule

// Load loads the packages matching patterns (with their tests if tests is
// set), from directory dir ("" for the current one). Errors inside packages
// (syntax or type errors) are left on the packages, for PrintErrors; a
// pattern that matches no package is an error, naming the pattern, and so
// is a directory pattern outside any module (saying so).
//
// In a Go workspace (go.work), a directory pattern such as ./... also
// matches the packages of every workspace module below the directory,
// where the go command stops at module boundaries (and fails outright at a
// workspace root that is not itself a module): run at the root of a
// monorepo, retrylint ./... analyzes every module.
func Load(dir string, patterns []string, tests bool, progress ...Progress) ([]*packages.Package, error) {
	var env goEnv
	if dp := dirPatterns(patterns); len(dp) > 0 {
		var err error
		if env, err = readGoEnv(dir); err != nil {
			return nil, err
		}
		if !env.inModule() {
			return nil, noModule(dir, dp)
		}
	}
	expanded, err := expandWorkspace(dir, patterns, env)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{Mode: LoadMode, Tests: tests, Dir: dir}
	if len(progress) > 0 {
		cfg.ParseFile = countParsed(dir, expanded, tests, progress[0])
	}
	loaded, err := packages.Load(cfg, expanded...)
	if err != nil {
		return nil, err
	}
	rootIDs, facts := factPackages(loaded, ModuleFacts)
	if len(facts) > 0 {
		// Load again with the packages of facts among the patterns, so
		// that they are parsed and type-checked from source too.
		cfg.ParseFile = nil
		if loaded, err = packages.Load(cfg, append(expanded, facts...)...); err != nil {
			return nil, err
		}
	}
	// The roots are the packages the patterns match; the packages of facts
	// keep their syntax for the analyzers with facts, which run on them.
	var pkgs, keep []*packages.Package
	isFacts := make(map[string]bool, len(facts))
	for _, path := range facts {
		isFacts[path] = true
	}
	for _, p := range loaded {
		switch {
		case rootIDs[p.ID]:
			pkgs = append(pkgs, p)
			keep = append(keep, p)
		case isFacts[p.ID]:
			keep = append(keep, p)
		}
	}
	if err := unmatched(dir, patterns, expanded, pkgs); err != nil {
		return nil, err
	}
	dropDependencySyntax(keep)
	return pkgs, nil
}

// factPackages returns the IDs of roots, the packages the patterns
// matched, and the import paths of the packages whose facts they read
// (internal/factscope) that they do not match: the packages of a root's
// module that the roots import, directly or not, and, for a root of a
// main module, those of every main module. When the patterns name every
// package of their modules (./... at a module's root) there are none, and
// the packages are loaded once; without moduleFacts (ModuleFacts) none
// are looked for.
func factPackages(roots []*packages.Package, moduleFacts bool) (map[string]bool, []string) {
	ids := make(map[string]bool, len(roots))
	var mods []factscope.Module
	for _, p := range roots {
		ids[p.ID] = true
		if m, ok := moduleOf(p); ok && !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	if !moduleFacts {
		return ids, nil // the roots alone: no walk of their dependencies
	}
	var out []string
	packages.Visit(roots, nil, func(p *packages.Package) {
		// A dependency's own ID is its import path; a test's variant of a
		// dependency ("x [y.test]") is not a package of its own.
		if ids[p.ID] || p.ID != p.PkgPath {
			return
		}
		if m, ok := moduleOf(p); ok && slices.ContainsFunc(mods, func(r factscope.Module) bool { return factscope.Same(r, m) }) {
			out = append(out, p.PkgPath)
		}
	})
	slices.Sort(out)
	return ids, out
}

// moduleOf returns the module of a loaded package; ok is false for a
// package outside any module: the standard library, Go files named on the
// command line, GOPATH. (Under GOPATH, go vet computes the facts of the
// other packages of GOPATH and the lint mode only those of the named
// packages: the one case where the two can differ.)
func moduleOf(p *packages.Package) (factscope.Module, bool) {
	if p.Module == nil || p.Module.Path == "" {
		return factscope.Module{}, false
	}
	return factscope.Module{Path: p.Module.Path, Version: p.Module.Version}, true
}

// dropDependencySyntax removes the syntax of every package that is not
// one of keep (the roots and the packages of their facts). go/packages parses a dependency from source when it finds
// no export data for it (it happens in the corpus for a module required at
// a pseudo-version) or when it imports an analyzed package, and
// type-checks only its declarations, so that the expressions in its
// function bodies have no types; analyzers would take it for an analyzed
// package and fail on it. Without syntax it is what every other dependency
// is here: types only, with an empty types.Info (analyzers of x/tools
// such as ctrlflow read it even when there are no files).
func dropDependencySyntax(keep []*packages.Package) {
	kept := make(map[*packages.Package]bool, len(keep))
	for _, p := range keep {
		kept[p] = true
	}
	packages.Visit(keep, nil, func(p *packages.Package) {
		if !kept[p] {
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
//
// It collects the garbage of loading first. Loading leaves the heap far
// above what it keeps (parse and export-data buffers, the type checker's
// scratch), and the collector's next goal at twice the last live heap: the
// analysis would otherwise allocate on top of that garbage, and every byte
// it allocates would raise the peak memory of the run. Collected, the
// analysis reuses the memory loading freed, and the peak stays that of
// loading (bench/run.sh measures it).
//
// An analyzer with facts runs on every package its roots import, to pass
// the facts along. Dependencies here have no syntax and produce no facts,
// except the packages of the roots' modules that Load parsed, so only the
// imports that lead to a package with syntax carry any: during the
// analysis the packages' imports are cut to those, and the analyzers with
// facts run on the parsed packages and the packages between them, not on
// every dependency (the corpus: 315 analyzed packages of 2959).
func Analyze(analyzers []*analysis.Analyzer, pkgs []*packages.Package, sequential bool) (*checker.Graph, error) {
	runtime.GC()
	defer cutImports(pkgs)()
	return checker.Analyze(analyzers, pkgs, &checker.Options{Sequential: sequential})
}

// cutImports cuts the imports of the packages reachable from roots to the
// packages that are roots or have syntax (the packages of the roots'
// facts), or import one, directly or not, and returns the function that
// gives them back their imports.
func cutImports(roots []*packages.Package) (restore func()) {
	isRoot := make(map[*packages.Package]bool, len(roots))
	for _, p := range roots {
		isRoot[p] = true
	}
	reaches := map[*packages.Package]bool{}
	var reach func(p *packages.Package) bool
	reach = func(p *packages.Package) bool {
		r, ok := reaches[p]
		if ok {
			return r
		}
		reaches[p] = false // the import graph has no cycles; be safe
		r = isRoot[p] || len(p.Syntax) > 0
		for _, imp := range p.Imports {
			if reach(imp) {
				r = true
			}
		}
		reaches[p] = r
		return r
	}
	saved := map[*packages.Package]map[string]*packages.Package{}
	var cut func(p *packages.Package)
	cut = func(p *packages.Package) {
		if _, done := saved[p]; done {
			return
		}
		saved[p] = p.Imports
		kept := map[string]*packages.Package{}
		for path, imp := range p.Imports {
			if reach(imp) {
				kept[path] = imp
				cut(imp)
			}
		}
		p.Imports = kept
	}
	for _, p := range roots {
		cut(p)
	}
	return func() {
		for p, imports := range saved {
			p.Imports = imports
		}
	}
}

// PrintErrors prints the errors of packages that did not load or
// type-check to stderr, each once, with file names relative to the current
// directory (see LoadErrors), and returns how many it printed.
func PrintErrors(pkgs []*packages.Package) int {
	dir, _ := os.Getwd()
	lines := LoadErrors(pkgs, dir)
	for _, l := range lines {
		fmt.Fprintln(os.Stderr, l)
	}
	return len(lines)
}

// LoadErrors returns one line per error of the packages that did not load
// or type-check, "file:line:column: message" with the file name relative
// to dir when it lies below it (or "package: message" when the error has
// no position), each once. go/packages reports most errors twice (the go
// command's, then its own parser's or type checker's), and errors that
// follow from another: LoadErrors keeps one of each pair, and drops
//   - the go command's compiler output when the parser or the type
//     checker reports for the same package,
//   - every parse error of a file but the first, and the type errors of a
//     package that does not parse (they follow from the syntax error),
//   - "could not import" errors when the imported package's own error is
//     listed, or the package has an error of the go command's (an import
//     cycle).
func LoadErrors(pkgs []*packages.Package, dir string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(pos, msg string) {
		msg = strings.ReplaceAll(strings.TrimSpace(msg), "\n\t", " ")
		msg = strings.ReplaceAll(msg, "\n", " ")
		line := msg
		if pos != "" && pos != "-" {
			line = relPos(dir, pos) + ": " + msg
		}
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	}
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		if len(p.Errors) == 0 {
			return
		}
		var parse, typ, list, compiler []packages.Error
		for _, e := range p.Errors {
			switch {
			case e.Kind == packages.ParseError:
				parse = append(parse, e)
			case e.Kind == packages.TypeError:
				typ = append(typ, e)
			case (e.Pos == "" || e.Pos == "-") && strings.HasPrefix(e.Msg, "# "):
				compiler = append(compiler, e)
			default:
				list = append(list, e)
			}
		}
		for _, e := range list {
			if e.Pos == "" || e.Pos == "-" {
				msg := e.Msg
				if !strings.Contains(msg, p.PkgPath) {
					msg = p.PkgPath + ": " + msg
				}
				add("", msg)
			} else {
				add(e.Pos, e.Msg)
			}
		}
		if len(parse) == 0 && len(typ) == 0 {
			for _, e := range compiler {
				addCompilerOutput(e.Msg, add)
			}
		}
		if len(parse) > 0 {
			first := map[string]bool{}
			for _, e := range parse {
				file, _, _ := splitPos(e.Pos)
				if !first[file] {
					first[file] = true
					add(e.Pos, e.Msg)
				}
			}
			return
		}
		for _, e := range typ {
			if path, ok := couldNotImport(e.Msg); ok {
				if len(list) > 0 {
					continue
				}
				if imp := p.Imports[path]; imp != nil && len(imp.Errors) > 0 {
					continue
				}
			}
			add(e.Pos, e.Msg)
		}
	})
	return out
}

// addCompilerOutput adds the lines of the go command's compiler output
// ("# pkg" and then one "file:line:col: message" per line, continued by
// lines that start with a tab).
func addCompilerOutput(msg string, add func(pos, msg string)) {
	var cur string
	flush := func() {
		if cur == "" {
			return
		}
		if file, rest, ok := strings.Cut(cur, ": "); ok && strings.Contains(file, ".go:") {
			add(file, rest)
		} else {
			add("", cur)
		}
		cur = ""
	}
	for _, l := range strings.Split(msg, "\n")[1:] {
		if strings.HasPrefix(l, "\t") && cur != "" {
			cur += " " + strings.TrimSpace(l)
			continue
		}
		flush()
		cur = l
	}
	flush()
}

// couldNotImport returns the import path of a type checker's "could not
// import path (reason)" error.
func couldNotImport(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "could not import ")
	if !ok {
		return "", false
	}
	path, _, _ := strings.Cut(rest, " ")
	return path, true
}

// splitPos splits "file:line:column" (or "file:line") into the file and
// the rest (":line:column").
func splitPos(pos string) (file, rest string, ok bool) {
	file = pos
	for range 2 {
		j := strings.LastIndexByte(file, ':')
		if j < 0 {
			break
		}
		if _, err := strconv.Atoi(file[j+1:]); err != nil {
			break
		}
		rest = file[j:] + rest
		file = file[:j]
		ok = true
	}
	return file, rest, ok
}

// relPos makes the file name of a position relative to dir when it lies
// below it.
func relPos(dir, pos string) string {
	file, rest, _ := splitPos(pos)
	return Rel(dir, file) + rest
}
