package suppress

import (
	"go/ast"
	"go/token"
	"strings"
)

// A Directive is one directive comment.
type Directive struct {
	Pos, End token.Pos
	// Reason is the text after the names of an ignore form, or the comment
	// after "//" of a //nolint ("//nolint:retrylint // polled once").
	Reason string

	comment *ast.Comment
}

// Directives are the directives of a package's files, by line.
type Directives struct {
	byLine map[lineKey][]*Directive
}

type lineKey struct {
	file *token.File
	line int
}

// Parse finds the directives in files.
func Parse(fset *token.FileSet, files []*ast.File) *Directives {
	ds := &Directives{byLine: map[lineKey][]*Directive{}}
	for _, f := range files {
		tf := fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				text := strings.TrimPrefix(c.Text, "//")
				if !strings.HasPrefix(text, "nolint") && !strings.HasPrefix(text, "lint:ignore ") && !strings.HasPrefix(text, "retrylint:ignore ") {
					continue
				}
				k := lineKey{tf, tf.Line(c.Slash)}
				ds.byLine[k] = append(ds.byLine[k], &Directive{Pos: c.Pos(), End: c.End(), Reason: reason(c.Text), comment: c})
			}
		}
	}
	return ds
}

// Lookup returns the directive that silences a diagnostic of the pass at
// pos (on its line or the line above), if any.
func (ds *Directives) Lookup(fset *token.FileSet, pos token.Pos, pass string) (*Directive, bool) {
	tf := fset.File(pos)
	if tf == nil {
		return nil, false
	}
	line := tf.Line(pos)
	for _, l := range []int{line, line - 1} {
		for _, d := range ds.byLine[lineKey{tf, l}] {
			if matches(d.comment, pass) {
				return d, true
			}
		}
	}
	return nil, false
}

// reason returns the explanation a directive gives.
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
