package fixutil

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"testing"
)

func TestIdentName(t *testing.T) {
	for in, want := range map[string]string{
		"inventory":       "inventory",
		"Payments":        "payments",
		"ledger.internal": "ledgerInternal",
		"api-v2.example":  "apiV2Example",
		"2fa":             "fa",
		"type":            "",
		"123":             "",
		"":                "",
	} {
		if got := IdentName(in); got != want {
			t.Errorf("IdentName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestZeroValue(t *testing.T) {
	const src = `package p

type S struct{}
type I interface{ M() }

func f[T any, P interface{ *int | *string }, _ any](T, P) (t T, p P, s S, i I, b bool, n int, str string, sl []int, ptr *S) {
	return
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := new(types.Config).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	sig := pkg.Scope().Lookup("f").Type().(*types.Signature)
	want := []string{"*new(T)", "*new(P)", "S{}", "nil", "false", "0", `""`, "nil", "nil"}
	for i := range sig.Results().Len() {
		if got := ZeroValue(sig.Results().At(i).Type(), pkg); got != want[i] {
			t.Errorf("ZeroValue(%s) = %q, want %q", sig.Results().At(i).Type(), got, want[i])
		}
	}
	if got := ZeroValue(sig.TypeParams().At(2), pkg); got != "" {
		t.Errorf("ZeroValue of the blank type parameter = %q, want \"\"", got)
	}
}

func TestPkgNameOf(t *testing.T) {
	for in, want := range map[string]string{
		"math/rand/v2":                   "rand",
		"math/rand":                      "rand",
		"github.com/cenkalti/backoff/v5": "backoff",
		"time":                           "time",
		"example.com/v2":                 "example.com",
		"example.com/value":              "value",
		"v2":                             "v2",
	} {
		if got := pkgNameOf(in); got != want {
			t.Errorf("pkgNameOf(%q) = %q, want %q", in, got, want)
		}
	}
}
