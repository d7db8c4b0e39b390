package fixutil

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"go/types"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

func TestIdentName(t *testing.T) {
	for in, want := range map[string]string{
		"inventory":       "inventory",
		"Payments":        "payments",
		"ledger.internal": "ledgerInternal",
		"api-v2.example":  "apiV2Example",
		"2fa":             "fa",
		"OMSBaseURL":      "omsBaseURL",
		"URL":             "url",
		"HTTPClient":      "httpClient",
		"ID":              "id",
		"baseURL":         "baseURL",
		"Ab":              "ab",
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

// importPass type-checks src as p.go of package p (imports are empty
// packages of their paths' names) and returns a pass over it.
func importPass(t *testing.T, src string) (*analysis.Pass, *ast.File) {
	t.Helper()
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Defs: map[*ast.Ident]types.Object{}, Uses: map[*ast.Ident]types.Object{}, Implicits: map[ast.Node]types.Object{}, Scopes: map[ast.Node]*types.Scope{}}
	conf := types.Config{
		Importer: importerFunc(func(path string) (*types.Package, error) {
			pkg := types.NewPackage(path, pkgNameOf(path))
			pkg.MarkComplete()
			return pkg, nil
		}),
		Error: func(error) {}, // unused imports
	}
	pkg, _ := conf.Check("p", fset, []*ast.File{file}, info)
	return &analysis.Pass{Fset: fset, Files: []*ast.File{file}, Pkg: pkg, TypesInfo: info,
		ReadFile: func(string) ([]byte, error) { return []byte(src), nil }}, file
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// applyEdits applies edits (sorted by offset, none overlapping) to src.
func applyEdits(t *testing.T, pass *analysis.Pass, src string, edits []analysis.TextEdit) string {
	t.Helper()
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].Pos < edits[j].Pos })
	tf := pass.Fset.File(pass.Files[0].Pos())
	var b strings.Builder
	last := 0
	for _, e := range edits {
		start, end := tf.Offset(e.Pos), tf.Offset(e.End)
		if !e.End.IsValid() {
			end = start
		}
		if start < last {
			t.Fatalf("overlapping edits: %v", edits)
		}
		b.WriteString(src[last:start])
		b.Write(e.NewText)
		last = end
	}
	b.WriteString(src[last:])
	return b.String()
}

// TestAddImport checks the names and places of new imports: the same path
// always gives the same edit, two paths never the same name (crypto/rand
// is crand, math/rand/v2 randv2 where rand is taken), and each import goes
// to its group, sorted, so that gofmt leaves the result as it is.
func TestAddImport(t *testing.T) {
	const grouped = `package p

import (
	"context"
	"fmt"

	"example.com/lib"
)

var _ = context.Background
var _ = fmt.Sprint
var _ = lib.X
`
	cases := []struct {
		name, src string
		paths     []string
		names     []string
		want      string // the import block after the edits
	}{
		{"std into the std group, sorted", grouped, []string{"math/rand/v2", "crypto/rand"}, []string{"rand", "crand"},
			"import (\n\t\"context\"\n\tcrand \"crypto/rand\"\n\t\"fmt\"\n\t\"math/rand/v2\"\n\n\t\"example.com/lib\"\n)"},
		{"third party into its group", grouped, []string{"github.com/retrylint/retrylint/budget"}, []string{"budget"},
			"import (\n\t\"context\"\n\t\"fmt\"\n\n\t\"example.com/lib\"\n\t\"github.com/retrylint/retrylint/budget\"\n)"},
		{"a group of its own", "package p\n\nimport (\n\t\"fmt\"\n)\n\nvar _ = fmt.Sprint\n", []string{"github.com/retrylint/retrylint/budget", "time"}, []string{"budget", "time"},
			"import (\n\t\"fmt\"\n\t\"time\"\n\n\t\"github.com/retrylint/retrylint/budget\"\n)"},
		{"std before a third-party group", "package p\n\nimport (\n\t\"example.com/lib\"\n)\n\nvar _ = lib.X\n", []string{"time"}, []string{"time"},
			"import (\n\t\"time\"\n\n\t\"example.com/lib\"\n)"},
		{"rand taken by math/rand", "package p\n\nimport (\n\t\"math/rand\"\n)\n\nvar _ = rand.Int\n", []string{"math/rand/v2"}, []string{"randv2"},
			"import (\n\t\"math/rand\"\n\trandv2 \"math/rand/v2\"\n)"},
		{"existing import reused", "package p\n\nimport (\n\tr \"crypto/rand\"\n)\n\nvar _ = r.Text\n", []string{"crypto/rand"}, []string{"r"},
			"import (\n\tr \"crypto/rand\"\n)"},
		{"no import declaration", "package p\n", []string{"time"}, []string{"time"}, "import \"time\""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			pass, file := importPass(t, c.src)
			var all []analysis.TextEdit
			for i, path := range c.paths {
				name, edits := AddImport(pass, file, path, file.End())
				if name != c.names[i] {
					t.Errorf("AddImport(%q) name %q, want %q", path, name, c.names[i])
				}
				again, edits2 := AddImport(pass, file, path, file.End())
				if again != name || len(edits) != len(edits2) || len(edits) > 0 && (edits[0].Pos != edits2[0].Pos || string(edits[0].NewText) != string(edits2[0].NewText)) {
					t.Errorf("AddImport(%q) twice: %v, then %v", path, edits, edits2)
				}
				all = append(all, edits...)
			}
			out := applyEdits(t, pass, c.src, all)
			if !strings.Contains(out, c.want) {
				t.Errorf("after the edits:\n%s\nwant the imports:\n%s", out, c.want)
			}
			if formatted, err := format.Source([]byte(out)); err != nil || string(formatted) != out && c.name != "no import declaration" {
				t.Errorf("the result is not gofmt-clean (%v):\n%s", err, out)
			}
		})
	}
}

