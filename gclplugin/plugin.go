// Package gclplugin is retrylint's golangci-lint v2 module plugin. Importing
// it registers the plugin "retrylint", which runs every retrylint pass as
// one golangci-lint linter named retrylint; golangci-lint prefixes each
// message with the pass name ("fixedattempts: retry loop makes ...").
//
// golangci-lint never sees analyzer flags: every setting arrives through
// linters.settings.custom.retrylint.settings in .golangci.yml, decoded into
// Settings. Unknown keys and values of the wrong type are errors, reported
// when golangci-lint starts.
//
//	version: "2"
//	linters:
//	  default: none
//	  enable: [retrylint]
//	  settings:
//	    custom:
//	      retrylint:
//	        type: module
//	        description: retry code that turns a slow dependency into an outage
//	        original-url: https://github.com/retrylint/retrylint
//	        settings:
//	          disable: []               # passes not to run
//	          budget-methods: [TryRetry, Allow]
//	          tests: true               # report in _test.go files
//
// The analyzers are built fresh from the settings (passes.New); the
// flag-bound analyzers of the retrylint command are never touched. Besides
// the passes, the plugin runs the directives check, which reports
// //lint:ignore directives for retrylint's passes that give no reason or
// silence nothing (golangci-lint shows it as "directives: ...").
package gclplugin

import (
	"go/token"
	"strings"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/passes"
)

// Name is the plugin's name: the key under linters.settings.custom and the
// linter golangci-lint reports.
const Name = "retrylint"

func init() {
	register.Plugin(Name, New)
}

// Settings are the plugin's settings. The embedded passes.Settings carries
// every pass's settings, with the command's flag names as keys
// (budget-methods is -retrysite.budget-methods); the fields below are the
// plugin's own.
type Settings struct {
	passes.Settings

	// Tests reports diagnostics in _test.go files; default true. With
	// false, test files are still loaded (golangci-lint's run.tests
	// decides that) but the passes report nothing in them.
	Tests *bool `json:"tests"`
}

type plugin struct {
	settings Settings
}

// New decodes the settings golangci-lint passes (nil when there are none)
// and checks them by building the analyzers once.
func New(raw any) (register.LinterPlugin, error) {
	s, err := register.DecodeSettings[Settings](raw)
	if err != nil {
		return nil, err
	}
	if _, err := passes.New(s.Settings); err != nil {
		return nil, err
	}
	return &plugin{settings: s}, nil
}

// BuildAnalyzers returns fresh analyzers built from the settings, and the
// directives check of their //lint:ignore directives, wrapped for
// golangci-lint.
func (p *plugin) BuildAnalyzers() ([]*analysis.Analyzer, error) {
	as, err := passes.New(p.settings.Settings)
	if err != nil {
		return nil, err
	}
	tests := p.settings.Tests == nil || *p.settings.Tests
	var known []string
	for _, a := range passes.All() {
		known = append(known, a.Name)
	}
	return Wrap(append(as, suppress.Check(as, known)), tests), nil
}

// GetLoadMode asks golangci-lint for syntax and type information.
func (p *plugin) GetLoadMode() string {
	return register.LoadModeTypesInfo
}

// Wrap returns copies of the analyzers whose diagnostics are adapted to
// golangci-lint:
//   - each keeps at most one suggested fix, the first whose edits all lie in
//     the diagnostic's own file: golangci-lint applies every fix of a
//     diagnostic and drops edits in other files, while a pass may offer
//     alternatives;
//   - related information is dropped: golangci-lint would turn each related
//     location into an issue of its own ("fixedattempts(related
//     information): attempt made here"), on a line that a //nolint on the
//     finding does not cover; the message says what matters on its own;
//   - unless tests is set, diagnostics in _test.go files are dropped.
//
// The analyzers given are not modified; a copy that another of them
// requires replaces it there too.
func Wrap(as []*analysis.Analyzer, tests bool) []*analysis.Analyzer {
	copies := make(map[*analysis.Analyzer]*analysis.Analyzer, len(as))
	out := make([]*analysis.Analyzer, len(as))
	for i, a := range as {
		c := *a // the flag set comes along but is never used: settings are fixed
		c.Run = wrapRun(a.Run, tests)
		w := &c
		copies[a] = w
		out[i] = w
	}
	for _, w := range out {
		var reqs []*analysis.Analyzer
		for _, r := range w.Requires {
			if c, ok := copies[r]; ok {
				r = c
			}
			reqs = append(reqs, r)
		}
		w.Requires = reqs
	}
	return out
}

func wrapRun(run func(*analysis.Pass) (any, error), tests bool) func(*analysis.Pass) (any, error) {
	return func(pass *analysis.Pass) (any, error) {
		p := *pass // Reportf and ReportRangef call p.Report
		p.Report = func(d analysis.Diagnostic) {
			if !tests && inTestFile(pass.Fset, d.Pos) {
				return
			}
			d.SuggestedFixes = firstSameFileFix(pass.Fset, d)
			d.Related = nil
			pass.Report(d)
		}
		return run(&p)
	}
}

func inTestFile(fset *token.FileSet, pos token.Pos) bool {
	f := fset.File(pos)
	return f != nil && strings.HasSuffix(f.Name(), "_test.go")
}

// firstSameFileFix returns the first suggested fix of d whose edits all lie
// in d's file, alone, or nil.
func firstSameFileFix(fset *token.FileSet, d analysis.Diagnostic) []analysis.SuggestedFix {
	file := fset.File(d.Pos)
	if file == nil {
		return nil
	}
next:
	for _, fix := range d.SuggestedFixes {
		for _, e := range fix.TextEdits {
			if fset.File(e.Pos) != file {
				continue next
			}
		}
		return []analysis.SuggestedFix{fix}
	}
	return nil
}
