package driver

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"

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

// Fixes applies the first suggested fix of every finding, in the order
// of the findings (Findings sorts them by position, so the same fixes win
// in every run). A fix whose edits overlap an edit already accepted (other
// than an identical one, as when two diagnostics of a file add the same
// import) is skipped whole and counted in skipped. With diffOnly, unified
// diffs are written to w and no file changes; otherwise each changed file
// is written through a temporary file and a rename, so that no file is
// ever left half-written. It returns the number of files changed and of
// fixes skipped.
func Fixes(fs []*Finding, diffOnly bool, w io.Writer) (changed, skipped int, err error) {
	files := map[string]*fileFix{}
	var order []string
	for _, f := range Unique(fs) {
		if len(f.Diag.SuggestedFixes) == 0 {
			continue
		}
		if !accept(f.Fset(), f.Diag.SuggestedFixes[0], files, &order) {
			skipped++
		}
	}
	sort.Strings(order)
	for _, name := range order {
		ff := files[name]
		old, err := os.ReadFile(name)
		if err != nil {
			return changed, skipped, err
		}
		out, err := apply(old, ff.edits)
		if err != nil {
			return changed, skipped, fmt.Errorf("%s: %v", name, err)
		}
		if formatted, err := format.Source(out); err == nil {
			out = formatted
		} else {
			return changed, skipped, fmt.Errorf("%s: the fixed file does not parse (%v); nothing written", name, err)
		}
		if bytes.Equal(old, out) {
			continue
		}
		changed++
		if diffOnly {
			fmt.Fprint(w, unifiedDiff(name, old, out))
			continue
		}
		if err := writeFileAtomic(name, out); err != nil {
			return changed, skipped, err
		}
	}
	return changed, skipped, nil
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

// writeFileAtomic replaces the file name with data through a temporary
// file in the same directory, keeping its permissions.
func writeFileAtomic(name string, data []byte) error {
	info, err := os.Stat(name)
	if err != nil {
		return err
	}
	if info.Mode().Perm()&0o200 == 0 {
		return fmt.Errorf("%s: file is read-only; not fixed", name)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".retrylint-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write beside it: %v", name, err)
	}
	defer os.Remove(tmp.Name()) // after a successful rename this fails harmlessly
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(info.Mode().Perm()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
