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
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/txtar"
)

// StubsDir returns the directory that holds the library stubs, a GOPATH
// tree (testdata/src/<import path>: the go command ignores testdata).
func StubsDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		panic("rltest: cannot locate source")
	}
	return filepath.Join(filepath.Dir(file), "testdata")
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

// GoldenCompiles type-checks, for every package below dir/src (or below
// dir/src/<pkg> for each pkg given) that has *.go.golden files, the
// package with the golden texts in place of their files: all of them
// together, as a fix that edits several files (a declaration in one, its
// uses in others) leaves them. A golden file in txtar form (one section
// per fix, alternatives) is checked section by section, with the other
// files as they are. dir is a tree made by WithStubs, so that the stubs
// resolve.
func GoldenCompiles(t *testing.T, dir string, pkgs ...string) {
	t.Helper()
	roots := []string{filepath.Join(dir, "src")}
	if len(pkgs) > 0 {
		roots = roots[:0]
		for _, p := range pkgs {
			roots = append(roots, filepath.Join(dir, "src", p))
		}
	}
	var goldens []string
	for _, root := range roots {
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go.golden") {
				goldens = append(goldens, path)
			}
			return nil
		})
	}
	if len(goldens) == 0 {
		t.Fatalf("GoldenCompiles: no golden files below %s", dir)
	}
	plain := map[string]map[string][]byte{} // by directory: golden path -> text
	var dirs []string
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(data, []byte("-- ")) {
			for _, f := range txtar.Parse(data).Files {
				if err := checkVariant(dir, map[string][]byte{g: f.Data}); err != nil {
					t.Errorf("golden %s [%s] does not type-check: %v", filepath.Base(g), f.Name, err)
				}
			}
			continue
		}
		d := filepath.Dir(g)
		if plain[d] == nil {
			plain[d] = map[string][]byte{}
			dirs = append(dirs, d)
		}
		plain[d][g] = data
	}
	for _, d := range dirs {
		if err := checkVariant(dir, plain[d]); err != nil {
			var names []string
			for g := range plain[d] {
				names = append(names, filepath.Base(g))
			}
			sort.Strings(names)
			t.Errorf("golden %s does not type-check: %v", strings.Join(names, ", "), err)
		}
	}
}

// checkVariant copies the whole GOPATH tree, replaces the source file of
// each golden path with its text, and type-checks their package.
func checkVariant(dir string, texts map[string][]byte) error {
	tmp, err := os.MkdirTemp("", "rltest-golden-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := copyTree(filepath.Join(dir, "src"), filepath.Join(tmp, "src")); err != nil {
		return err
	}
	var src, rel string
	tests := false
	for golden, text := range texts {
		rel, err = filepath.Rel(filepath.Join(dir, "src"), strings.TrimSuffix(golden, ".golden"))
		if err != nil {
			return err
		}
		src = filepath.Join(tmp, "src", rel)
		tests = tests || strings.HasSuffix(rel, "_test.go")
		if err := os.WriteFile(src, text, 0o644); err != nil {
			return err
		}
	}
	// The package is type-checked from source, its imports from export
	// data.
	cfg := &packages.Config{
		Mode:  packages.NeedName | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo | packages.NeedImports,
		Dir:   filepath.Dir(src),
		Env:   append(os.Environ(), "GOPATH="+tmp, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"),
		Tests: tests,
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
