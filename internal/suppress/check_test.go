package suppress_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/passes/blindsleep"
	"github.com/retrylint/retrylint/passes/fixedattempts"
	"github.com/retrylint/retrylint/passes/freshtimeout"
	"github.com/retrylint/retrylint/passes/nojitter"
)

// TestCheck runs the directives check after fixedattempts and
// freshtimeout: directives without a reason and directives that silence
// nothing are reported, the others are not.
func TestCheck(t *testing.T) {
	check := suppress.Check([]*analysis.Analyzer{fixedattempts.Analyzer, freshtimeout.Analyzer}, []string{"fixedattempts", "freshtimeout"})
	if err := analysis.Validate([]*analysis.Analyzer{check}); err != nil {
		t.Fatal(err)
	}
	analysistest.Run(t, analysistest.TestData(), check, "directives")
}

// TestCheckSwitchedOff runs the check with freshtimeout switched off: a
// directive that names it, or retrylint, is not judged unused (the pass
// that would use it did not run), but one with no reason still is
// reported.
func TestCheckSwitchedOff(t *testing.T) {
	check := suppress.Check([]*analysis.Analyzer{fixedattempts.Analyzer}, []string{"fixedattempts", "freshtimeout"})
	analysistest.Run(t, analysistest.TestData(), check, "switchedoff")
}

// TestRanges runs fixedattempts, nojitter and blindsleep, then the
// directives check, over directives above, at the end of and near retry
// loops, and compares every pass's diagnostics with the // want comments:
// what each directive covers is what golangci-lint's //nolint covers.
func TestRanges(t *testing.T) {
	passes := []*analysis.Analyzer{fixedattempts.Analyzer, nojitter.Analyzer, blindsleep.Analyzer}
	check := suppress.Check(passes, []string{"fixedattempts", "nojitter", "blindsleep"})
	dir := filepath.Join(analysistest.TestData(), "src", "ranges")
	loaded, err := packages.Load(&packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  dir,
		Env:  append(os.Environ(), "GOPATH="+analysistest.TestData(), "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}, ".")
	if err != nil {
		t.Fatal(err)
	}
	g, err := checker.Analyze([]*analysis.Analyzer{check}, loaded, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[int][]string{} // line → messages
	for act := range g.All() {
		if act.Err != nil {
			t.Fatalf("%s: %v", act.Analyzer.Name, act.Err)
		}
		if act.Package != loaded[0] {
			continue
		}
		for _, d := range act.Diagnostics {
			line := act.Package.Fset.Position(d.Pos).Line
			got[line] = append(got[line], d.Message)
		}
	}
	src, err := os.ReadFile(filepath.Join(dir, "ranges.go"))
	if err != nil {
		t.Fatal(err)
	}
	wantRE := regexp.MustCompile("`([^`]*)`")
	for i, text := range strings.Split(string(src), "\n") {
		line := i + 1
		var want []string
		if _, w, ok := strings.Cut(text, "// want "); ok {
			for _, m := range wantRE.FindAllStringSubmatch(w, -1) {
				want = append(want, m[1])
			}
		}
		msgs := got[line]
		delete(got, line)
		for _, w := range want {
			re := regexp.MustCompile(w)
			j := slices.IndexFunc(msgs, re.MatchString)
			if j < 0 {
				t.Errorf("ranges.go:%d: no diagnostic matching %q", line, w)
				continue
			}
			msgs = slices.Delete(msgs, j, j+1)
		}
		for _, m := range msgs {
			t.Errorf("ranges.go:%d: unexpected diagnostic %q", line, m)
		}
	}
	for line, msgs := range got {
		t.Errorf("ranges.go:%d: unexpected diagnostics %q", line, msgs)
	}
}
