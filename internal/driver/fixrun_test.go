package driver

import (
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// fixModule writes a module of one file, p.go, to a new directory.
func fixModule(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "p.go": src} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	return dir
}

// rewriter is an analyzer that reports every function named in bodies
// whose body is not yet the given text, with a fix that replaces the body
// by it.
func rewriter(name string, bodies map[string]string) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name: name,
		Doc:  "rewrite function bodies",
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				for _, d := range f.Decls {
					fd, ok := d.(*ast.FuncDecl)
					if !ok || bodies[fd.Name.Name] == "" {
						continue
					}
					tf := pass.Fset.File(fd.Pos())
					src, err := pass.ReadFile(tf.Name())
					if err != nil {
						return nil, err
					}
					if string(src[tf.Offset(fd.Body.Lbrace):tf.Offset(fd.Body.Rbrace)+1]) == bodies[fd.Name.Name] {
						continue
					}
					edit := analysis.TextEdit{Pos: fd.Body.Lbrace, End: fd.Body.Rbrace + 1, NewText: []byte(bodies[fd.Name.Name])}
					pass.Report(analysis.Diagnostic{Pos: fd.Pos(), Message: name + " " + fd.Name.Name,
						SuggestedFixes: []analysis.SuggestedFix{{Message: "rewrite", TextEdits: []analysis.TextEdit{edit}}}})
				}
			}
			return nil, nil
		},
	}
}

// fixRun analyzes the module in dir with the analyzers and returns a
// FixRun over it that checks builds and analyzes again, as -fix does.
func fixRun(t *testing.T, dir string, analyzers ...*analysis.Analyzer) (*FixRun, []*Finding) {
	t.Helper()
	pkgs, err := Load(dir, []string{"./..."}, false)
	if err != nil {
		t.Fatal(err)
	}
	analyze := func() ([]*Finding, error) {
		g, err := Analyze(analyzers, pkgs, true)
		if err != nil {
			return nil, err
		}
		return Findings(g), nil
	}
	fs, err := analyze()
	if err != nil {
		t.Fatal(err)
	}
	return &FixRun{
		Dir: dir,
		Check: func(overlay map[string][]byte) ([]string, error) {
			return BuildErrors(dir, []string{"./..."}, false, overlay, pkgs)
		},
		Reanalyze: func() ([]*Finding, error) {
			if pkgs, err = Load(dir, []string{"./..."}, false); err != nil {
				return nil, err
			}
			return analyze()
		},
	}, fs
}

// TestFixRounds: two passes whose fixes overlap (both rewrite F) are both
// applied in one run: the second round analyzes the code the first wrote
// and applies the fix it had to leave out.
func TestFixRounds(t *testing.T) {
	dir := fixModule(t, "package m\n\nfunc F() int { return 1 }\n\nfunc G() int { return 1 }\n")
	// a rewrites F and G; b rewrites F only while it still returns 1.
	a := rewriter("a", map[string]string{"G": "{ return 2 }"})
	b := &analysis.Analyzer{
		Name: "b",
		Doc:  "rewrite F once",
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && strings.HasPrefix(fd.Name.Name, "F") && len(fd.Body.List) == 1 {
						if ret := fd.Body.List[0].(*ast.ReturnStmt); ret.Results[0].(*ast.BasicLit).Value == "1" {
							edits := []analysis.TextEdit{{Pos: fd.Body.Lbrace, End: fd.Body.Rbrace + 1, NewText: []byte("{ return 3 }")}}
							pass.Report(analysis.Diagnostic{Pos: fd.Pos(), Message: "b F",
								SuggestedFixes: []analysis.SuggestedFix{{Message: "three", TextEdits: edits}}})
						}
					}
				}
			}
			return nil, nil
		},
	}
	// c rewrites F too, while it returns 1 or 3, so its fix overlaps b's.
	c := &analysis.Analyzer{
		Name: "c",
		Doc:  "rename F",
		Run: func(pass *analysis.Pass) (any, error) {
			for _, f := range pass.Files {
				for _, d := range f.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "F" {
						edits := []analysis.TextEdit{{Pos: fd.Name.Pos(), End: fd.Body.Rbrace + 1, NewText: []byte("F2() int { return F3() }\n\nfunc F3() int { return 4 }")}}
						pass.Report(analysis.Diagnostic{Pos: fd.Pos(), Message: "c F",
							SuggestedFixes: []analysis.SuggestedFix{{Message: "split", TextEdits: edits}}})
					}
				}
			}
			return nil, nil
		},
	}
	run, fs := fixRun(t, dir, a, b, c)
	var trace strings.Builder
	run.Trace = &trace
	res, err := run.Run(fs)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "p.go"))
	want := "package m\n\nfunc F2() int { return F3() }\n\nfunc F3() int { return 4 }\n\nfunc G() int { return 2 }\n"
	if string(got) != want {
		t.Errorf("p.go after the fixes:\n%s\nwant:\n%s\ntrace:\n%s", got, want, trace.String())
	}
	if !strings.Contains(trace.String(), "fix round 1: 2 fixes applied, 1 left out\n\tc at p.go:3:1 overlaps b at p.go:3:1\nfix round 2: 1 fixes applied, 0 left out\n") {
		t.Errorf("trace:\n%s", trace.String())
	}
	if res.Fixed != 3 || res.Files != 1 || len(res.Remaining) != 0 || res.Overlaps != 0 {
		t.Errorf("result: %d fixed in %d files, %d left; want 3 in 1, none left", res.Fixed, res.Files, len(res.Remaining))
	}
	if s := res.Summary(false); s != "fixed 3 findings in 1 file" {
		t.Errorf("summary %q", s)
	}
}

