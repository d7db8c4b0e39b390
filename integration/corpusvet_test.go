package integration_test

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestLintVetCorpus runs retrylint in lint mode and as go vet's analysis
// tool over a corpus of real modules (RETRYLINT_CORPUS names its folder,
// absolute or relative to the checkout:
// a go.mod pinning the modules and a packages.txt listing the packages,
// as the tuning corpus has) and wants the same findings, message for
// message, at every position outside test files. go vet analyzes each
// package with its tests, lint mode here too (-test=true): findings on the
// code must not depend on the tests analyzed beside it. Test files' own
// findings are left out, since lint mode also reports them for the
// package's variant without tests. It takes minutes (go vet runs the tool
// on every package the corpus imports), so it runs only when asked.
func TestLintVetCorpus(t *testing.T) {
	e2e(t)
	dir := os.Getenv("RETRYLINT_CORPUS")
	if dir == "" {
		t.Skip("set RETRYLINT_CORPUS to a corpus folder (a go.mod and a packages.txt) to run it")
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(repoRoot, dir) // relative to the checkout
	}
	pkgs := corpusPackages(t, filepath.Join(dir, "packages.txt"))
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod"}
	lint := run(t, dir, env, retrylint, append([]string{"-test=true"}, pkgs...)...)
	switch lint.code {
	case 0, 3:
	case 1:
		// A test file of the corpus that does not type-check (pulsar's,
		// against a newer docker module): go vet fails on it too.
		t.Logf("lint mode: exit 1, a package does not type-check")
	default:
		t.Fatalf("lint mode: %s", lint)
	}
	vet := run(t, dir, env, "go", append([]string{"vet", "-vettool=" + retrylint}, pkgs...)...)
	got, want := codeFindings(vet.stderr+vet.stdout), codeFindings(lint.stderr+lint.stdout)
	if len(want) == 0 {
		t.Fatalf("lint mode reported nothing:\n%s", lint)
	}
	t.Logf("%d findings outside test files in each", len(want))
	for _, f := range want {
		if !slices.Contains(got, f) {
			t.Errorf("go vet misses: %s", f)
		}
	}
	for _, f := range got {
		if !slices.Contains(want, f) {
			t.Errorf("go vet adds: %s", f)
		}
	}
}

// corpusPackages reads a package list: one import path a line, '#'
// starting a comment.
func corpusPackages(t *testing.T, file string) []string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if line = strings.TrimSpace(line); line != "" {
			out = append(out, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// codeFindings returns the diagnostic lines of an output that are outside
// test files, "file:line:col: message" with the module cache's prefix
// cut, sorted and once each; related lines (their message starts with a
// tab) are left out.
func codeFindings(out string) []string {
	line := regexp.MustCompile(`^(?:.*/pkg/mod/|\./)?(\S+\.go:\d+:\d+: \S.*)$`)
	var fs []string
	for _, l := range strings.Split(out, "\n") {
		m := line.FindStringSubmatch(l)
		if m == nil || strings.Contains(m[1], "_test.go:") {
			continue
		}
		fs = append(fs, m[1])
	}
	slices.Sort(fs)
	return slices.Compact(fs)
}