// TestInsertStmt: a statement inserted before or after one that has its
// own line goes at a line's start, apart from an edit of that line.
func TestInsertStmt(t *testing.T) {
	const src = "package p\n\nfunc f() {\n\tx := 1 // one\n\t_ = x; y := 2\n\t_ = y\n}\n"
	pass, file := importPass(t, src)
	body := file.Decls[0].(*ast.FuncDecl).Body.List
	tf := pass.Fset.File(file.Pos())
	for _, c := range []struct {
		st    ast.Stmt
		after bool
		want  string
	}{
		{body[0], false, "{\n\tguard()\n\tx := 1 // one\n"},
		{body[0], true, "\tx := 1 // one\n\tguard()\n\t_ = x"},
		{body[2], false, "_ = x; guard()\n\ty := 2"},
		{body[1], true, "_ = x\n\tguard(); y := 2"},
	} {
		e := InsertStmt(pass, file, c.st, c.after, "guard()")
		out := applyEdits(t, pass, src, []analysis.TextEdit{e})
		if !strings.Contains(out, c.want) {
			t.Errorf("InsertStmt(line %d, after=%v):\n%s\nwant it to contain %q", tf.Line(c.st.Pos()), c.after, out, c.want)
		}
	}
}

func TestUnique(t *testing.T) {
	imp := analysis.TextEdit{Pos: 10, End: 10, NewText: []byte("import \"x\"\n")}
	other := analysis.TextEdit{Pos: 10, End: 10, NewText: []byte("var v = x.New()\n")}
	got := Unique([]analysis.TextEdit{imp, other, imp, other, imp})
	if len(got) != 2 || string(got[0].NewText) != string(imp.NewText) || string(got[1].NewText) != string(other.NewText) {
		t.Errorf("Unique: %d edits %v, want the import then the declaration", len(got), got)
	}
}

func TestFreshName(t *testing.T) {
	const src = `package p

var pkgLevel int

func f(taken int) {
	for range 3 {
	}
	later := 1
	_ = later
	{
		inner := 2
		_ = inner
	}
}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Scopes: map[ast.Node]*types.Scope{}, Defs: map[*ast.Ident]types.Object{}}
	if _, err := new(types.Config).Check("p", fset, []*ast.File{file}, info); err != nil {
		t.Fatal(err)
	}
	var at token.Pos // just before the for statement, in the function's block
	ast.Inspect(file, func(n ast.Node) bool {
		if r, ok := n.(*ast.RangeStmt); ok {
			at = r.Pos() - 1
		}
		return true
	})
	for base, want := range map[string]string{
		"free":     "free",
		"taken":    "taken2",    // a parameter, in scope at the loop
		"later":    "later2",    // declared after the loop in its block: a declaration at the loop would clash
		"inner":    "inner",     // declared in a nested block only
		"pkgLevel": "pkgLevel2", // the package scope
		"type":     "type2",     // a keyword
	} {
		if got := FreshName(info, file, at, base); got != want {
			t.Errorf("FreshName(%q) = %q, want %q", base, got, want)
		}
	}
}

// TestCallArgs checks that a call the fixes build around source text is
// laid out as gofmt lays it out in any context, since analysistest
// compares goldens after formatting and would not see it.
func TestCallArgs(t *testing.T) {
	for _, c := range []struct {
		fun  string
		args []string
		want string
	}{
		{"max", []string{"time.Duration(attempt) * 100 * time.Millisecond", "1"}, "max(time.Duration(attempt)*100*time.Millisecond, 1)"},
		{"max", []string{"d", "1"}, "max(d, 1)"},
		{"max", []string{"a + b*c", "1"}, "max(a+b*c, 1)"},
		// One argument keeps the blanks its context gave it.
		{"rand.N", []string{"d * 2"}, "rand.N(d * 2)"},
		// A comment, or text that does not parse, is kept.
		{"max", []string{"d * 2 /* base */", "1"}, "max(d * 2 /* base */, 1)"},
		{"max", []string{"d *", "1"}, "max(d *, 1)"},
	} {
		if got := CallArgs(c.fun, c.args...); got != c.want {
			t.Errorf("CallArgs(%q, %q) = %q, want %q", c.fun, c.args, got, c.want)
		}
	}
}
