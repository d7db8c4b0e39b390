// Package rltest holds the helpers the passes' tests share: a GOPATH-style
// test tree that combines a pass's testdata with hand-written stubs of the
// third-party retry libraries, and a check that every golden file of a
// suggested fix type-checks.
package rltest

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"
)

// StubsDir returns the directory that holds the library stubs, a GOPATH
// tree (stubs/src/<import path>).
func StubsDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("rltest: cannot locate source")
	}
	return filepath.Join(filepath.Dir(file), "stubs")
}

// WithStubs returns a temporary GOPATH directory holding the library stubs
// and, over them, the src tree of testdata (normally analysistest.TestData()).
// Pass the result to analysistest.Run as its dir.
func WithStubs(t testing.TB, testdata string) string {
	t.Helper()
	dir := t.TempDir()
	for _, from := range []string{StubsDir(), testdata} {
		if err := copyTree(filepath.Join(from, "src"), filepath.Join(dir, "src")); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
}

// GoldenCompiles type-checks, for every *.go.golden file below dir/src, the
// package it belongs to with the golden text in place of the file. A golden
// file in txtar form (one section per fix) is checked section by section.
// dir is a tree made by WithStubs, so that the stubs resolve.
func GoldenCompiles(t *testing.T, dir string) {
	t.Helper()
	var goldens []string
	filepath.WalkDir(filepath.Join(dir, "src"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go.golden") {
			goldens = append(goldens, path)
		}
		return nil
	})
	if len(goldens) == 0 {
		t.Fatalf("GoldenCompiles: no golden files below %s", dir)
	}
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		variants := map[string][]byte{"": data}
		if bytes.HasPrefix(data, []byte("-- ")) {
			variants = map[string][]byte{}
			for _, f := range txtar.Parse(data).Files {
				variants[f.Name] = f.Data
			}
		}
		for name, text := range variants {
			if err := checkVariant(dir, g, text); err != nil {
				label := filepath.Base(g)
				if name != "" {
					label += " [" + name + "]"
				}
				t.Errorf("golden %s does not type-check: %v", label, err)
			}
		}
	}
}

// checkVariant copies the whole GOPATH tree, replaces the golden's source
// file with text, and type-checks the package.
func checkVariant(dir, golden string, text []byte) error {
	tmp, err := os.MkdirTemp("", "rltest-golden-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(filepath.Join(dir, "src"), filepath.Join(tmp, "src")); err != nil {
		return err
	}
	rel, err := filepath.Rel(filepath.Join(dir, "src"), strings.TrimSuffix(golden, ".golden"))
	if err != nil {
		return err
	}
	src := filepath.Join(tmp, "src", rel)
	if err := os.WriteFile(src, text, 0o644); err != nil {
		return err
	}
	// Other golden files would confuse nothing (they are not .go files),
	// but other fixed files of the same package are not applied: each
	// golden is checked against the original text of its siblings.
	// Without NeedDeps, dependencies come from export data (compiled and
	// cached by the go command) instead of being type-checked from source
	// for every variant: the standard library alone takes seconds.
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedImports,
		Dir:   filepath.Dir(src),
		Env:   append(os.Environ(), "GOPATH="+tmp, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
		Tests: strings.HasSuffix(rel, "_test.go"),
	}
	pkgs, err := packages.Load(cfg, ".")
	if err != nil {
		return err
	}
	var msgs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	})
	if len(msgs) > 0 {
		return fmt.Errorf("%s", strings.Join(msgs, "; "))
	}
	return nil
}
