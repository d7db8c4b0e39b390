package gclplugin_test

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/gclplugin"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/passes"
)

// build runs the plugin constructor golangci-lint finds under the name
// "retrylint" on raw settings, as golangci-lint does, and builds the
// analyzers.
func build(t *testing.T, raw any) ([]*analysis.Analyzer, error) {
	t.Helper()
	newPlugin, err := register.GetPlugin("retrylint")
	if err != nil {
		t.Fatal(err)
	}
	p, err := newPlugin(raw)
	if err != nil {
		return nil, err
	}
	if mode := p.GetLoadMode(); mode != register.LoadModeTypesInfo {
		t.Errorf("GetLoadMode() = %q, want %q", mode, register.LoadModeTypesInfo)
	}
	return p.BuildAnalyzers()
}

func TestGoodSettings(t *testing.T) {
	for _, raw := range []any{
		nil,
		map[string]any{},
		map[string]any{
			"disable":        []any{},
			"budget-methods": []any{"Ration", "TryRetry"},
			"budget-funcs":   []any{"example.com/quota.Allow"},
			"budget-module":  true,
			"tests":          false,
		},
	} {
		as, err := build(t, raw)
		if err != nil {
			t.Errorf("settings %v: %v", raw, err)
			continue
		}
		if err := analysis.Validate(as); err != nil {
			t.Errorf("settings %v: %v", raw, err)
		}
		if len(as) != len(passes.All())+1 || as[len(as)-1].Name != "directives" {
			t.Errorf("settings %v: %d analyzers, want the %d passes and the directives check", raw, len(as), len(passes.All()))
		}
	}
}

func TestDecode(t *testing.T) {
	newPlugin, err := register.GetPlugin("retrylint")
	if err != nil {
		t.Fatal(err)
	}
	// Settings arrive from YAML as maps of any; DecodeSettings is the
	// round trip golangci-lint plugins are expected to use.
	s, err := register.DecodeSettings[gclplugin.Settings](map[string]any{
		"budget-methods": []any{"Ration"},
		"disable":        []any{"fixedattempts"},
		"tests":          false,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.BudgetMethods, []string{"Ration"}) || !reflect.DeepEqual(s.Disable, []string{"fixedattempts"}) || s.Tests == nil || *s.Tests {
		t.Errorf("decoded %+v", s)
	}
	for _, tc := range []struct {
		raw  map[string]any
		want string // in the error
	}{
		// Wrong types.
		{map[string]any{"budget-methods": "Ration"}, "budget-methods"},
		{map[string]any{"budget-methods": []any{1, 2}}, "budget-methods"},
		{map[string]any{"budget-module": "yes"}, "budget-module"},
		{map[string]any{"tests": "no"}, "tests"},
		{map[string]any{"disable": map[string]any{"fixedattempts": true}}, "disable"},
		// Unknown keys, including a near miss and golangci-lint's own keys
		// put one level too deep.
		{map[string]any{"budget-method": []any{"Ration"}}, `unknown field "budget-method"`},
		{map[string]any{"enable": []any{"fixedattempts"}}, `unknown field "enable"`},
		{map[string]any{"settings": map[string]any{}}, `unknown field "settings"`},
		// Values that decode but mean nothing.
		{map[string]any{"disable": []any{"nosuch"}}, `no pass named "nosuch"`},
	} {
		_, err := newPlugin(tc.raw)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("settings %v: error %v, want one mentioning %s", tc.raw, err, tc.want)
		}
	}
}