// TestFixBlame: fixes that each build alone but not together change no
// file, and the error names the compiler's first error and the fix it
// comes from.
func TestFixBlame(t *testing.T) {
	src := "package m\n\nfunc F() int { return 1 }\n\nfunc G() int { return 1 }\n\nfunc H() int { return 1 }\n"
	dir := fixModule(t, src)
	a := rewriter("a", map[string]string{"F": "{ x := 1; return x }"})
	b := rewriter("b", map[string]string{"G": "{ return F() }"})
	// c declares a function that clashes with one a's fix does not touch.
	c := rewriter("c", map[string]string{"H": "{ return 1 }\n\nfunc G() int { return 5 }"})
	run, fs := fixRun(t, dir, a, b, c)
	_, err := run.Run(fs)
	want := "the fixed code does not build, so no file was changed: p.go:9:6: G redeclared in this block (from the fix of c at p.go:7:1, together with the others)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "p.go")); string(got) != src {
		t.Errorf("p.go was changed:\n%s", got)
	}
}

// TestPlanBoundaries: an insertion at either end of a replacement does
// not overlap it, and goes before the replacement at its start and after
// it at its end; identical edits are made once.
func TestPlanBoundaries(t *testing.T) {
	src := []byte("time.Sleep(d)")
	edits := []edit{
		{start: 11, end: 12, text: "rand.N(d)", owner: 1},                // the duration
		{start: 0, end: 11, text: "select{case <-time.After(", owner: 0}, // before it
		{start: 12, end: 13, text: "):}", owner: 0},                      // after it
		{start: 0, end: 0, text: "guard;", owner: 2},                     // before the statement
		{start: 13, end: 13, text: ";next", owner: 2},                    // after it
	}
	for i, a := range edits {
		for j, b := range edits {
			if i != j && overlaps(a, b) {
				t.Errorf("%q and %q overlap", a.text, b.text)
			}
		}
	}
	out, err := apply(src, edits)
	if err != nil {
		t.Fatal(err)
	}
	if want := "guard;select{case <-time.After(rand.N(d)):};next"; string(out) != want {
		t.Errorf("apply: %q, want %q", out, want)
	}
	if !overlaps(edit{start: 0, end: 5}, edit{start: 3, end: 3}) || !overlaps(edit{start: 0, end: 5}, edit{start: 4, end: 8}) {
		t.Error("an insertion inside a replacement, or two crossing replacements, do not overlap")
	}
}

// TestFixRepeatsAnEdit: a fix that lists one insertion twice (an import
// two parts of it need) inserts it once.
func TestFixRepeatsAnEdit(t *testing.T) {
	dir := fixModule(t, "package m\n\nfunc F() int { return 1 }\n")
	a := &analysis.Analyzer{
		Name: "a",
		Doc:  "add one declaration, listed twice",
		Run: func(pass *analysis.Pass) (any, error) {
			f := pass.Files[0]
			fd := f.Decls[0].(*ast.FuncDecl)
			add := analysis.TextEdit{Pos: fd.Pos(), End: fd.Pos(), NewText: []byte("const k = 2\n\n")}
			body := analysis.TextEdit{Pos: fd.Body.Lbrace, End: fd.Body.Rbrace + 1, NewText: []byte("{ return k }")}
			pass.Report(analysis.Diagnostic{Pos: fd.Pos(), Message: "a F",
				SuggestedFixes: []analysis.SuggestedFix{{Message: "use k", TextEdits: []analysis.TextEdit{add, body, add}}}})
			return nil, nil
		},
	}
	run, fs := fixRun(t, dir, a)
	if _, err := run.Run(fs); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "p.go"))
	if want := "package m\n\nconst k = 2\n\nfunc F() int { return k }\n"; string(got) != want {
		t.Errorf("p.go after the fix:\n%s\nwant:\n%s", got, want)
	}
}
