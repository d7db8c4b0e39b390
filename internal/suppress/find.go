package suppress

import (
	"go/ast"
	"go/token"
	"strings"
)

// Directive is a suppression directive that applies to a position.
type Directive struct {
	Text   string // the comment, as written: "//lint:ignore fixedattempts polled once at start-up"
	Reason string // why, as the directive gives it; "" when it gives none
}

// Find returns the directive among files that silences one of the passes
// names at pos (on its line or the line above), as Suppressed does for a
// diagnostic of one pass.
func Find(fset *token.FileSet, files []*ast.File, pos token.Pos, names ...string) (Directive, bool) {
	tf := fset.File(pos)
	if tf == nil {
		return Directive{}, false
	}
	line := tf.Line(pos)
	for _, f := range files {
		if f.FileStart > pos || pos > f.FileEnd {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if cl := tf.Line(c.Slash); cl != line && cl != line-1 {
					continue
				}
				for _, name := range names {
					if matches(c, name) {
						return Directive{Text: c.Text, Reason: reason(c.Text)}, true
					}
				}
			}
		}
	}
	return Directive{}, false
}

// reason returns the explanation a directive gives: the words after the
// pass list of //lint:ignore and //retrylint:ignore, the comment after
// "//" of a //nolint ("//nolint:retrylint // polled once").
func reason(text string) string {
	text = strings.TrimPrefix(text, "//")
	if strings.HasPrefix(text, "nolint") {
		if _, after, ok := strings.Cut(text, "//"); ok {
			return strings.TrimSpace(after)
		}
		return ""
	}
	fields := strings.Fields(text)
	if len(fields) < 3 {
		return ""
	}
	return strings.Join(fields[2:], " ")
}
