package driver

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
)

// edit is a text edit in byte offsets of one file.
type edit struct {
	start, end int
	text       string
}

// fileFix gathers the edits of the fixes applied to one file.
type fileFix struct {
	name  string
	edits []edit
}

// FixResult says what Fixes did.
type FixResult struct {
	Fixed   int        // findings whose fix was applied (or, with a diff, is in it)
	Files   int        // files changed
	NoFix   []*Finding // findings with no suggested fix
	Skipped []*Finding // findings whose fix overlaps one applied before it
	// lines maps, for each file changed, the 1-based number of each of
	// its old lines that is still there to its new one.
	lines map[string]map[int]int
}

// Remaining returns the findings the fixes left, in the order of fs.
func (r FixResult) Remaining() []*Finding {
	out := append(append([]*Finding(nil), r.NoFix...), r.Skipped...)
	slices.SortStableFunc(out, compare)
	return out
}

// Move returns where the line of a position reported before the fixes is
// in the file they wrote (the position itself when the file did not
// change or the line was rewritten).
func (r FixResult) Move(p token.Position) token.Position {
	if m, ok := r.lines[p.Filename]; ok {
		if n, ok := m[p.Line]; ok {
			p.Line = n
		}
	}
	return p
}

// Summary returns the line that tells the user what -fix did: "fixed 3
// findings in 2 files; 1 finding has no automatic fix". With diff, the
// fixes were shown, not written.
func (r FixResult) Summary(diff bool) string {
	verb := "fixed"
	if diff {
		verb = "the diff fixes"
	}
	s := fmt.Sprintf("%s %s in %s", verb, count(r.Fixed, "finding", "findings"), count(r.Files, "file", "files"))
	switch n := len(r.NoFix); n {
	case 0:
	case 1:
		s += "; 1 finding has no automatic fix"
	default:
		s += fmt.Sprintf("; %d findings have no automatic fix", n)
	}
	switch n := len(r.Skipped); n {
	case 0:
	case 1:
		s += "; 1 fix overlaps another: run again to apply it"
	default:
		s += fmt.Sprintf("; %d fixes overlap others: run again to apply them", n)
	}
	return s
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Fixes applies the first suggested fix of every finding, in the order
// of the findings (Findings sorts them by position, so the same fixes win
// in every run). A finding reported in a package and in its test variant
// counts once, with the fix of the copy that edits the most (the test
// variant also edits the test files). A fix whose edits overlap an edit
// already accepted (other than an identical one, as when two diagnostics
// of a file add the same import) is skipped whole. A changed file is
// gofmt-ed when it was gofmt-clean before, and must parse.
//
// With diff, unified diffs (paths relative to dir, a/ and b/ prefixes, as
// git diff writes them, for git apply and patch -p1) are written to w and
// no file changes. Otherwise the files are written all or nothing: every
// file is checked and its new text written to a temporary file beside it
// before any is replaced, so that a read-only file, or any error, leaves
// every file as it was.
func Fixes(fs []*Finding, diff bool, dir string, w io.Writer) (FixResult, error) {
	var res FixResult
	files := map[string]*fileFix{}
	var order []string
	for _, f := range pickFixes(fs) {
		if len(f.Diag.SuggestedFixes) == 0 {
			res.NoFix = append(res.NoFix, f)
			continue
		}
		if !accept(f.Fset(), f.Diag.SuggestedFixes[0], files, &order) {
			res.Skipped = append(res.Skipped, f)
			continue
		}
		res.Fixed++
	}
	sort.Strings(order)
	type change struct {
		name     string
		old, new []byte
	}
	var changes []change
	for _, name := range order {
		ff := files[name]
		old, err := os.ReadFile(name)
		if err != nil {
			return res, fmt.Errorf("%s; no file was changed", err)
		}
		out, err := apply(old, ff.edits)
		if err != nil {
			return res, fmt.Errorf("%s: %v; no file was changed", Rel(dir, name), err)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), name, out, parser.ParseComments|parser.SkipObjectResolution); err != nil {
			return res, fmt.Errorf("%s: the fixed file does not parse (%v); no file was changed", Rel(dir, name), err)
		}
		if formatted, err := format.Source(old); err == nil && bytes.Equal(formatted, old) {
			if out, err = format.Source(out); err != nil {
				return res, fmt.Errorf("%s: the fixed file does not format (%v); no file was changed", Rel(dir, name), err)
			}
		}
		if !bytes.Equal(old, out) {
			changes = append(changes, change{name, old, out})
		}
	}
	res.Files = len(changes)
	res.lines = map[string]map[int]int{}
	for _, c := range changes {
		m := map[int]int{}
		for _, op := range lineDiff(splitLines(string(c.old)), splitLines(string(c.new))) {
			if op.kind == ' ' {
				m[op.a+1] = op.b + 1
			}
		}
		res.lines[c.name] = m
	}
	if diff {
		for _, c := range changes {
			fmt.Fprint(w, unifiedDiff(filepath.ToSlash(Rel(dir, c.name)), c.old, c.new))
		}
		return res, nil
	}
	// All or nothing: check every file and stage its new text first.
	var staged []*stagedFile
	cleanup := func() {
		for _, s := range staged {
			os.Remove(s.tmp)
		}
	}
	for _, c := range changes {
		s, err := stage(c.name, c.new)
		if err != nil {
			cleanup()
			return res, fmt.Errorf("%s: %v; no file was changed", Rel(dir, c.name), err)
		}
		s.old = c.old
		staged = append(staged, s)
	}
	for i, s := range staged {
		if err := os.Rename(s.tmp, s.name); err != nil {
			// Put back the files already replaced.
			var failed []string
			for _, done := range staged[:i] {
				if err := os.WriteFile(done.name, done.old, done.mode); err != nil {
					failed = append(failed, Rel(dir, done.name))
				}
			}
			cleanup()
			if len(failed) > 0 {
				return res, fmt.Errorf("%s: %v; and %s could not be restored", Rel(dir, s.name), err, strings.Join(failed, ", "))
			}
			return res, fmt.Errorf("%s: %v; no file was changed", Rel(dir, s.name), err)
		}
	}
	return res, nil
}

