package retrysite_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/analysistest"

	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryloop"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/rltest"
)

// showloop reports what the definition found in every retry loop (the
// retryloop.Loop the passes and the fixer read), so that testdata pins
// those facts where they are made: the failures that reach the next
// attempt and the unguarded ones, the meet points, what the next
// iteration holds, the guards and their roles, the waits, the exits that
// make the bound.
var showloop = &analysis.Analyzer{
	Name:     "showloop",
	Doc:      "report the facts of every retry loop",
	Requires: []*analysis.Analyzer{retrysite.Analyzer},
	Run: func(pass *analysis.Pass) (any, error) {
		sites := pass.ResultOf[retrysite.Analyzer].(*retrysite.Sites)
		for _, s := range sites.List {
			if s.Loop != nil {
				pass.Reportf(s.Pos, "%s", describeLoop(pass.Fset, s.Loop))
			}
		}
		return nil, nil
	},
}

// short renders a node on one line, at most 40 bytes.
func short(fset *token.FileSet, n ast.Node) string {
	var b bytes.Buffer
	if err := format.Node(&b, fset, n); err != nil {
		return fmt.Sprintf("%T", n)
	}
	s, _, cut := strings.Cut(b.String(), "\n")
	s = strings.TrimSpace(s)
	if cut || len(s) > 40 {
		if len(s) > 40 {
			s = s[:40]
		}
		s += "..."
	}
	return s
}

func describeLoop(fset *token.FileSet, l *retryloop.Loop) string {
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	add("attempt=%s", short(fset, l.Attempt.Fun))
	add("failures=%s", l.Failures)
	if l.Unguarded != 0 {
		add("unguarded=%s", l.Unguarded)
	}
	for _, m := range l.Meets {
		at := "post"
		if m.Stmt != nil {
			at = short(fset, m.Stmt)
			if m.After {
				at = "after " + at
			} else {
				at = "before " + at
			}
		}
		var holds []string
		if m.Err != nil {
			holds = append(holds, "err="+m.Err.Name())
		}
		if m.NilOnStatus != nil {
			holds = append(holds, "nilonstatus="+m.NilOnStatus.Name())
		}
		if m.Status {
			holds = append(holds, "status")
		}
		if len(holds) > 0 {
			at += " (" + strings.Join(holds, ",") + ")"
		}
		add("meet=%s", at)
	}
	if l.Next.OnlyFailures {
		next := "failures only"
		if l.Next.Err != nil {
			next += " (err=" + l.Next.Err.Name() + ")"
		}
		add("next=%s", next)
	}
	for _, g := range l.Guards {
		add("guard=%s (%s)", short(fset, g.Call.Fun), g.Role)
	}
	for _, w := range l.Waits {
		desc := short(fset, w.At)
		if w.Call != nil {
			desc = short(fset, w.Call.Fun)
		}
		if w.Helper {
			desc += " helper"
		}
		add("wait=%s %s", desc, kindName[w.Kind])
	}
	exits := func(name string, list []retryloop.BoundExit) {
		for _, e := range list {
			when := "no"
			if e.OnYes {
				when = "yes"
			}
			at := "select"
			if e.Trigger != nil {
				at = short(fset, e.Trigger)
			} else if x, ok := e.Node.(ast.Expr); ok {
				at = short(fset, x)
			}
			add("%s=%s on %s", name, at, when)
		}
	}
	exits("exit", l.BoundExits)
	if l.HeaderBound {
		add("header")
	}
	exits("last-exit", l.LastExits)
	if l.Primed != nil {
		add("primed=%s", short(fset, l.Primed.Fun))
	}
	if l.NextAttempt != "" {
		add("another-attempt-if=%s", l.NextAttempt)
	}
	if t := l.NextAttemptFor("k"); t != "" {
		add("keyed-by-k-another-attempt-if=%s", t)
	}
	add("[%s]", l.Bound)
	return strings.Join(parts, " ")
}

var kindName = map[durkind.Kind]string{durkind.Fixed: "fixed", durkind.Growing: "growing", durkind.Unknown: "unknown", durkind.Random: "random"}

// TestLoopFacts pins the Loop of each shape the fixer and the passes read.
func TestLoopFacts(t *testing.T) {
	dir := rltest.WithStubs(t, analysistest.TestData())
	analysistest.Run(t, dir, showloop, "showloop")
}
