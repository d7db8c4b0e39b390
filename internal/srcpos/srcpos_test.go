package srcpos

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"
)

const src = "package p\n\nfunc f() {\n\tfor {\n\t}\n}\n"

func TestPos(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "p.go")
	if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}

	// Parsed: the position is in the parsed file.
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	p := Pos(fset, name+":4:2")
	if got := fset.Position(p).String(); got != name+":4:2" || fset.File(p) != fset.File(f.Pos()) {
		t.Errorf("parsed: Pos = %s in %v", got, fset.File(p).Name())
	}

	// Export data's made-up file (lines one byte long, as x/tools'
	// gcimporter makes them): the real file is added, once.
	fset = token.NewFileSet()
	fake := fset.AddFile(name, -1, 64*1024)
	lines := make([]int, 6)
	for i := range lines {
		lines[i] = i
	}
	fake.SetLines(lines)
	p = Pos(fset, name+":4:2")
	if got := fset.Position(p).String(); got != name+":4:2" || fset.File(p) == fake {
		t.Errorf("export data: Pos = %s", got)
	}
	p2 := Pos(fset, name+":5:2")
	if fset.File(p2) != fset.File(p) {
		t.Errorf("the file was added twice")
	}
	if got := fset.Position(p2).String(); got != name+":5:2" {
		t.Errorf("export data, second lookup: Pos = %s", got)
	}

	// Out of range, malformed, missing.
	for _, bad := range []string{name + ":9:1", name + ":4:99", name + ":0:1", name + ":x:1", "p.go", filepath.Join(dir, "nosuch.go") + ":1:1", ":1:1"} {
		if p := Pos(fset, bad); p.IsValid() {
			t.Errorf("Pos(%q) = %s, want NoPos", bad, fset.Position(p))
		}
	}
}

// TestCompare checks that positions of two files are ordered by file
// name, whichever file was added to the file set first.
func TestCompare(t *testing.T) {
	fset := token.NewFileSet()
	b := fset.AddFile("b.go", -1, 10)
	a := fset.AddFile("a.go", -1, 10)
	if got := Compare(fset, a.Pos(5), b.Pos(1)); got >= 0 {
		t.Errorf("a.go:5 against b.go:1 = %d, want < 0", got)
	}
	if got := Compare(fset, b.Pos(1), a.Pos(5)); got <= 0 {
		t.Errorf("b.go:1 against a.go:5 = %d, want > 0", got)
	}
	if got := Compare(fset, a.Pos(2), a.Pos(5)); got >= 0 {
		t.Errorf("a.go:2 against a.go:5 = %d, want < 0", got)
	}
	if got := Compare(fset, a.Pos(5), a.Pos(5)); got != 0 {
		t.Errorf("a.go:5 against itself = %d, want 0", got)
	}
}
