// Package suppress honours the in-source directives that silence a
// retrylint diagnostic, so that every driver (the command, go vet,
// golangci-lint) treats them alike:
//
//	//nolint:retrylint           golangci-lint's form; also //nolint:<pass> and a bare //nolint
//	//lint:ignore <pass> reason  staticcheck's form; <pass> may be a comma list, or retrylint
//	//retrylint:ignore <pass> reason
//
// A directive applies to a diagnostic on its own line (a trailing comment)
// or on the line below it. The ignore forms need a reason: without one they
// are not honoured, and the diagnostic stays.
package suppress

import (
	"go/ast"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// Report reports d through pass unless a directive suppresses it.
func Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if !Suppressed(pass, d) {
		pass.Report(d)
	}
}

// Suppressed reports whether a directive silences d for the pass.
func Suppressed(pass *analysis.Pass, d analysis.Diagnostic) bool {
	tf := pass.Fset.File(d.Pos)
	if tf == nil {
		return false
	}
	line := tf.Line(d.Pos)
	for _, f := range pass.Files {
		if f.FileStart > d.Pos || d.Pos > f.FileEnd {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				cl := tf.Line(c.Slash)
				if (cl == line || cl == line-1) && matches(c, pass.Analyzer.Name) {
					return true
				}
			}
		}
	}
	return false
}

// matches reports whether the comment c is a directive that silences the
// pass name.
func matches(c *ast.Comment, name string) bool {
	text := strings.TrimPrefix(c.Text, "//")
	switch {
	case strings.HasPrefix(text, "nolint"):
		rest := strings.TrimPrefix(text, "nolint")
		if rest == "" || rest[0] == ' ' || rest[0] == '\t' {
			return true // a bare //nolint silences every linter
		}
		if rest[0] != ':' {
			return false
		}
		list, _, _ := strings.Cut(rest[1:], " ")
		return listed(list, name)
	case strings.HasPrefix(text, "lint:ignore "), strings.HasPrefix(text, "retrylint:ignore "):
		_, rest, _ := strings.Cut(text, " ")
		fields := strings.Fields(rest)
		return len(fields) >= 2 && listed(fields[0], name)
	}
	return false
}

func listed(list, name string) bool {
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == name || n == "retrylint" {
			return true
		}
	}
	return false
}
