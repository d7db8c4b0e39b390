package typesx_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"github.com/retrylint/retrylint/internal/typesx"
)

func TestConsts(t *testing.T) {
	const src = `package p

const n = 3
var v = 4

var _, _, _, _, _ = n + 1, v, "key", 2.0, 2.5
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	if _, err := new(types.Config).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	vals := f.Decls[2].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values
	if got, ok := typesx.IntConst(info, vals[0]); !ok || got != 4 {
		t.Errorf("IntConst(n + 1) = %d, %t; want 4, true", got, ok)
	}
	if _, ok := typesx.IntConst(info, vals[1]); ok {
		t.Error("IntConst of a variable reported a constant")
	}
	if got, ok := typesx.StringConst(info, vals[2]); !ok || got != "key" {
		t.Errorf("StringConst(\"key\") = %q, %t", got, ok)
	}
	if _, ok := typesx.IntConst(info, vals[2]); ok {
		t.Error("IntConst of a string reported an integer")
	}
	if got, ok := typesx.IntConst(info, vals[3]); !ok || got != 2 {
		t.Errorf("IntConst(2.0) = %d, %t; want 2, true", got, ok)
	}
	if _, ok := typesx.IntConst(info, vals[4]); ok {
		t.Error("IntConst(2.5) reported an integer")
	}
	if _, ok := typesx.StringConst(info, nil); ok {
		t.Error("StringConst(nil) reported a constant")
	}
}
