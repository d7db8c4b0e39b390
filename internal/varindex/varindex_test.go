package varindex_test

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"testing"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/varindex"
)

const src = `package p

type client struct{ retries int; name string }

func (r *client) Set(n int) *client { r.retries = n; return r }

var pkgVar = 1

func f() (int, error) { return 0, nil }

func g() {
	once := 2
	twice := 3
	twice = 4
	n, err := f()
	bumped := 0
	bumped++
	addr := 5
	_ = &addr
	c := &client{name: "a"}
	c.retries = 3
	c.Set(1).Set(2)
	_, _, _, _, _, _ = once, twice, n, err, bumped, c
}
`

// TestIndex checks the index built by walking the files and the one built
// from their inspector: each must record the same.
func TestIndex(t *testing.T) {
	for _, withInspector := range []bool{false, true} {
		t.Run(map[bool]string{false: "files", true: "inspector"}[withInspector], func(t *testing.T) { testIndex(t, withInspector) })
	}
}

func testIndex(t *testing.T, withInspector bool) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info)
	if err != nil {
		t.Fatal(err)
	}
	var insp *inspector.Inspector
	if withInspector {
		insp = inspector.New([]*ast.File{f})
	}
	x := varindex.New(info, []*ast.File{f}, insp)
	local := func(name string) types.Object {
		for id, o := range info.Defs {
			if id.Name == name && o != nil {
				if _, ok := o.(*types.Var); ok {
					return o
				}
			}
		}
		t.Fatalf("no variable %s", name)
		return nil
	}
	if v := x.Of(local("once")); v == nil || v.Def == nil || v.Assigns != 0 || x.Once(local("once")) == nil {
		t.Errorf("once: %+v", v)
	}
	if v := x.Of(local("twice")); len(v.Values) != 2 || v.Assigns != 1 || v.Changed || x.Once(local("twice")) != nil || !x.Reassigned(local("twice")) {
		t.Errorf("twice: %+v", v)
	}
	if v := x.Of(local("err")); v.Def != nil || v.Init == nil || v.Assign() == nil {
		t.Errorf("err: Def %v Init %v", v.Def, v.Init)
	}
	if v := x.Of(local("bumped")); !v.Changed || v.Assigns != 1 {
		t.Errorf("bumped: %+v", v)
	}
	if v := x.Of(local("addr")); !v.Addr || !x.Reassigned(local("addr")) {
		t.Errorf("addr: %+v", v)
	}
	if v := x.Of(pkg.Scope().Lookup("pkgVar")); v == nil || v.Spec() == nil || v.Gen == nil || v.Def == nil {
		t.Errorf("pkgVar: %+v", v)
	}
	c := x.Of(local("c"))
	fields, calls := 0, 0
	for _, cf := range c.Configs {
		if cf.Field == "retries" {
			fields++
		}
		if cf.Call != nil {
			calls++
		}
	}
	if fields != 1 || calls != 2 {
		t.Errorf("c: %d field sets, %d method calls; want 1 and 2", fields, calls)
	}
	retries := pkg.Scope().Lookup("client").Type().Underlying().(*types.Struct).Field(0)
	if v := x.Of(retries); v == nil || len(v.Values) != 2 { // c.retries = n in Set, c.retries = 3 in g
		t.Errorf("the field retries: %+v", v)
	}
	name := pkg.Scope().Lookup("client").Type().Underlying().(*types.Struct).Field(1)
	if v := x.Of(name); v == nil || len(v.Values) != 1 { // the keyed literal
		t.Errorf("the field name: %+v", v)
	}
}
