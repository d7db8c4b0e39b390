// Package suppress honours the in-source directives that silence a
// retrylint diagnostic, so that every driver (the command, go vet,
// golangci-lint) treats them alike, and checks them:
//
//	//nolint:retrylint           golangci-lint's form; also //nolint:<pass>, //nolint:all and a bare //nolint
//	//lint:ignore <pass> reason  staticcheck's form; <pass> may be a comma list, or retrylint
//	//retrylint:ignore <pass> reason
//
// A directive covers what golangci-lint's //nolint covers, whatever its
// form. At the end of a line (after code), it covers that line only. On a
// line of its own, it covers the line below and, when a statement,
// declaration or other node starts there in the directive's column, every
// line of that node: a directive above a retry loop covers the loop's for
// and every wait and call inside it, for every pass. golangci-lint accepts
// spaces between // and nolint (// nolint:retrylint), and so does
// retrylint; the ignore forms are written as staticcheck writes them, with
// no space after //.
//
// The ignore forms need a reason: without one they silence nothing. The
// directives check (Check) reports such a directive, and an ignore
// directive that silences nothing, as staticcheck does. Unused //nolint
// directives are left to golangci-lint's nolintlint.
//
// Every pass requires Analyzer and reports through Report, which records
// which directive silenced which pass; Check runs after the passes and
// reads that record.
package suppress

import (
	"fmt"
	"go/ast"
	"go/token"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/retrylint/retrylint/internal/flagx"
	"golang.org/x/tools/go/analysis"
)

// Analyzer finds the directives of a package; it reports nothing.
var Analyzer = &analysis.Analyzer{
	Name:       "suppress",
	Doc:        "find the directives that silence retrylint diagnostics",
	URL:        DocURL,
	ResultType: reflect.TypeFor[*Directives](),
	Run: func(pass *analysis.Pass) (any, error) {
		return Parse(pass.Fset, pass.Files), nil
	},
}

// DocURL documents the directives.
const DocURL = "https://github.com/retrylint/retrylint#silencing-a-finding"

// Forms of directive.
const (
	NoLint          = "nolint"
	LintIgnore      = "lint:ignore"
	RetrylintIgnore = "retrylint:ignore"
)

// A Directive is one directive comment.
type Directive struct {
	Pos, End token.Pos
	// Form is NoLint, LintIgnore or RetrylintIgnore.
	Form string
	// Names are the linters or passes named; nil for a bare //nolint,
	// which silences every linter.
	Names []string
	// Reason is the text after the names of an ignore form.
	Reason string
	// From and To are the first and last lines the directive covers;
	// Trailing reports whether it follows code on its line.
	From, To int
	Trailing bool

	used map[string]bool // passes it silenced; guarded by Directives.mu
}

// Directives are the directives of a package's files, with a record of
// which of them silenced a diagnostic. Passes of one package run
// concurrently: the record is locked.
type Directives struct {
	list   []*Directive
	byFile map[*token.File][]*Directive
	mu     sync.Mutex
}

// Parse finds the directives in files.
func Parse(fset *token.FileSet, files []*ast.File) *Directives {
	ds := &Directives{byFile: map[*token.File][]*Directive{}}
	for _, f := range files {
		tf := fset.File(f.FileStart)
		if tf == nil {
			continue
		}
		var found []*Directive
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if d, ok := parse(c); ok {
					found = append(found, d)
				}
			}
		}
		if len(found) == 0 {
			continue
		}
		cover(tf, f, found)
		ds.list = append(ds.list, found...)
		ds.byFile[tf] = found
	}
	return ds
}

