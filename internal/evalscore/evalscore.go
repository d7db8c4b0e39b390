// Package evalscore scores retrylint's diagnostics against hand-written
// labels of public modules: the evaluation of eval/ (its README states the
// protocol) and any labels file in the same form.
//
// A labels file is tab-separated with a header line: module, version,
// file (inside the module), line (where the diagnostic belongs), pass,
// verdict (report, silent or ambiguous) and a note. A diagnostic counts
// for a label when its pass, module, version, file and line are the
// label's. For each pass: TP are report labels reported, FN report labels
// not reported, FP silent labels reported; ambiguous labels are not
// scored, and diagnostics on lines nobody labelled (outside test files)
// are listed as unlabeled, to be judged by reading.
package evalscore

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Passes are the passes the labels score, in the order tables list them.
var Passes = []string{"fixedattempts", "sharedbudget", "freshtimeout", "nonidempotent"}

// A Label is one labelled place.
type Label struct {
	Set                   string // the labels file it came from, without directory and extension
	Module, Version, File string
	Line                  int
	Pass, Verdict, Note   string
}

func (l Label) key() key { return key{l.Pass, l.Module, l.Version, l.File, l.Line} }

type key struct {
	pass, module, version, file string
	line                        int
}

func (k key) String() string { return fmt.Sprintf("%s@%s/%s:%d", k.module, k.version, k.file, k.line) }

// ReadLabels reads a labels file; Set is its base name without extension.
func ReadLabels(path string) ([]Label, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	set := path[strings.LastIndex(path, "/")+1:]
	set = strings.TrimSuffix(set, ".tsv")
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var out []Label
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if n == 1 || strings.TrimSpace(line) == "" {
			continue // the header
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 6 {
			return nil, fmt.Errorf("%s:%d: %d columns, want 7", path, n, len(cols))
		}
		ln, err := strconv.Atoi(cols[3])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: line %q is not a number", path, n, cols[3])
		}
		switch cols[5] {
		case "report", "silent", "ambiguous":
		default:
			return nil, fmt.Errorf("%s:%d: verdict %q is not report, silent or ambiguous", path, n, cols[5])
		}
		note := ""
		if len(cols) > 6 {
			note = cols[6]
		}
		out = append(out, Label{Set: set, Module: cols[0], Version: cols[1], File: cols[2], Line: ln, Pass: cols[4], Verdict: cols[5], Note: note})
	}
	return out, sc.Err()
}

// A Diag is a diagnostic placed in a module of the module cache.
type Diag struct {
	Pass                  string
	Module, Version, File string
	Line                  int
	Message               string
}

func (d Diag) key() key { return key{d.Pass, d.Module, d.Version, d.File, d.Line} }

var posnRE = regexp.MustCompile(`^(.*):(\d+):\d+$`)

// ReadJSON reads retrylint -json output and keeps the diagnostics in
// files of the module cache modcache, placed by module, version and file.
func ReadJSON(r io.Reader, modcache string) ([]Diag, error) {
	var doc map[string]map[string]json.RawMessage
	if err := json.NewDecoder(r).Decode(&doc); err != nil {
		return nil, err
	}
	var out []Diag
	for _, byPass := range doc {
		for pass, raw := range byPass {
			var list []struct {
				Posn    string `json:"posn"`
				Message string `json:"message"`
			}
			if json.Unmarshal(raw, &list) != nil {
				continue // an analyzer error: {"error": ...}
			}
			for _, d := range list {
				m := posnRE.FindStringSubmatch(d.Posn)
				if m == nil || !strings.HasPrefix(m[1], modcache+"/") {
					continue
				}
				rel := m[1][len(modcache)+1:]
				at := strings.Index(rel, "@")
				if at < 0 {
					continue
				}
				ver, file, _ := strings.Cut(rel[at+1:], "/")
				line, _ := strconv.Atoi(m[2])
				out = append(out, Diag{Pass: pass, Module: unescape(rel[:at]), Version: ver, File: file, Line: line, Message: d.Message})
			}
		}
	}
	return out, nil
}

