package astx_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"runtime"
	"testing"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
)

// TestFind checks that Find locates every node of real files, among them
// the shapes whose spans coincide (an expression statement and its call, a
// parenthesized expression, a function's name and type) and that it
// reports a node from another tree as absent; and that a Finder finds
// the same.
func TestFind(t *testing.T) {
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range []string{"net/http/client.go", "go/ast/walk.go", "sort/sort.go"} {
		f, err := parser.ParseFile(fset, filepath.Join(runtime.GOROOT(), "src", name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	src := "package p\nfunc f() { g(); (g)(); x := (1); _ = x; func(){}() }\nfunc g() {}\n"
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, f)
	in := inspector.New(files)
	finder := astx.NewFinder(in)
	n := 0
	for cur := range in.Root().Preorder() {
		got, ok := astx.Find(in.Root(), cur.Node())
		if !ok || got != cur {
			t.Fatalf("Find(%T at %s) = %v, %v; want the node's own cursor", cur.Node(), fset.Position(cur.Node().Pos()), got.Node(), ok)
		}
		if got, ok := finder.Find(cur.Node()); !ok || got != cur {
			t.Fatalf("Finder.Find(%T at %s) = %v, %v; want the node's own cursor", cur.Node(), fset.Position(cur.Node().Pos()), got.Node(), ok)
		}
		n++
	}
	if n < 1000 {
		t.Fatalf("walked only %d nodes", n)
	}
	other, err := parser.ParseFile(token.NewFileSet(), "q.go", "package q\nfunc h() {}\n", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := astx.Find(in.Root(), other.Decls[0]); ok {
		t.Error("Find reported a node of another tree as present")
	}
	if _, ok := finder.Find(other.Decls[0]); ok {
		t.Error("Finder.Find reported a node of another tree as present")
	}
}

// TestFields: the keyed fields of a literal in order, unkeyed elements
// skipped, an early stop honoured, and Field's nil for an absent name.
func TestFields(t *testing.T) {
	e, err := parser.ParseExpr(`T{Steps: 4, 7, Factor: 1.5, Jitter: 0}`)
	if err != nil {
		t.Fatal(err)
	}
	lit := e.(*ast.CompositeLit)
	var names []string
	for name := range astx.Fields(lit) {
		names = append(names, name)
		if name == "Factor" {
			break
		}
	}
	if got := fmt.Sprint(names); got != "[Steps Factor]" {
		t.Errorf("Fields: %s, want [Steps Factor]", got)
	}
	if v, ok := astx.Field(lit, "Jitter").(*ast.BasicLit); !ok || v.Value != "0" {
		t.Errorf("Field(Jitter) = %v, want 0", astx.Field(lit, "Jitter"))
	}
	if v := astx.Field(lit, "Duration"); v != nil {
		t.Errorf("Field(Duration) = %v, want nil", v)
	}
}
