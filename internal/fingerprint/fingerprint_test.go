package fingerprint

import (
	"go/parser"
	"go/token"
	"testing"
)

func TestKey(t *testing.T) {
	base := Finding{Rule: "fixedattempts", File: "example.com/m/p/p.go", Func: "(*Client).Get", Message: "retry loop makes up to 3 attempts", Site: "\tfor i := 0; i < 3; i++ {"}
	k := base.Key()
	if len(k) != 32 {
		t.Errorf("Key() = %q, want 32 hex digits", k)
	}
	// Changes that keep the key: spacing, comments on the line, a
	// position in the message.
	same := []Finding{
		{Rule: base.Rule, File: base.File, Func: base.Func, Message: "retry loop  makes up to 3 attempts ", Site: "for i:=0; i<3; i++ {"},
		{Rule: base.Rule, File: base.File, Func: base.Func, Message: base.Message, Site: "\t\tfor i := 0; i < 3; i++ { //nolint:errcheck // not ours"},
	}
	for _, f := range same {
		if f.Key() != k {
			t.Errorf("%+v: key %s, want %s (as %+v)", f, f.Key(), k, base)
		}
	}
	withPos := Finding{Rule: "sharedbudget", Message: "budget also used at p.go:12:3 and q.go:40"}
	if withPos.Key() != (Finding{Rule: "sharedbudget", Message: "budget also used at p.go:99:1 and q.go:7"}).Key() {
		t.Error("positions in the message change the key")
	}
	// Changes that change it: each field.
	for _, f := range []Finding{
		{Rule: "nestedretry", File: base.File, Func: base.Func, Message: base.Message, Site: base.Site},
		{Rule: base.Rule, File: "example.com/other/p/p.go", Func: base.Func, Message: base.Message, Site: base.Site},
		{Rule: base.Rule, File: base.File, Func: "Client.Get", Message: base.Message, Site: base.Site},
		{Rule: base.Rule, File: base.File, Func: base.Func, Message: "retry loop makes up to 4 attempts", Site: base.Site},
		{Rule: base.Rule, File: base.File, Func: base.Func, Message: base.Message, Site: "for i := 0; i < 4; i++ {"},
		{Rule: base.Rule + "x", File: base.File, Func: base.Func, Message: base.Message, Site: base.Site},
	} {
		if f.Key() == k {
			t.Errorf("%+v: same key as %+v", f, base)
		}
	}
	// Fields do not run into each other.
	if (Finding{Rule: "ab", File: "c"}).Key() == (Finding{Rule: "a", File: "bc"}).Key() {
		t.Error("fields are not separated")
	}
}

func TestCounter(t *testing.T) {
	c := Counter{}
	for i, want := range []string{"a:1", "b:1", "a:2", "a:3"} {
		key := "a"
		if i == 1 {
			key = "b"
		}
		if got := c.Next(key); got != want {
			t.Errorf("Next #%d = %s, want %s", i, got, want)
		}
	}
}

func TestMessageAndSite(t *testing.T) {
	for in, want := range map[string]string{
		"a  b\tc ":                        "a b c",
		"shared with x/y.go:12:5":         "shared with x/y.go",
		"see line 40 of it":               "see line of it",
		"up to 3 attempts × 4 = 12 calls": "up to 3 attempts × 4 = 12 calls",
	} {
		if got := Message(in); got != want {
			t.Errorf("Message(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"\tfor i := 0; i < 3; i++ { // comment": "for i := 0 ; i < 3 ; i ++ {",
		`if err := c.Do("a  b"); err != nil {`:  `if err := c . Do ( "a  b" ) ; err != nil {`,
		"":                                      "",
	} {
		if got := Site(in); got != want {
			t.Errorf("Site(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFile(t *testing.T) {
	for _, tc := range []struct{ mod, dir, file, want string }{
		{"example.com/m", "/src/m", "/src/m/p/p.go", "example.com/m/p/p.go"},
		{"example.com/m", "/src/m", "/elsewhere/p.go", "p.go"},
		{"", "", "/tmp/x.go", "x.go"},
	} {
		if got := File(tc.mod, tc.dir, tc.file); got != tc.want {
			t.Errorf("File(%q, %q, %q) = %q, want %q", tc.mod, tc.dir, tc.file, got, tc.want)
		}
	}
}

func TestFunc(t *testing.T) {
	const src = `package p

var v = func() int { return 1 }()

func F() { _ = func() {} }

type T struct{}

func (T) M()  {}
func (*T) P() {}

type G[K any] struct{}

func (g *G[K]) Q() {}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	at := func(line int) token.Pos { return fset.File(f.Pos()).LineStart(line) + 1 }
	for line, want := range map[int]string{3: "", 5: "F", 9: "T.M", 10: "(*T).P", 14: "(*G).Q", 7: ""} {
		if got := Func(f, at(line)); got != want {
			t.Errorf("line %d: Func = %q, want %q", line, got, want)
		}
	}
}