// cover sets the lines each directive of a file covers, as golangci-lint
// sets a //nolint's range: a directive after code on its line covers that
// line; one on a line of its own covers the next line and, when a node
// starts there in the directive's column, the whole of the outermost such
// node.
func cover(tf *token.File, f *ast.File, ds []*Directive) {
	type at struct{ line, col int }
	// Only the lines of the directives and the lines after them matter:
	// the walk skips every node that spans neither.
	var lines []int
	for _, d := range ds {
		l := tf.Line(d.Pos)
		lines = append(lines, l, l+1)
	}
	slices.Sort(lines)
	spans := func(from, to int) bool {
		i, _ := slices.BinarySearch(lines, from)
		return i < len(lines) && lines[i] <= to
	}
	first := map[int]int{} // line → offset of the first code on it
	ends := map[at]int{}   // where a node starts → the last line of the largest
	note := func(line int, pos token.Pos) {
		off := tf.Offset(pos)
		if o, ok := first[line]; !ok || off < o {
			first[line] = off
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n.(type) {
		case nil, *ast.CommentGroup, *ast.Comment:
			return false
		}
		if !n.Pos().IsValid() || !n.End().IsValid() {
			return true
		}
		p := tf.Position(n.Pos())
		end := tf.Line(n.End() - 1)
		if !spans(p.Line, end) {
			return false
		}
		note(p.Line, n.Pos())
		note(end, n.End()-1)
		if end > ends[at{p.Line, p.Column}] {
			ends[at{p.Line, p.Column}] = end
		}
		return true
	})
	for _, d := range ds {
		p := tf.Position(d.Pos)
		d.From, d.To = p.Line, p.Line
		if o, ok := first[p.Line]; ok && o < tf.Offset(d.Pos) {
			d.Trailing = true
			continue
		}
		d.To = max(p.Line+1, ends[at{p.Line + 1, p.Column}])
	}
}

// parse reads a directive from a comment.
func parse(c *ast.Comment) (*Directive, bool) {
	body, ok := strings.CutPrefix(c.Text, "//")
	if !ok {
		return nil, false // a /* */ comment
	}
	if rest, ok := strings.CutPrefix(strings.TrimLeft(body, " \t"), NoLint); ok {
		d := &Directive{Pos: c.Pos(), End: c.End(), Form: NoLint}
		switch {
		case rest == "" || rest[0] == ' ' || rest[0] == '\t':
			return d, true // bare: every linter
		case rest[0] == ':':
			list, _, _ := strings.Cut(rest[1:], " ")
			list, _, _ = strings.Cut(list, "\t")
			d.Names = flagx.Split(list)
			return d, true
		}
		return nil, false // //nolintx
	}
	for _, form := range []string{LintIgnore, RetrylintIgnore} {
		rest, ok := strings.CutPrefix(body, form)
		if !ok || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		d := &Directive{Pos: c.Pos(), End: c.End(), Form: form}
		if fields := strings.Fields(rest); len(fields) > 0 {
			d.Names = flagx.Split(fields[0])
			d.Reason = strings.Join(fields[1:], " ")
		}
		return d, true
	}
	return nil, false
}

// names reports whether the directive names the pass: by its name, as
// retrylint (every pass), or, for //nolint, as all or with no list.
func (d *Directive) names(pass string) bool {
	if d.Form == NoLint && d.Names == nil {
		return true
	}
	for _, n := range d.Names {
		if n == pass || n == "retrylint" || d.Form == NoLint && n == "all" {
			return true
		}
	}
	return false
}

// silences reports whether the directive silences the pass's diagnostics:
// it names the pass and, for the ignore forms, gives a reason.
func (d *Directive) silences(pass string) bool {
	return d.names(pass) && (d.Form == NoLint || d.Reason != "")
}

// Lookup returns the directive that silences a diagnostic of the pass at
// pos, if any, without recording it as used.
func (ds *Directives) Lookup(fset *token.FileSet, pos token.Pos, pass string) (*Directive, bool) {
	for _, d := range ds.at(fset, pos) {
		if d.silences(pass) {
			return d, true
		}
	}
	return nil, false
}

// at returns the directives that cover pos.
func (ds *Directives) at(fset *token.FileSet, pos token.Pos) []*Directive {
	tf := fset.File(pos)
	if tf == nil {
		return nil
	}
	line := tf.Line(pos)
	var out []*Directive
	for _, d := range ds.byFile[tf] {
		if d.From <= line && line <= d.To {
			out = append(out, d)
		}
	}
	return out
}

// silence reports whether a directive silences a diagnostic of the pass
// at pos, and records every such directive as used by the pass.
func (ds *Directives) silence(fset *token.FileSet, pos token.Pos, pass string) bool {
	found := false
	for _, d := range ds.at(fset, pos) {
		if !d.silences(pass) {
			continue
		}
		found = true
		ds.mu.Lock()
		if d.used == nil {
			d.used = map[string]bool{}
		}
		d.used[pass] = true
		ds.mu.Unlock()
	}
	return found
}

// List returns the directives in source order.
func (ds *Directives) List() []*Directive { return ds.list }

// Report reports d through pass unless a directive silences it.
func Report(pass *analysis.Pass, d analysis.Diagnostic) {
	if !Suppressed(pass, d) {
		pass.Report(d)
	}
}

