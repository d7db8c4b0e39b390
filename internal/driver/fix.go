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
	"sort"
	"strings"
)

// edit is a text edit in byte offsets of one file, made by the fix of
// the finding with index owner in the plan's list.
type edit struct {
	start, end int
	text       string
	owner      int
}

// same reports whether two edits make the same change.
func (e edit) same(o edit) bool { return e.start == o.start && e.end == o.end && e.text == o.text }

// A FixPlan is what one round of -fix applies: the first suggested fix of
// every finding whose edits overlap no edit taken before it.
type FixPlan struct {
	Applied  []*Finding // findings whose fix the plan applies
	NoFix    []*Finding // findings with no suggested fix
	Overlaps []Overlap  // fixes left out: they overlap one the plan applies
	files    map[string][]edit
}

// An Overlap is a fix left out of a plan, and the applied fix it
// overlaps.
type Overlap struct{ Finding, With *Finding }

// PlanFixes takes the first suggested fix of every finding, in the order
// of the findings (Findings sorts them by position, so the same fixes win
// in every run). A finding reported in a package and in its test variant
// counts once, with the fix of the copy that edits the most (the test
// variant also edits the test files). A fix whose edits overlap an edit
// already taken (other than an identical one, as when two fixes of a file
// add the same import) is left out whole. Two insertions at one offset do
// not overlap, nor do an insertion and a replacement that meet at its
// boundary: the passes' fixes of one site edit disjoint parts of it (a
// wait's duration and the statement around it), so that every driver,
// golangci-lint's included, applies them together.
func PlanFixes(fs []*Finding) *FixPlan {
	p := &FixPlan{files: map[string][]edit{}}
	for _, f := range pickFixes(fs) {
		if len(f.Diag.SuggestedFixes) == 0 {
			p.NoFix = append(p.NoFix, f)
			continue
		}
		if with, ok := p.accept(f); !ok {
			p.Overlaps = append(p.Overlaps, Overlap{f, with})
		}
	}
	return p
}

// accept adds the edits of f's first fix to the plan unless one overlaps an
// edit already there, whose owner it then returns; identical edits are
// kept once.
func (p *FixPlan) accept(f *Finding) (*Finding, bool) {
	fset := f.Fset()
	owner := len(p.Applied)
	type fe struct {
		name string
		e    edit
	}
	var add []fe
	for _, te := range f.Diag.SuggestedFixes[0].TextEdits {
		tf := fset.File(te.Pos)
		if tf == nil {
			return nil, false
		}
		end := te.End
		if !end.IsValid() {
			end = te.Pos
		}
		add = append(add, fe{tf.Name(), edit{tf.Offset(te.Pos), tf.Offset(end), string(te.NewText), owner}})
	}
	// Check every edit before taking any. An edit the fix itself repeats
	// (an import each part of it needs) is taken once.
	for i, a := range add {
		for _, b := range add[:i] {
			if b.e.start >= 0 && b.name == a.name && b.e.same(a.e) {
				add[i].e.start = -1
				break
			}
		}
		if add[i].e.start < 0 {
			continue
		}
		for _, have := range p.files[a.name] {
			if have.same(a.e) {
				add[i].e.start = -1 // already there
				break
			}
			if overlaps(have, a.e) {
				return p.Applied[have.owner], false
			}
		}
	}
	for _, a := range add {
		if a.e.start >= 0 {
			p.files[a.name] = append(p.files[a.name], a.e)
		}
	}
	p.Applied = append(p.Applied, f)
	return nil, true
}

// overlaps reports whether two edits touch the same bytes. Two insertions
// at one offset do not overlap: they are applied in the order accepted,
// which follows the order of the diagnostics. Nor does an insertion at
// either end of a replacement.
func overlaps(a, b edit) bool {
	if a.start == a.end && b.start == b.end {
		return false
	}
	return a.start < b.end && b.start < a.end || a.start == a.end && a.start > b.start && a.start < b.end || b.start == b.end && b.start > a.start && b.start < a.end
}

// A FileChange is the old and the new text of a file a plan edits.
type FileChange struct {
	Name     string
	Old, New []byte
}

