package suppress

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestFind(t *testing.T) {
	const src = `package p

func f() {
	//lint:ignore fixedattempts polled once at start-up
	for {
	}
	for { //nolint:retrylint // bounded by the deploy
	}
	//nolint:fixedattempts
	for {
	}
	//lint:ignore sharedbudget reason
	for {
	}

	for {
	}
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	var loops []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if l, ok := n.(*ast.ForStmt); ok {
			loops = append(loops, l)
		}
		return true
	})
	want := []struct {
		ok     bool
		reason string
	}{
		{true, "polled once at start-up"},
		{true, "bounded by the deploy"},
		{true, ""},
		{false, ""}, // another pass
		{false, ""}, // nothing on its line or above
	}
	if len(loops) != len(want) {
		t.Fatalf("%d loops, want %d", len(loops), len(want))
	}
	for i, l := range loops {
		d, ok := Find(fset, []*ast.File{f}, l.Pos(), "fixedattempts", "nestedretry")
		if ok != want[i].ok || d.Reason != want[i].reason {
			t.Errorf("loop %d: Find = %+v, %v; want reason %q, %v", i, d, ok, want[i].reason, want[i].ok)
		}
		if ok && !strings.HasPrefix(d.Text, "//") {
			t.Errorf("loop %d: directive text %q", i, d.Text)
		}
	}
}