// TestSettingsCoverFlags checks that every flag of the command's passes,
// and of the shared retry-site analysis, is a settings key of the plugin,
// so that golangci-lint users can set whatever command users can.
func TestSettingsCoverFlags(t *testing.T) {
	keys := map[string]bool{}
	var collect func(reflect.Type)
	collect = func(typ reflect.Type) {
		for f := range typ.Fields() {
			if f.Anonymous {
				collect(f.Type)
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			keys[name] = true
		}
	}
	collect(reflect.TypeFor[gclplugin.Settings]())
	for _, a := range append(passes.All(), retrysite.Analyzer) {
		a.Flags.VisitAll(func(f *flag.Flag) {
			if !keys[f.Name] {
				t.Errorf("flag -%s.%s has no plugin setting %q (add it to passes.Settings)", a.Name, f.Name, f.Name)
			}
		})
	}
}

func TestFreshAnalyzers(t *testing.T) {
	before := map[string]string{}
	retrysite.Analyzer.Flags.VisitAll(func(f *flag.Flag) { before[f.Name] = f.Value.String() })
	as, err := build(t, map[string]any{"budget-methods": []any{"Ration"}})
	if err != nil {
		t.Fatal(err)
	}
	globals := map[*analysis.Analyzer]bool{retrysite.Analyzer: true}
	for _, a := range passes.All() {
		globals[a] = true
	}
	for _, a := range as {
		if globals[a] {
			t.Errorf("%s: the plugin returned the flag-bound analyzer", a.Name)
		}
		for _, r := range a.Requires {
			if globals[r] {
				t.Errorf("%s requires the flag-bound %s", a.Name, r.Name)
			}
		}
	}
	retrysite.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		if got := f.Value.String(); got != before[f.Name] {
			t.Errorf("-retrysite.%s changed from %q to %q", f.Name, before[f.Name], got)
		}
	})
}

// quiet collects what analysistest would report as test failures.
type quiet struct{ errs []string }

func (q *quiet) Errorf(format string, args ...any) {
	q.errs = append(q.errs, fmt.Sprintf(format, args...))
}

// loaded caches the testdata packages count loads: loading one (and its
// dependencies, from source, as the passes' facts need) costs more than
// analyzing it.
var loaded = map[string][]*packages.Package{}