// Apply returns the new text of every file the plan changes, sorted by
// name, leaving out the fixes of the applied findings whose indexes drop
// holds. A changed file is gofmt-ed when it was gofmt-clean before, and
// must parse. dir is for the file names of errors.
func (p *FixPlan) Apply(dir string, drop map[int]bool) ([]FileChange, error) {
	var names []string
	for name := range p.files {
		names = append(names, name)
	}
	sort.Strings(names)
	var changes []FileChange
	for _, name := range names {
		var edits []edit
		for _, e := range p.files[name] {
			if !drop[e.owner] {
				edits = append(edits, e)
			}
		}
		if len(edits) == 0 {
			continue
		}
		old, err := os.ReadFile(name)
		if err != nil {
			return nil, err
		}
		out, err := apply(old, edits)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", Rel(dir, name), err)
		}
		if _, err := parser.ParseFile(token.NewFileSet(), name, out, parser.ParseComments|parser.SkipObjectResolution); err != nil {
			return nil, fmt.Errorf("%s: the fixed file does not parse (%v)", Rel(dir, name), err)
		}
		if formatted, err := format.Source(old); err == nil && bytes.Equal(formatted, old) {
			if out, err = format.Source(out); err != nil {
				return nil, fmt.Errorf("%s: the fixed file does not format (%v)", Rel(dir, name), err)
			}
		}
		if !bytes.Equal(old, out) {
			changes = append(changes, FileChange{name, old, out})
		}
	}
	return changes, nil
}

// Owners returns the indexes of the applied findings whose fixes edit the
// file, nearest to the line first.
func (p *FixPlan) Owners(name string, line int, lineOf func(name string, off int) int) []int {
	best := map[int]int{}
	for _, e := range p.files[name] {
		d := lineOf(name, e.start) - line
		if d < 0 {
			d = -d
		}
		if b, ok := best[e.owner]; !ok || d < b {
			best[e.owner] = d
		}
	}
	var out []int
	for o := range best {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		if best[out[i]] != best[out[j]] {
			return best[out[i]] < best[out[j]]
		}
		return out[i] < out[j]
	})
	return out
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

// apply applies non-overlapping edits to src, in the order of their
// offsets; an insertion at the start of a replacement goes before it, and
// insertions at one offset go in the order of their text.
func apply(src []byte, edits []edit) ([]byte, error) {
	sorted := append([]edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].start != sorted[j].start {
			return sorted[i].start < sorted[j].start
		}
		if sorted[i].end != sorted[j].end {
			return sorted[i].end < sorted[j].end
		}
		// Two insertions at one offset (two fixes' declarations after
		// the imports): by their text, so that the result does not
		// depend on the order the fixes were taken in.
		return sorted[i].start == sorted[i].end && sorted[i].text < sorted[j].text
	})
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

// LineMap maps, for each file changed, the 1-based number of each of its
// old lines that is still there to its new one.
func LineMap(changes []FileChange) map[string]map[int]int {
	lines := map[string]map[int]int{}
	for _, c := range changes {
		m := map[int]int{}
		for _, op := range lineDiff(splitLines(string(c.Old)), splitLines(string(c.New))) {
			if op.kind == ' ' {
				m[op.a+1] = op.b + 1
			}
		}
		lines[c.Name] = m
	}
	return lines
}

// WriteDiff writes the changes as unified diffs (paths relative to dir,
// a/ and b/ prefixes, as git diff writes them, for git apply and patch
// -p1).
func WriteDiff(w io.Writer, changes []FileChange, dir string) {
	for _, c := range changes {
		fmt.Fprint(w, unifiedDiff(filepath.ToSlash(Rel(dir, c.Name)), c.Old, c.New))
	}
}

// WriteChanges writes the changes all or nothing: every file is checked
// and its new text written to a temporary file beside it before any is
// replaced, so that a read-only file, or any error, leaves every file as
// it was.
func WriteChanges(changes []FileChange, dir string) error {
	var staged []*stagedFile
	cleanup := func() {
		for _, s := range staged {
			os.Remove(s.tmp)
		}
	}
	for _, c := range changes {
		s, err := stage(c.Name, c.New)
		if err != nil {
			cleanup()
			return fmt.Errorf("%s: %v; no file was changed", Rel(dir, c.Name), err)
		}
		s.old = c.Old
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
				return fmt.Errorf("%s: %v; and %s could not be restored", Rel(dir, s.name), err, strings.Join(failed, ", "))
			}
			return fmt.Errorf("%s: %v; no file was changed", Rel(dir, s.name), err)
		}
	}
	return nil
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
