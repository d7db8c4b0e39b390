package driver

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/retrylint/retrylint/internal/fingerprint"
)

// Fingerprint returns what the finding's fingerprint is computed from.
func (f *Finding) Fingerprint(lines *Lines) fingerprint.Finding {
	fp := fingerprint.Finding{
		Rule:    f.Analyzer.Name,
		Message: f.Diag.Message,
		Site:    lines.Line(f.Posn.Filename, f.Posn.Line),
	}
	modPath, modDir := "", ""
	if m := f.Package.Module; m != nil {
		modPath, modDir = m.Path, m.Dir
	}
	fp.File = fingerprint.File(modPath, modDir, f.Posn.Filename)
	for _, file := range f.Package.Syntax {
		if file.FileStart <= f.Diag.Pos && f.Diag.Pos <= file.FileEnd {
			fp.Func = fingerprint.Func(file, f.Diag.Pos)
			break
		}
	}
	return fp
}

// Fingerprints returns the fingerprint of each finding, numbered in order
// among findings with the same key. Give it the findings in the order of
// Findings, each once (Unique), so that the numbers do not depend on the
// run.
func Fingerprints(fs []*Finding, lines *Lines) []string {
	c := fingerprint.Counter{}
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = c.Next(f.Fingerprint(lines).Key())
	}
	return out
}

// Lines reads source files once, to look up their lines.
type Lines struct{ files map[string][]string }

// NewLines returns an empty cache of source lines.
func NewLines() *Lines { return &Lines{files: map[string][]string{}} }

// Line returns line n (1-based) of the named file, or "".
func (c *Lines) Line(name string, n int) string {
	lines, ok := c.files[name]
	if !ok {
		data, _ := os.ReadFile(name)
		lines = strings.Split(string(data), "\n")
		c.files[name] = lines
	}
	if n < 1 || n > len(lines) {
		return ""
	}
	return strings.TrimSuffix(lines[n-1], "\r")
}

// A Baseline records findings by fingerprint, so that a run can report
// only the findings it does not hold (retrylint -baseline): the way to
// adopt retrylint on code that already has findings.
type Baseline struct {
	Version  int             `json:"version"`
	Tool     string          `json:"tool"`
	Comment  string          `json:"comment,omitempty"`
	Findings []BaselineEntry `json:"findings"`
}

// A BaselineEntry is one recorded finding. Only the fingerprint is
// matched; the rest is there for the people who review the file.
type BaselineEntry struct {
	Fingerprint string `json:"fingerprint"`
	Pass        string `json:"pass"`
	File        string `json:"file"`
	Function    string `json:"function,omitempty"`
	Message     string `json:"message"`
}

const baselineComment = "written by retrylint -write-baseline; retrylint -baseline FILE reports only findings not listed here. Entries are matched by fingerprint, which does not depend on line numbers."

// NewBaseline records the findings (each once, in the order of Findings).
// The entries are sorted by file, function, pass and fingerprint, without
// line numbers, so that the file changes only when findings do.
func NewBaseline(fs []*Finding, lines *Lines) *Baseline {
	b := &Baseline{Version: 1, Tool: "retrylint", Comment: baselineComment, Findings: []BaselineEntry{}}
	for i, id := range Fingerprints(fs, lines) {
		fp := fs[i].Fingerprint(lines)
		b.Findings = append(b.Findings, BaselineEntry{Fingerprint: id, Pass: fp.Rule, File: fp.File, Function: fp.Func, Message: fs[i].Diag.Message})
	}
	slices.SortFunc(b.Findings, func(x, y BaselineEntry) int {
		return cmp.Or(cmp.Compare(x.File, y.File), cmp.Compare(x.Function, y.Function), cmp.Compare(x.Pass, y.Pass), cmp.Compare(x.Fingerprint, y.Fingerprint))
	})
	return b
}

// Write writes the baseline to the named file, as indented JSON.
func (b *Baseline) Write(name string) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // messages stay readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(b); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}

// ReadBaseline reads a baseline file written by Write.
func ReadBaseline(name string) (*Baseline, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var b Baseline
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("%s: not a retrylint baseline: %v", name, err)
	}
	if b.Tool != "retrylint" || b.Version != 1 {
		return nil, fmt.Errorf("%s: not a retrylint baseline of version 1 (tool %q, version %d)", name, b.Tool, b.Version)
	}
	return &b, nil
}

// Contains reports whether the baseline holds the fingerprint.
func (b *Baseline) Contains(fingerprint string) bool {
	for _, e := range b.Findings {
		if e.Fingerprint == fingerprint {
			return true
		}
	}
	return false
}

// Filter returns the findings whose fingerprints the baseline does not
// hold (with their copies in test variants, as Findings returns them), and
// the number of baseline entries that matched no finding: fixed since the
// baseline was written.
func (b *Baseline) Filter(fs []*Finding, lines *Lines) (kept []*Finding, stale int) {
	known := map[string]bool{}
	for _, e := range b.Findings {
		known[e.Fingerprint] = true
	}
	matched := map[string]bool{}
	drop := map[findingKey]bool{}
	unique := Unique(fs)
	for i, id := range Fingerprints(unique, lines) {
		if known[id] {
			matched[id] = true
			drop[keyOf(unique[i])] = true
		}
	}
	for _, f := range fs {
		if !drop[keyOf(f)] {
			kept = append(kept, f)
		}
	}
	return kept, len(known) - len(matched)
}
