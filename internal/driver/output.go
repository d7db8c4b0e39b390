package driver

import (
	"cmp"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// A Finding is one diagnostic of a root action.
type Finding struct {
	Analyzer  *analysis.Analyzer
	Package   *packages.Package // the package whose action reported it
	Diag      analysis.Diagnostic
	Posn, End token.Position
}

// Fset returns the file set of the finding's positions.
func (f *Finding) Fset() *token.FileSet { return f.Package.Fset }

// Findings returns the diagnostics of the root actions of g, in a fixed
// order whatever the order of analysis: by file, line and column, then
// analyzer, then message (then end, related information and package, so
// that the order is total). A file analyzed in its package and in its
// test variant reports twice; Unique drops the copies.
//
// A suggested fix that edits a generated file (one with the standard
// "Code generated ... DO NOT EDIT." comment) is dropped, as x/tools'
// checker does when it applies fixes: the change belongs in the generator.
// The diagnostic stays. So no pass has to look for generated files.
func Findings(g *checker.Graph) []*Finding {
	var out []*Finding
	generated := map[*token.File]bool{}
	for _, act := range g.Roots {
		if !act.IsRoot || act.Err != nil {
			continue
		}
		fset := act.Package.Fset
		markGenerated(fset, act.Package.Syntax, generated)
		for _, d := range act.Diagnostics {
			if kept := dropGenerated(fset, d.SuggestedFixes, generated); len(kept) == 0 && len(d.SuggestedFixes) > 0 {
				// Every fix edits a generated file: the finding says so,
				// as a pass says why it has no fix.
				d.Related = append(slices.Clip(d.Related), analysis.RelatedInformation{Pos: d.Pos, End: d.Pos,
					Message: "no fix: it would edit " + generatedName(fset, d.SuggestedFixes[0], generated) + ", a generated file; change what generates it"})
				d.SuggestedFixes = nil
			} else {
				d.SuggestedFixes = kept
			}
			end := d.End
			if !end.IsValid() {
				end = d.Pos
			}
			out = append(out, &Finding{Analyzer: act.Analyzer, Package: act.Package, Diag: d, Posn: fset.Position(d.Pos), End: fset.Position(end)})
		}
	}
	slices.SortStableFunc(out, compare)
	return out
}

// KeptFixes returns the fixes of a diagnostic of a package with the given
// files that the driver keeps: those that edit no generated file.
func KeptFixes(fset *token.FileSet, files []*ast.File, fixes []analysis.SuggestedFix) []analysis.SuggestedFix {
	generated := map[*token.File]bool{}
	markGenerated(fset, files, generated)
	return dropGenerated(fset, fixes, generated)
}

// markGenerated records which of files are generated.
func markGenerated(fset *token.FileSet, files []*ast.File, generated map[*token.File]bool) {
	for _, f := range files {
		if tf := fset.File(f.FileStart); tf != nil {
			generated[tf] = ast.IsGenerated(f)
		}
	}
}

// generatedName returns the base name of the first generated file fix edits.
func generatedName(fset *token.FileSet, fix analysis.SuggestedFix, generated map[*token.File]bool) string {
	for _, e := range fix.TextEdits {
		if f := fset.File(e.Pos); generated[f] {
			return filepath.Base(f.Name())
		}
	}
	return "a file"
}

// dropGenerated returns fixes without those that edit a generated file.
func dropGenerated(fset *token.FileSet, fixes []analysis.SuggestedFix, generated map[*token.File]bool) []analysis.SuggestedFix {
	var out []analysis.SuggestedFix
next:
	for _, fix := range fixes {
		for _, e := range fix.TextEdits {
			if generated[fset.File(e.Pos)] {
				continue next
			}
		}
		out = append(out, fix)
	}
	if len(out) == len(fixes) {
		return fixes
	}
	return out
}

func compare(a, b *Finding) int {
	return cmp.Or(
		comparePosn(a.Posn, b.Posn),
		cmp.Compare(a.Analyzer.Name, b.Analyzer.Name),
		cmp.Compare(a.Diag.Message, b.Diag.Message),
		comparePosn(a.End, b.End),
		slices.CompareFunc(a.Diag.Related, b.Diag.Related, func(x, y analysis.RelatedInformation) int {
			return cmp.Or(comparePosn(a.Fset().Position(x.Pos), b.Fset().Position(y.Pos)), cmp.Compare(x.Message, y.Message))
		}),
		cmp.Compare(a.Package.ID, b.Package.ID),
	)
}

func comparePosn(a, b token.Position) int {
	return cmp.Or(cmp.Compare(a.Filename, b.Filename), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
}

// Unique returns the findings without the copies a file analyzed in two
// packages (a package and its test variant) makes: one per position,
// analyzer and message.
func Unique(fs []*Finding) []*Finding {
	seen := map[findingKey]bool{}
	var out []*Finding
	for _, f := range fs {
		k := keyOf(f)
		if !seen[k] {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}

// findingKey identifies a finding across the packages that analyze its
// file.
type findingKey struct {
	posn, end token.Position
	analyzer  string
	message   string
}

func keyOf(f *Finding) findingKey {
	return findingKey{f.Posn, f.End, f.Analyzer.Name, f.Diag.Message}
}

// Errors returns the errors of actions that failed for a reason of their
// own, in a fixed order, each once: not those skipped because their
// package did not load or type-check (PrintErrors shows why) or because an
// action they depend on failed (that one is listed).
func Errors(g *checker.Graph) []error {
	var out []error
	seen := map[string]bool{}
	for act := range g.All() {
		if act.Err == nil || consequential(act.Err) {
			continue
		}
		msg := fmt.Sprintf("%s: %s: %v", act.Analyzer.Name, act.Package.ID, act.Err)
		if !seen[msg] {
			seen[msg] = true
			out = append(out, fmt.Errorf("%s", msg))
		}
	}
	slices.SortFunc(out, func(a, b error) int { return cmp.Compare(a.Error(), b.Error()) })
	return out
}

// consequential reports whether an action's error only follows from
// another: the package's load errors, or a failed prerequisite.
func consequential(err error) bool {
	msg := err.Error()
	return msg == "analysis skipped due to errors in package" || strings.HasPrefix(msg, "failed prerequisites: ")
}

// Rel returns name relative to the directory dir when it lies below it,
// else name unchanged.
func Rel(dir, name string) string {
	if dir == "" || !filepath.IsAbs(name) {
		return name
	}
	if r, err := filepath.Rel(dir, name); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return r
	}
	return name
}

// relPosn formats a position with its file name relative to dir.
func relPosn(dir string, p token.Position) string {
	p.Filename = Rel(dir, p.Filename)
	return p.String()
}

// PrintText writes the findings, each once, as go vet does: one line
// "file:line:column: message" per finding, with file names relative to
// dir when they lie below it, then a line per related position. With
// contextLines >= 0, each position is followed by the source lines around
// it.
func PrintText(w io.Writer, fs []*Finding, dir string, contextLines int) error {
	return PrintTextMoved(w, fs, dir, contextLines, nil)
}

// PrintTextMoved is PrintText for findings whose files have changed since
// they were reported (by -fix): move maps each position to where its line
// is now.
func PrintTextMoved(w io.Writer, fs []*Finding, dir string, contextLines int, move func(token.Position) token.Position) error {
	var b strings.Builder
	lines := map[string][]string{}
	show := func(p, end token.Position, msg string) {
		if move != nil {
			p, end = move(p), move(end)
		}
		fmt.Fprintf(&b, "%s: %s\n", relPosn(dir, p), msg)
		if contextLines < 0 || p.Filename == "" {
			return
		}
		src, ok := lines[p.Filename]
		if !ok {
			data, _ := os.ReadFile(p.Filename)
			src = strings.Split(string(data), "\n")
			lines[p.Filename] = src
		}
		if !end.IsValid() || end.Filename != p.Filename {
			end = p
		}
		for i := p.Line - contextLines; i <= end.Line+contextLines; i++ {
			if 1 <= i && i <= len(src) {
				fmt.Fprintf(&b, "%d\t%s\n", i, src[i-1])
			}
		}
	}
	for _, f := range Unique(fs) {
		show(f.Posn, f.End, f.Diag.Message)
		for _, r := range f.Diag.Related {
			end := r.End
			if !end.IsValid() {
				end = r.Pos
			}
			show(f.Fset().Position(r.Pos), f.Fset().Position(end), "\t"+r.Message)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// JSON output, in the shape of x/tools' multichecker -json: a tree from
// package ID to analyzer name to a list of diagnostics (or an error).
type (
	jsonDiagnostic struct {
		Category       string             `json:"category,omitempty"`
		Posn           string             `json:"posn"`
		End            string             `json:"end"`
		Message        string             `json:"message"`
		SuggestedFixes []jsonSuggestedFix `json:"suggested_fixes,omitempty"`
		Related        []jsonRelated      `json:"related,omitempty"`
	}
	jsonSuggestedFix struct {
		Message string         `json:"message"`
		Edits   []jsonTextEdit `json:"edits"`
	}
	jsonTextEdit struct {
		Filename string `json:"filename"`
		Start    int    `json:"start"`
		End      int    `json:"end"`
		New      string `json:"new"`
	}
	jsonRelated struct {
		Posn    string `json:"posn"`
		End     string `json:"end"`
		Message string `json:"message"`
	}
	jsonError struct {
		Err string `json:"error"`
	}
)

// PrintJSON writes the findings and the errors of failed actions (those
// Errors lists) as the JSON tree of x/tools' multichecker -json, with
// absolute file names. Each list is in the order of Findings.
func PrintJSON(w io.Writer, g *checker.Graph, fs []*Finding) error {
	tree := map[string]map[string]any{}
	add := func(id, analyzer string, v any) {
		m := tree[id]
		if m == nil {
			m = map[string]any{}
			tree[id] = m
		}
		if v, ok := v.(jsonDiagnostic); ok {
			list, _ := m[analyzer].([]jsonDiagnostic)
			m[analyzer] = append(list, v)
			return
		}
		m[analyzer] = v
	}
	for _, f := range fs {
		fset := f.Fset()
		jd := jsonDiagnostic{
			Category: f.Diag.Category,
			Posn:     f.Posn.String(),
			End:      f.End.String(),
			Message:  f.Diag.Message,
		}
		for _, fix := range f.Diag.SuggestedFixes {
			jf := jsonSuggestedFix{Message: fix.Message, Edits: []jsonTextEdit{}}
			for _, e := range fix.TextEdits {
				end := e.End
				if !end.IsValid() {
					end = e.Pos
				}
				jf.Edits = append(jf.Edits, jsonTextEdit{
					Filename: fset.Position(e.Pos).Filename,
					Start:    fset.Position(e.Pos).Offset,
					End:      fset.Position(end).Offset,
					New:      string(e.NewText),
				})
			}
			jd.SuggestedFixes = append(jd.SuggestedFixes, jf)
		}
		for _, r := range f.Diag.Related {
			end := r.End
			if !end.IsValid() {
				end = r.Pos
			}
			jd.Related = append(jd.Related, jsonRelated{Posn: fset.Position(r.Pos).String(), End: fset.Position(end).String(), Message: r.Message})
		}
		add(f.Package.ID, f.Analyzer.Name, jd)
	}
	if g != nil {
		for act := range g.All() {
			if act.Err != nil && !consequential(act.Err) {
				add(act.Package.ID, act.Analyzer.Name, jsonError{act.Err.Error()})
			}
		}
	}
	data, err := json.MarshalIndent(tree, "", "\t") // map keys sorted
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", data)
	return err
}
