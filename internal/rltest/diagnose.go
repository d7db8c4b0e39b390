package rltest

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"
)

// FixedTree returns a copy of the tree dir (made by WithStubs) in which
// every file that has a .go.golden holds the golden's text: the code as
// the suggested fixes leave it.
func FixedTree(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	if err := copyTree(filepath.Join(dir, "src"), filepath.Join(out, "src")); err != nil {
		t.Fatal(err)
	}
	err := filepath.Walk(filepath.Join(out, "src"), func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		if g, ok := strings.CutSuffix(path, ".golden"); ok {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(g, data, 0o644); err != nil {
				return err
			}
			return os.Remove(path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Diag is a diagnostic of Diagnostics.
type Diag struct {
	Posn    string // file:line, the file relative to the tree's src
	Message string
	Fix     bool     // it offers a suggested fix
	Related []string // the messages of its related information
}

func (d Diag) String() string { return d.Posn + ": " + d.Message }

// Diagnostics runs the analyzer on the packages pkgs of the tree dir and
// returns its diagnostics, sorted.
func Diagnostics(t *testing.T, dir string, a *analysis.Analyzer, pkgs ...string) []Diag {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.LoadAllSyntax,
		Dir:  filepath.Join(dir, "src"),
		Env:  append(os.Environ(), "GOPATH="+dir, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
	}
	loaded, err := packages.Load(cfg, pkgs...)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	packages.Visit(loaded, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		t.Fatalf("Diagnostics: %s", strings.Join(msgs, "; "))
	}
	g, err := checker.Analyze([]*analysis.Analyzer{a}, loaded, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out []Diag
	for act := range g.All() {
		if !act.IsRoot || act.Analyzer != a {
			continue
		}
		if act.Err != nil {
			t.Fatalf("Diagnostics: %s: %v", act.Package.PkgPath, act.Err)
		}
		for _, d := range act.Diagnostics {
			p := act.Package.Fset.Position(d.Pos)
			rel, err := filepath.Rel(filepath.Join(dir, "src"), p.Filename)
			if err != nil {
				rel = p.Filename
			}
			var related []string
			for _, r := range d.Related {
				related = append(related, r.Message)
			}
			out = append(out, Diag{Posn: fmt.Sprintf("%s:%d", filepath.ToSlash(rel), p.Line), Message: d.Message, Fix: len(d.SuggestedFixes) > 0, Related: related})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}