// count runs the plugin's analyzers with raw settings on the testdata
// package pkg, in one run, and returns how many diagnostics each pass
// reports.
func count(t *testing.T, raw any, pkg string) map[string]int {
	t.Helper()
	as, err := build(t, raw)
	if err != nil {
		t.Fatal(err)
	}
	pkgs, ok := loaded[pkg]
	if !ok {
		dir := analysistest.TestData()
		cfg := &packages.Config{
			Mode: packages.LoadAllSyntax,
			Dir:  filepath.Join(dir, "src", pkg),
			Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOWORK=off", "GOFLAGS="),
		}
		pkgs, err = packages.Load(cfg, ".")
		if err != nil || packages.PrintErrors(pkgs) > 0 {
			t.Fatalf("loading %s: %v", pkg, err)
		}
		loaded[pkg] = pkgs
	}
	graph, err := checker.Analyze(as, pkgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for act := range graph.All() {
		if act.IsRoot {
			if act.Err != nil {
				t.Errorf("%s: %v", act.Analyzer.Name, act.Err)
			}
			n[act.Analyzer.Name] += len(act.Diagnostics)
		}
	}
	return n
}

func TestSettingsTakeEffect(t *testing.T) {
	if n := count(t, nil, "ration")["fixedattempts"]; n != 1 {
		t.Errorf("default settings: %d fixedattempts diagnostics, want 1", n)
	}
	// Ration becomes a budget method: the loop is guarded.
	if n := count(t, map[string]any{"budget-methods": []any{"Ration", "TryRetry"}}, "ration")["fixedattempts"]; n != 0 {
		t.Errorf("budget-methods [Ration]: %d fixedattempts diagnostics, want 0", n)
	}
	if n := count(t, map[string]any{"disable": []any{"fixedattempts"}}, "ration")["fixedattempts"]; n != 0 {
		t.Errorf("disable [fixedattempts]: %d diagnostics, want 0", n)
	}
}

// TestDisable runs the plugin on a package where nojitter, blindsleep and
// reusedbody each report once, and disables each in turn.
func TestDisable(t *testing.T) {
	passes := []string{"nojitter", "blindsleep", "reusedbody"}
	all := count(t, nil, "waits")
	for _, p := range passes {
		if all[p] != 1 {
			t.Errorf("default settings: %d %s diagnostics, want 1", all[p], p)
		}
	}
	for _, p := range passes {
		got := count(t, map[string]any{"disable": []any{p}}, "waits")
		for _, q := range passes {
			want := 1
			if q == p {
				want = 0
			}
			if got[q] != want {
				t.Errorf("disable [%s]: %d %s diagnostics, want %d", p, got[q], q, want)
			}
		}
	}
	if got := count(t, map[string]any{"disable": []any{"nojitter", "blindsleep", "reusedbody"}}, "waits"); got["nojitter"]+got["blindsleep"]+got["reusedbody"] != 0 {
		t.Errorf("all three disabled: %v", got)
	}
}

// TestDirectives checks that the plugin honours // nolint:retrylint with
// a space, as golangci-lint does, and reports a //lint:ignore with no
// reason and one that silences nothing.
func TestDirectives(t *testing.T) {
	// The directives check requires every pass: one run of it runs them
	// all. fixedattempts is run on its own for its diagnostics.
	report := func(raw any, names ...string) []string {
		as, err := build(t, raw)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, name := range names {
			for _, a := range as {
				if a.Name != name {
					continue
				}
				for _, r := range analysistest.Run(&quiet{}, analysistest.TestData(), a, "directives") {
					for _, d := range r.Diagnostics {
						got = append(got, fmt.Sprintf("%d %s: %s", r.Pass.Fset.Position(d.Pos).Line, a.Name, d.Message))
					}
				}
			}
		}
		return got
	}
	got := report(nil, "fixedattempts", "directives")
	want := []string{
		"23 fixedattempts: retry loop makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load",
		"22 directives: //lint:ignore fixedattempts gives no reason, so it silences nothing: say why after the pass name",
		"29 directives: //lint:ignore fixedattempts silences nothing: no fixedattempts diagnostic in the line or statement below it; remove it",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// With fixedattempts disabled, its directives are not judged unused;
	// the one without a reason is still reported.
	got = report(map[string]any{"disable": []any{"fixedattempts"}}, "directives")
	if !reflect.DeepEqual(got, want[1:2]) {
		t.Errorf("disable [fixedattempts]: got\n%s\nwant\n%s", strings.Join(got, "\n"), want[1])
	}
}

const src = `package p

func f() {}
`

// TestWrap checks, with a stand-in pass, that each diagnostic keeps only
// its first same-file fix and no related information, and that
// diagnostics in test files are dropped when tests is false.
func TestWrap(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range []string{"p.go", "p_test.go"} {
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	edit := func(f *ast.File, text string) analysis.TextEdit {
		return analysis.TextEdit{Pos: f.Name.Pos(), End: f.Name.End(), NewText: []byte(text)}
	}
	helper := &analysis.Analyzer{Name: "helper", Doc: "helper", Run: func(*analysis.Pass) (any, error) { return nil, nil }}
	stand := &analysis.Analyzer{
		Name:     "stand",
		Doc:      "stand-in",
		Requires: []*analysis.Analyzer{helper},
		Run: func(pass *analysis.Pass) (any, error) {
			main, test := pass.Files[0], pass.Files[1]
			pass.Report(analysis.Diagnostic{Pos: main.Name.Pos(), Message: "two fixes and one elsewhere", Related: []analysis.RelatedInformation{
				{Pos: main.Name.End(), Message: "related"},
			}, SuggestedFixes: []analysis.SuggestedFix{
				{Message: "Edit the other file", TextEdits: []analysis.TextEdit{edit(main, "a"), edit(test, "b")}},
				{Message: "First", TextEdits: []analysis.TextEdit{edit(main, "c")}},
				{Message: "Second", TextEdits: []analysis.TextEdit{edit(main, "d")}},
			}})
			pass.Reportf(test.Name.Pos(), "in a test file")
			pass.ReportRangef(main.Name, "no fix")
			return nil, nil
		},
	}
	for _, tests := range []bool{true, false} {
		wrapped := gclplugin.Wrap([]*analysis.Analyzer{stand, helper}, tests)
		if wrapped[0] == stand || wrapped[1] == helper || wrapped[0].Requires[0] != wrapped[1] {
			t.Fatalf("Wrap did not copy the analyzers or remap their requirements")
		}
		var got []string
		pass := &analysis.Pass{Analyzer: wrapped[0], Fset: fset, Files: files, Report: func(d analysis.Diagnostic) {
			var fixes []string
			for _, f := range d.SuggestedFixes {
				fixes = append(fixes, f.Message)
			}
			got = append(got, fmt.Sprintf("%s %s %v %d", fset.Position(d.Pos), d.Message, fixes, len(d.Related)))
		}}
		if _, err := wrapped[0].Run(pass); err != nil {
			t.Fatal(err)
		}
		want := []string{"p.go:1:9 two fixes and one elsewhere [First] 0"}
		if tests {
			want = append(want, "p_test.go:1:9 in a test file [] 0")
		}
		want = append(want, "p.go:1:9 no fix [] 0")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("tests=%v: got\n%s\nwant\n%s", tests, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	if stand.Requires[0] != helper {
		t.Error("Wrap modified the analyzer it was given")
	}
}