// Suppressed reports whether a directive silences d for the pass, and
// records the directive as used. A pass that does not require Analyzer
// still has its directives honoured, but not recorded.
func Suppressed(pass *analysis.Pass, d analysis.Diagnostic) bool {
	ds, _ := pass.ResultOf[Analyzer].(*Directives)
	if ds == nil {
		for _, f := range pass.Files {
			if f.FileStart <= d.Pos && d.Pos <= f.FileEnd {
				ds = Parse(pass.Fset, []*ast.File{f})
				break
			}
		}
		if ds == nil {
			return false
		}
	}
	return ds.silence(pass.Fset, d.Pos, pass.Analyzer.Name)
}

// Check returns the directives check for the passes that run, of the
// passes named in known (every retrylint pass): it runs after them on
// each package and reports the ignore directives meant for retrylint
// (naming a known pass, or retrylint) that have no reason, and those that
// silenced nothing. A directive that names a pass that does not run
// (switched off) is not judged unused, nor is one that names retrylint
// unless every known pass runs. It reports under the name "directives".
func Check(passes []*analysis.Analyzer, known []string) *analysis.Analyzer {
	running := map[string]bool{}
	for _, p := range passes {
		running[p.Name] = true
	}
	all := true
	names := map[string]bool{}
	for _, n := range known {
		names[n] = true
		all = all && running[n]
	}
	return &analysis.Analyzer{
		Name:     "directives",
		Doc:      checkDoc,
		URL:      DocURL,
		Requires: append([]*analysis.Analyzer{Analyzer}, passes...),
		Run: func(pass *analysis.Pass) (any, error) {
			check(pass, names, running, all)
			return nil, nil
		},
	}
}

const checkDoc = `report lint:ignore directives with no reason or no effect

A //lint:ignore or //retrylint:ignore directive that names a retrylint pass
(or retrylint, for every pass) must give a reason after the names; without
one it silences nothing, and the directives check says so. A directive with
a reason that silences no diagnostic in what it covers (its line, when it
follows code; else the statement or declaration below it) is reported too, so that stale directives do not pile up (staticcheck reports
its own the same way). //nolint directives are golangci-lint's: its
nolintlint linter reports those that are unused.`

// Diagnostic categories of the directives check.
const (
	CatNoReason = "no_reason"
	CatUnused   = "unused_directive"
)

func check(pass *analysis.Pass, known, running map[string]bool, all bool) {
	ds, _ := pass.ResultOf[Analyzer].(*Directives)
	if ds == nil {
		return
	}
	for _, d := range ds.list {
		if d.Form == NoLint {
			continue
		}
		var mine []string
		judged := true
		for _, n := range d.Names {
			if n == "retrylint" || known[n] {
				mine = append(mine, n)
				judged = judged && (n == "retrylint" && all || running[n])
			}
		}
		text := "//" + d.Form
		switch {
		case len(d.Names) == 0 && d.Form == RetrylintIgnore:
			pass.Report(analysis.Diagnostic{Pos: d.Pos, End: d.End, Category: CatNoReason,
				Message: text + " names no pass and gives no reason, so it silences nothing: write //retrylint:ignore <pass> <reason>"})
		case len(mine) == 0:
			// Another tool's directive (staticcheck's checks).
		case d.Reason == "":
			pass.Report(analysis.Diagnostic{Pos: d.Pos, End: d.End, Category: CatNoReason,
				Message: fmt.Sprintf("%s %s gives no reason, so it silences nothing: say why after the pass name", text, strings.Join(d.Names, ","))})
		case judged:
			ds.mu.Lock()
			used := false
			for _, n := range mine {
				if n == "retrylint" {
					used = used || len(d.used) > 0
				} else {
					used = used || d.used[n]
				}
			}
			ds.mu.Unlock()
			if !used {
				where := "on its line"
				if !d.Trailing {
					where = "in the line or statement below it"
				}
				pass.Report(analysis.Diagnostic{Pos: d.Pos, End: d.End, Category: CatUnused,
					Message: fmt.Sprintf("%s %s silences nothing: no %s diagnostic %s; remove it", text, strings.Join(mine, ","), passList(mine), where)})
			}
		}
	}
}

// passList names the passes a directive was meant for, for a message.
func passList(names []string) string {
	if len(names) == 1 && names[0] == "retrylint" {
		return "retrylint"
	}
	return strings.Join(names, " or ")
}
