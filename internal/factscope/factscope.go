// Package factscope says whose facts a package reads.
//
// A finding must not depend on which other packages are analyzed in the
// same run (docs/design.md, Where diagnostics go): go vet computes facts
// for every package a package imports, the standard library and every
// module included; the lint mode computes them for the packages it
// parses, not for dependencies read from export data. So a fact counts
// only where every driver computes it, which the analysis can tell from
// the two packages alone:
//   - a package reads the facts of the packages of its own module, and a
//     package of a main module (a module with no version: the one being
//     worked on, or a module of its go.work) those of every main module;
//   - the facts of the standard library, and of another module a package
//     requires, are not read: what a library does is known by its table
//     (internal/retryapi) or not at all, in every driver;
//   - a package outside any module (GOPATH) that is not of the standard
//     library counts as a package of a main module.
//
// With -module-facts, the lint mode parses, beside the packages it is
// asked about, every package of their modules that they import
// (internal/driver.ModuleFacts), so that those facts exist whatever subset
// of a module it is run on; without it, they exist for the packages it
// parses, which over whole modules (./...) are all of them.
//
// A package learns another's module from a package fact that each
// analyzer with facts exports for every package of a module it runs on
// (an analyzer can read only its own facts): the retry-site analysis's
// ModuleFact, and the fact types of the passes that do not require it. A
// package of GOPATH has none, and reads the facts of the packages that
// have none and are not of the standard library.
package factscope

import (
	"go/types"
	"sync"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/typesx"
)

// Module is a module's path and version ("" for a main module).
type Module struct {
	Path, Version string
}

func (m Module) String() string {
	if m.Version == "" {
		return "module(" + m.Path + ")"
	}
	return "module(" + m.Path + "@" + m.Version + ")"
}

// Of returns the module of the pass's package; ok is false for the
// standard library.
func Of(pass *analysis.Pass) (m Module, ok bool) {
	if pass.Module == nil || pass.Module.Path == "" {
		return Outside(pass.Pkg.Path())
	}
	if pass.Module.Path == "std" {
		return Module{}, false
	}
	return Module{Path: pass.Module.Path, Version: pass.Module.Version}, true
}

// Outside returns the module of a package outside any module: none for
// the standard library (ok false), the zero Module, which counts as a
// main module, for a package of GOPATH.
func Outside(path string) (m Module, ok bool) {
	return Module{}, !typesx.IsStd(path)
}

// Same reports whether a package of module a reads the facts of a
// package of module b.
func Same(a, b Module) bool {
	if a.Version == "" && b.Version == "" {
		return true
	}
	return a.Path == b.Path && a.Version == b.Version
}

// A Scope answers, for one pass, whose facts it reads. It is safe for
// concurrent use (the passes that require an analyzer ask its scope from
// their own goroutines).
type Scope struct {
	pass   *analysis.Pass
	self   Module
	in     bool                                    // the package is not of the standard library
	module func(pkg *types.Package) (Module, bool) // another package's module, by its fact

	mu   sync.Mutex
	memo map[*types.Package]bool
}

// New returns the scope of the pass's package. module reads another
// package's module from the analyzer's package fact.
func New(pass *analysis.Pass, module func(pkg *types.Package) (Module, bool)) *Scope {
	self, in := Of(pass)
	return &Scope{pass: pass, self: self, in: in, module: module, memo: map[*types.Package]bool{}}
}

// Module returns the package's own module, for its package fact; ok is
// false for the standard library and GOPATH (export no fact then).
func (s *Scope) Module() (Module, bool) { return s.self, s.in && s.self.Path != "" }

// Reads reports whether the pass reads the facts of pkg's objects.
func (s *Scope) Reads(pkg *types.Package) bool {
	if pkg == nil {
		return false
	}
	if pkg == s.pass.Pkg {
		return true
	}
	if !s.in {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.memo[pkg]
	if !ok {
		m, found := s.module(pkg)
		if found {
			in = Same(s.self, m)
		} else {
			// No module: the standard library, a package no analyzer
			// ran on, or, from GOPATH, another package of GOPATH.
			in = s.self.Path == "" && !typesx.IsStd(pkg.Path())
		}
		s.memo[pkg] = in
	}
	return in
}

// Import is pass.ImportObjectFact for the facts the pass reads.
func (s *Scope) Import(obj types.Object, fact analysis.Fact) bool {
	return obj != nil && s.Reads(obj.Pkg()) && s.pass.ImportObjectFact(obj, fact)
}
