package integration_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixEveryTestdataPackage runs retrylint -fix with every pass, once,
// over the test packages of each pass (the pass's testdata over the
// library stubs, a GOPATH tree as the passes' tests use), and checks that
// the fixed packages build and vet: the fixes of one run compose (two
// passes adding imports named alike, two fixes of one wait), and -fix
// never leaves a fix for a second run.
func TestFixEveryTestdataPackage(t *testing.T) {
	e2e(t)
	passes, err := filepath.Glob(filepath.Join(repoRoot, "passes", "*", "testdata", "src"))
	if err != nil || len(passes) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, src := range passes {
		pass := filepath.Base(filepath.Dir(filepath.Dir(src)))
		t.Run(pass, func(t *testing.T) {
			gopath := t.TempDir()
			copyDir(t, filepath.Join(repoRoot, "internal", "rltest", "testdata", "src"), filepath.Join(gopath, "src"))
			copyDir(t, src, filepath.Join(gopath, "src"))
			entries, err := os.ReadDir(src)
			if err != nil {
				t.Fatal(err)
			}
			var patterns []string
			for _, e := range entries {
				if e.IsDir() {
					patterns = append(patterns, e.Name()+"/...")
				}
			}
			env := []string{"GOPATH=" + gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off"}
			dir := filepath.Join(gopath, "src")
			args := append([]string{"-debug=f", "-fix", "-fixedattempts.budget-module"}, patterns...)
			r := run(t, dir, env, retrylint, args...)
			if r.code != 0 && r.code != 3 || strings.Contains(r.stderr, "retrylint: -fix:") {
				t.Fatalf("-fix failed: %s", r)
			}
			if strings.Contains(r.stderr, "fix round 2") {
				t.Errorf("-fix needed a second round (some fixes overlap):\n%s", r.stderr)
			}
			if v := run(t, dir, env, "go", append([]string{"vet"}, patterns...)...); v.code != 0 {
				t.Errorf("the fixed packages do not build: %s", v)
			}
		})
	}
}
