package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLintVetSame runs lint mode and go vet -vettool over the
// cross-package fixture (analysistest/testdata/shop: a helper in one
// package called from others, facts across packages) and wants the same
// diagnostics from both, at the same positions.
func TestLintVetSame(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join(repo, "analysistest", "testdata", "shop")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	data = regexp.MustCompile(`=> \S+budget`).ReplaceAll(data, []byte("=> "+filepath.Join(repo, "budget")))
	if err := os.WriteFile(gomod, data, 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, lint, code := run(t, dir, "-test=false", "./...")
	if code != 3 {
		t.Fatalf("lint: exit %d, output:\n%s%s", code, stdout, lint)
	}
	vet := exec.Command("go", "vet", "-vettool="+retrylint, "./...")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, _ := vet.CombinedOutput()

	got, want := diagnostics(string(out)), diagnostics(lint)
	if len(want) == 0 {
		t.Fatalf("lint mode reported nothing:\n%s", lint)
	}
	t.Logf("%d diagnostics from each", len(want))
	if !slices.Equal(got, want) {
		t.Errorf("go vet -vettool and lint mode disagree\nvet:\n%s\nlint:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// diagnostics returns the diagnostic lines of an output, "file:line:col:
// message", sorted, without related information or go vet's package
// headers.
func diagnostics(out string) []string {
	var ds []string
	line := regexp.MustCompile(`^(?:\./)?([^\s:]+\.go:\d+:\d+: .*)$`)
	for _, l := range strings.Split(out, "\n") {
		if m := line.FindStringSubmatch(l); m != nil {
			ds = append(ds, m[1])
		}
	}
	slices.Sort(ds)
	return slices.Compact(ds)
}
