package rltest

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
)

// FuzzWholeFiles fuzzes analyzer a over whole files: it must never fail or
// panic on a file that type-checks with standard imports only. It seeds
// the corpus with the pass's testdata files that import only the standard
// library, and with the extra seeds given.
func FuzzWholeFiles(f *testing.F, a *analysis.Analyzer, seeds ...string) {
	filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && stdOnly(string(data)) {
			f.Add(string(data))
		}
		return nil
	})
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := RunOnSource(src, a)
		if err != nil && !errors.Is(err, ErrNotWellTyped) {
			t.Fatalf("analysis error: %v\n%s", err, src)
		}
	})
}

// stdOnly reports, roughly, whether a Go file imports only standard
// packages (whose import paths have no dot in their first element).
func stdOnly(src string) bool {
	for _, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "\""); i >= 0 && (strings.HasPrefix(line, "import ") || strings.HasPrefix(line, "\"") || strings.HasPrefix(line, "_ \"")) {
			path := strings.Trim(line[i:], "\"")
			if first, _, _ := strings.Cut(path, "/"); strings.Contains(first, ".") {
				return false
			}
		}
	}
	return true
}