// pickFixes returns the findings without the copies a file analyzed in
// two packages makes, each with the fix of the copy whose first fix edits
// the most.
func pickFixes(fs []*Finding) []*Finding {
	best := map[findingKey]*Finding{}
	var out []findingKey
	for _, f := range fs {
		k := keyOf(f)
		b, ok := best[k]
		if !ok {
			out = append(out, k)
			best[k] = f
			continue
		}
		if edits(f) > edits(b) {
			best[k] = f
		}
	}
	list := make([]*Finding, len(out))
	for i, k := range out {
		list[i] = best[k]
	}
	return list
}

func edits(f *Finding) int {
	if len(f.Diag.SuggestedFixes) == 0 {
		return -1
	}
	return len(f.Diag.SuggestedFixes[0].TextEdits)
}

// accept adds the edits of fix to files unless one overlaps an edit already
// there; identical edits are kept once.
func accept(fset *token.FileSet, fix analysis.SuggestedFix, files map[string]*fileFix, order *[]string) bool {
	type fe struct {
		name string
		e    edit
	}
	var add []fe
	for _, te := range fix.TextEdits {
		tf := fset.File(te.Pos)
		if tf == nil {
			return false
		}
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		add = append(add, fe{tf.Name(), edit{tf.Offset(te.Pos), tf.Offset(end), string(te.NewText)}})
	}
	// Check every edit before taking any.
	for i, a := range add {
		if ff := files[a.name]; ff != nil {
			for _, have := range ff.edits {
				if have == a.e {
					add[i].e.start = -1 // already there
					continue
				}
				if overlaps(have, a.e) {
					return false
				}
			}
		}
	}
	for _, a := range add {
		if a.e.start < 0 {
			continue
		}
		ff := files[a.name]
		if ff == nil {
			ff = &fileFix{name: a.name}
			files[a.name] = ff
			*order = append(*order, a.name)
		}
		ff.edits = append(ff.edits, a.e)
	}
	return true
}

// overlaps reports whether two edits touch the same bytes. Two insertions
// at one offset do not overlap: they are applied in the order accepted,
// which follows the order of the diagnostics.
func overlaps(a, b edit) bool {
	if a.start == a.end && b.start == b.end {
		return false
	}
	return a.start < b.end && b.start < a.end || a.start == a.end && a.start > b.start && a.start < b.end || b.start == b.end && b.start > a.start && b.start < a.end
}

// apply applies non-overlapping edits to src.
func apply(src []byte, edits []edit) ([]byte, error) {
	sorted := append([]edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].start < sorted[j].start })
	var out bytes.Buffer
	last := 0
	for _, e := range sorted {
		if e.start < last || e.end > len(src) || e.start > e.end {
			return nil, fmt.Errorf("invalid edit at offset %d", e.start)
		}
		out.Write(src[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(src[last:])
	return out.Bytes(), nil
}

// stagedFile is the new text of a file, written to a temporary file beside
// it, ready to replace it.
type stagedFile struct {
	name, tmp string
	mode      os.FileMode
	old       []byte
}

// errReadOnly is the error of a file whose mode forbids writing it.
var errReadOnly = errors.New("file is read-only")

// stage writes data to a temporary file in the directory of name, with
// name's permissions, after checking that name may be written.
func stage(name string, data []byte) (*stagedFile, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o200 == 0 {
		return nil, errReadOnly
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".retrylint-*")
	if err != nil {
		return nil, fmt.Errorf("cannot write beside it: %v", err)
	}
	s := &stagedFile{name: name, tmp: tmp.Name(), mode: info.Mode().Perm()}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(s.tmp)
		return nil, err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		os.Remove(s.tmp)
		return nil, err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(s.tmp)
		return nil, err
	}
	return s, nil
}
