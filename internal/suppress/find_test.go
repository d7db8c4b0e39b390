package suppress

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
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
	ds := Parse(fset, []*ast.File{f})
	for i, l := range loops {
		d, ok := ds.Lookup(fset, l.Pos(), "fixedattempts")
		reason := ""
		if ok {
			reason = d.Reason
			if !strings.HasPrefix(src[fset.Position(d.Pos).Offset:], "//") {
				t.Errorf("loop %d: the directive's position is not its comment", i)
			}
		}
		if ok != want[i].ok || reason != want[i].reason {
			t.Errorf("loop %d: Lookup = %q, %v; want reason %q, %v", i, reason, ok, want[i].reason, want[i].ok)
		}
	}
}