// unescape undoes the module cache's case encoding (!x is X).
func unescape(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] == '!' && i+1 < len(p) {
			b.WriteString(strings.ToUpper(p[i+1 : i+2]))
			i++
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// A PassScore is one pass's score.
type PassScore struct {
	TP, FP, FN int
	// Misses, FalsePositives and Unlabeled describe each, one line
	// apiece, sorted.
	Misses, FalsePositives, Unlabeled []string
}

// Precision is TP/(TP+FP), NaN with neither.
func (s *PassScore) Precision() float64 { return ratio(s.TP, s.TP+s.FP) }

// Recall is TP/(TP+FN), NaN with neither.
func (s *PassScore) Recall() float64 { return ratio(s.TP, s.TP+s.FN) }

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// Score scores the diagnostics against the labels, pass by pass. Only
// diagnostics in the labels' modules are listed as unlabeled.
func Score(labels []Label, diags []Diag) map[string]*PassScore {
	out := map[string]*PassScore{}
	for _, p := range Passes {
		out[p] = &PassScore{}
	}
	got := map[key]string{}
	for _, d := range diags {
		if _, ok := got[d.key()]; !ok {
			got[d.key()] = d.Message
		}
	}
	labelled := map[key]Label{}
	modules := map[string]bool{}
	for _, l := range labels {
		labelled[l.key()] = l
		modules[l.Module+"@"+l.Version] = true
	}
	for k, l := range labelled {
		s := out[k.pass]
		if s == nil {
			continue
		}
		msg, hit := got[k]
		switch {
		case l.Verdict == "report" && hit:
			s.TP++
		case l.Verdict == "report":
			s.FN++
			s.Misses = append(s.Misses, k.String()+"  -- "+short(l.Note, 160))
		case l.Verdict == "silent" && hit:
			s.FP++
			s.FalsePositives = append(s.FalsePositives, k.String()+": "+short(msg, 110)+"  -- label: "+short(l.Note, 130))
		}
	}
	for k, msg := range got {
		s := out[k.pass]
		if s == nil || !modules[k.module+"@"+k.version] || strings.HasSuffix(k.file, "_test.go") {
			continue
		}
		if _, ok := labelled[k]; !ok {
			s.Unlabeled = append(s.Unlabeled, k.String()+": "+short(msg, 140))
		}
	}
	for _, s := range out {
		sort.Strings(s.Misses)
		sort.Strings(s.FalsePositives)
		sort.Strings(s.Unlabeled)
	}
	return out
}

func short(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// Table writes the scores as the table the closing notes show.
func Table(w io.Writer, scores map[string]*PassScore) {
	fmt.Fprintf(w, "  %-14s %4s %4s %4s %6s %6s %10s\n", "pass", "TP", "FP", "FN", "P", "R", "unlabeled")
	for _, p := range Passes {
		s := scores[p]
		fmt.Fprintf(w, "  %-14s %4d %4d %4d %6.2f %6.2f %10d\n", p, s.TP, s.FP, s.FN, s.Precision(), s.Recall(), len(s.Unlabeled))
	}
}

// Details writes every miss, false positive and unlabeled diagnostic.
func Details(w io.Writer, scores map[string]*PassScore) {
	for _, p := range Passes {
		s := scores[p]
		for _, part := range []struct {
			name  string
			items []string
		}{{"MISS", s.Misses}, {"FALSE POSITIVE", s.FalsePositives}, {"UNLABELED", s.Unlabeled}} {
			if len(part.items) == 0 {
				continue
			}
			fmt.Fprintf(w, "\n  %s: %s (%d)\n", p, part.name, len(part.items))
			for _, it := range part.items {
				fmt.Fprintf(w, "    %s\n", it)
			}
		}
	}
}
