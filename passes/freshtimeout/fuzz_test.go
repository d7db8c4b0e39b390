package freshtimeout_test

import (
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/freshtimeout"
)

// fuzzTemplate is the file the fuzz target builds: the input supplies the
// parameter list and the body of f (a body may close f and declare more).
const fuzzTemplate = `package p

import (
	"context"
	"errors"
	"net/http"
	"time"
)

var (
	_ = errors.Is
	_ = time.Second
	_ *http.Request
	_ = context.Background
)

func retry(op func() error) error { return op() }

func use(context.Context) error { return nil }

func f(%s) {
%s
}
`

// fuzzSeeds are shapes from the testdata: parameters and a body.
var fuzzSeeds = [][2]string{
	{"ctx context.Context", "c, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
	{"_ context.Context", "c, cancel := context.WithDeadline(context.TODO(), time.Now())\ndefer cancel()\nuse(c)"},
	{"context.Context, int", "c, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
	{"w http.ResponseWriter, r *http.Request", "c, cancel := context.WithTimeoutCause(context.Background(), time.Second, errors.New(\"x\"))\ndefer cancel()\nuse(c)"},
	{"_ http.ResponseWriter, _ *http.Request", "c, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "bg := context.Background()\nc, cancel := context.WithTimeout(bg, time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "bg := context.Background()\nc, cancel := context.WithTimeout(bg, time.Second)\ndefer cancel()\nuse(c)\nuse(bg)"},
	{"ctx context.Context", "bg := context.Background()\nc1, cancel1 := context.WithTimeout(bg, time.Second)\ndefer cancel1()\nc2, cancel2 := context.WithTimeout(bg, time.Second)\ndefer cancel2()\nuse(c1)\nuse(c2)"},
	{"ctx context.Context", "var root context.Context\nif ctx == nil {\nroot = context.Background()\n} else {\nroot = context.TODO()\n}\nc, cancel := context.WithTimeout(root, time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "retry(func() error {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nreturn use(c)\n})"},
	{"ctx context.Context", "go func() {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}()"},
	{"ctx context.Context", "defer func() {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}()"},
	{"ctx context.Context", "<-ctx.Done()\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "select {\ncase <-ctx.Done():\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}"},
	{"ctx context.Context", "if err := ctx.Err(); err != nil {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}"},
	{"ctx context.Context", "loop:\nfor {\nselect {\ncase <-ctx.Done():\nbreak loop\ndefault:\n}\n}\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "c, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "if ctx := 1; ctx > 0 {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}"},
	{"_ context.Context", "ctx := 1\n_ = ctx\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "op := func() error {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nreturn use(c)\n}\ngo op()"},
	{"ctx context.Context", "switch ctx.Err() {\ncase context.Canceled:\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}"},
	{"ctx context.Context", "}\n\nfunc g(_ context.Context) {\nc, cancel := context.WithTimeout(context.TODO(), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "ctx = context.Background()\nc, cancel := context.WithTimeout(ctx, time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "if ctx == nil {\nctx = context.TODO()\n}\nc, cancel := context.WithTimeout(ctx, time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "c, cancel := context.WithTimeout(context.WithValue(context.Background(), 1, 2), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "base, stop := context.WithCancel(context.Background())\ndefer stop()\nc, cancel := context.WithTimeout(base, time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "}\n\nvar root = context.Background()\n\nfunc g(ctx context.Context) {\nc, cancel := context.WithTimeout(root, time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "cc, stop := context.WithTimeout(ctx, time.Second)\ndefer stop()\n<-cc.Done()\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
	{"ctx context.Context", "if err := use(ctx); errors.Is(err, context.Canceled) {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}"},
	{"ctx context.Context", "if err := use(ctx); err != nil {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)\n}"},
	{"ctx context.Context", "errc := make(chan error)\ngo func() {\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nerrc <- use(c)\n}()\n<-errc"},
	{"ctx context.Context", "u, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\ndefer use(u)"},
	{"ctx context.Context", "loop:\nfor {\nselect {\ncase <-ctx.Done():\nbreak loop\n}\n}\nif ctx.Err() == nil {\npanic(1)\n}\nc, cancel := context.WithTimeout(context.Background(), time.Second)\ndefer cancel()\nuse(c)"},
}

func FuzzFreshTimeout(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s[0], s[1])
	}
	for _, prog := range []string{
		"\x00\x00\x01",
		"\x00\x03\x01\x0f",
		"\x00\x04\x00\x05\x10\x02\x0f",
		"\x00\x06\x09\x01\x0f\x0f",
		"\x00\x0b\x07\x02\x0f",
		"\x00\x0c\x02\x0d\x0e\x00",
	} {
		f.Add("ctx context.Context", prog)
		f.Add("_ context.Context, r *http.Request", prog)
	}
	f.Fuzz(func(t *testing.T, params, body string) {
		if strings.HasPrefix(body, "\x00") {
			body = buildBody(body[1:])
		}
		src := fmt.Sprintf(fuzzTemplate, params, body)
		diags, ok := analyze(t, src)
		if !ok {
			t.Skip("does not type-check")
		}
		// Every fix alone, and the first fixes of all diagnostics together
		// (what -fix applies), must leave the file compiling.
		var firsts []analysis.TextEdit
		for _, d := range diags {
			for i, fix := range d.SuggestedFixes {
				fixed, err := apply(src, fix.TextEdits)
				if err != nil {
					t.Fatalf("fix %q: %v\n%s", fix.Message, err, src)
				}
				if _, ok := analyze(t, fixed); !ok {
					t.Errorf("fix %q does not compile:\n%s\n---- from ----\n%s", fix.Message, fixed, src)
				}
				if i == 0 {
					firsts = append(firsts, fix.TextEdits...)
				}
			}
		}
		if len(firsts) > 0 {
			fixed, err := apply(src, firsts)
			if err != nil {
				return // overlapping fixes: the driver would skip them
			}
			if _, ok := analyze(t, fixed); !ok {
				t.Errorf("first fixes together do not compile:\n%s\n---- from ----\n%s", fixed, src)
			}
		}
	})
}

// analyze type-checks src and runs the analyzer on it (rltest's in-process
// driver), with edit positions turned into offsets. ok is false if src does
// not type-check.
func analyze(t *testing.T, src string) (diags []analysis.Diagnostic, ok bool) {
	diags, fset, err := rltest.RunOnSourceVersion(src, "go1.22", freshtimeout.Analyzer)
	if errors.Is(err, rltest.ErrNotWellTyped) {
		return nil, false
	}
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	var tf *token.File
	fset.Iterate(func(f *token.File) bool { tf = f; return false })
	for _, d := range diags {
		for _, fix := range d.SuggestedFixes {
			for _, e := range fix.TextEdits {
				if e.Pos > e.End || fset.File(e.Pos) != tf || (e.End.IsValid() && fset.File(e.End) != tf) {
					t.Fatalf("fix %q: edit outside the file", fix.Message)
				}
			}
		}
	}
	// Positions as offsets, for apply.
	for i := range diags {
		for j := range diags[i].SuggestedFixes {
			edits := diags[i].SuggestedFixes[j].TextEdits
			for k := range edits {
				edits[k].Pos = token.Pos(tf.Offset(edits[k].Pos))
				edits[k].End = token.Pos(tf.Offset(edits[k].End))
			}
		}
	}
	return diags, true
}

// apply applies edits (positions are offsets into src), coalescing
// identical ones, and fails on overlapping ones.
func apply(src string, edits []analysis.TextEdit) (string, error) {
	edits = slices.Clone(edits)
	slices.SortFunc(edits, func(a, b analysis.TextEdit) int {
		if a.Pos != b.Pos {
			return int(a.Pos - b.Pos)
		}
		return int(a.End - b.End)
	})
	edits = slices.CompactFunc(edits, func(a, b analysis.TextEdit) bool {
		return a.Pos == b.Pos && a.End == b.End && string(a.NewText) == string(b.NewText)
	})
	var out strings.Builder
	last := 0
	for _, e := range edits {
		if int(e.Pos) < last {
			return "", fmt.Errorf("overlapping edits")
		}
		out.WriteString(src[last:e.Pos])
		out.Write(e.NewText)
		last = int(e.End)
	}
	out.WriteString(src[last:])
	return out.String(), nil
}

// TestFuzzSeeds checks that the seeds type-check and exercise the pass.
func TestFuzzSeeds(t *testing.T) {
	reported, fixed := 0, 0
	for i, s := range fuzzSeeds {
		diags, ok := analyze(t, fmt.Sprintf(fuzzTemplate, s[0], s[1]))
		if !ok {
			t.Errorf("seed %d does not type-check", i)
		}
		for _, d := range diags {
			reported++
			if len(d.SuggestedFixes) > 0 {
				fixed++
			}
		}
	}
	if reported < 10 || fixed < 5 {
		t.Errorf("seeds gave %d diagnostics, %d with fixes: want more", reported, fixed)
	}
}

// buildBody turns bytes into a function body, one statement or block per
// byte, so that the fuzzer explores combinations of the shapes the pass
// cares about rather than mostly text that does not parse.
func buildBody(prog string) string {
	var b strings.Builder
	var closers []string
	n, bg := 0, -1
	parent := func(k byte) string {
		switch k % 6 {
		case 0:
			return "context.Background()"
		case 1:
			return "context.TODO()"
		case 2:
			if bg >= 0 {
				return fmt.Sprintf("bg%d", bg)
			}
			return "(context.Background())"
		case 3:
			return "ctx"
		case 4:
			return "context.WithoutCancel(ctx)"
		}
		return "r.Context()"
	}
	open := func(opener, closer string) {
		b.WriteString(opener + "\n")
		closers = append(closers, closer)
	}
	for i := 0; i < len(prog) && i < 40; i++ {
		op := prog[i]
		n++
		switch op % 18 {
		case 0, 1, 2:
			fn := []string{"WithTimeout", "WithDeadline", "WithTimeoutCause"}[op%3]
			arg := "time.Second"
			switch fn {
			case "WithDeadline":
				arg = "time.Now()"
			case "WithTimeoutCause":
				arg = "time.Second, nil"
			}
			fmt.Fprintf(&b, "c%[1]d, cancel%[1]d := context.%[2]s(%[3]s, %[4]s)\n_ = cancel%[1]d\nuse(c%[1]d)\n",
				n, fn, parent(op/18), arg)
		case 3:
			bg = n
			fmt.Fprintf(&b, "bg%d := context.Background()\n", n)
		case 4:
			bg = n
			fmt.Fprintf(&b, "var bg%d = context.TODO()\n", n)
		case 5:
			if bg >= 0 {
				fmt.Fprintf(&b, "use(bg%d)\n", bg)
			}
		case 6:
			open("go func() {", "}()")
		case 7:
			open("defer func() {", "}()")
		case 8:
			open("_ = retry(func() error {", "return nil\n})")
		case 9:
			open("if ctx.Err() != nil {", "}")
		case 10:
			open("select {\ncase <-ctx.Done():", "}")
		case 11:
			open("for i := 0; i < 2; i++ {", "}")
		case 12:
			open(fmt.Sprintf("op%d := func() {", n), fmt.Sprintf("}\nop%d()", n))
		case 13:
			b.WriteString("<-ctx.Done()\n")
		case 14:
			open("if ctx == nil {", "}")
		case 15:
			if len(closers) > 0 {
				b.WriteString(closers[len(closers)-1] + "\n")
				closers = closers[:len(closers)-1]
			}
		case 16:
			if bg >= 0 {
				fmt.Fprintf(&b, "bg%d = ctx\n", bg)
			}
		case 17:
			open("{\nctx := 0\n_ = ctx", "}")
		}
	}
	for i := len(closers) - 1; i >= 0; i-- {
		b.WriteString(closers[i] + "\n")
	}
	return b.String()
}
