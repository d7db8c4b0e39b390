package driver

import (
	"go/token"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
)

// TestOrder checks the order of findings: file, line, column, then
// analyzer, then message, whatever order they come in.
func TestOrder(t *testing.T) {
	fset := token.NewFileSet()
	pkg := &packages.Package{ID: "p", Fset: fset}
	a, b := &analysis.Analyzer{Name: "alpha"}, &analysis.Analyzer{Name: "beta"}
	mk := func(file string, line, col int, an *analysis.Analyzer, msg string) *Finding {
		p := token.Position{Filename: file, Line: line, Column: col}
		return &Finding{Analyzer: an, Package: pkg, Diag: analysis.Diagnostic{Message: msg}, Posn: p, End: p}
	}
	want := []*Finding{
		mk("/m/a.go", 3, 1, b, "x"),
		mk("/m/a.go", 10, 2, a, "y"),
		mk("/m/a.go", 10, 2, b, "a"),
		mk("/m/a.go", 10, 2, b, "b"),
		mk("/m/a.go", 10, 7, a, "a"),
		mk("/m/b.go", 1, 1, a, "a"),
		mk("/m/p/a.go", 2, 1, a, "a"),
	}
	name := func(fs []*Finding) string {
		var out []string
		for _, f := range fs {
			out = append(out, f.Posn.String()+" "+f.Analyzer.Name+" "+f.Diag.Message)
		}
		return strings.Join(out, "\n")
	}
	r := rand.New(rand.NewSource(1))
	for range 20 {
		got := slices.Clone(want)
		r.Shuffle(len(got), func(i, j int) { got[i], got[j] = got[j], got[i] })
		slices.SortStableFunc(got, compare)
		if name(got) != name(want) {
			t.Fatalf("sorted:\n%s\nwant:\n%s", name(got), name(want))
		}
	}
	// Unique drops the copy a test variant makes, and only it.
	dup := *want[1]
	dup.Package = &packages.Package{ID: "p [p.test]", Fset: fset}
	if got := Unique(append(slices.Clone(want), &dup)); len(got) != len(want) {
		t.Errorf("Unique kept %d of %d", len(got), len(want)+1)
	}
}

func TestRel(t *testing.T) {
	for _, tc := range []struct{ dir, name, want string }{
		{"/m", "/m/p/p.go", "p/p.go"},
		{"/m", "/m2/p.go", "/m2/p.go"},
		{"/m", "/elsewhere/p.go", "/elsewhere/p.go"},
		{"/m", "p.go", "p.go"},
		{"", "/m/p.go", "/m/p.go"},
	} {
		if got := Rel(tc.dir, tc.name); got != tc.want {
			t.Errorf("Rel(%q, %q) = %q, want %q", tc.dir, tc.name, got, tc.want)
		}
	}
	if got := relPos("/m", "/m/p/p.go:3:9"); got != "p/p.go:3:9" {
		t.Errorf("relPos = %q", got)
	}
}
