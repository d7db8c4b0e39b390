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

// TestAnyPackageSet analyzes each package of a module whose packages
// learn from each other through facts (testdata/parity: a retry helper, a
// budget check, a polarity, a sleep helper, a request sender that retries,
// an idempotency-key setter, nested retries over three packages, and a
// helper in another module the module requires) in every way a user can:
// in lint mode alone, with the packages that import it, with the other
// module's package, and with the whole module; and under go vet -vettool
// alone and with the whole module. Each package's diagnostics, with their
// related information, must be the same in every run. Lint mode runs with
// -module-facts, which loads the packages of the module that the named
// ones import; TestModuleFactsOff shows what a run without it misses.
func TestAnyPackageSet(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "parity"))); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off"}
	// importers lists, for each package, the packages of the module that
	// import it, directly or not.
	importers := map[string][]string{
		"retryx": {"app", "edge"}, "guard": {"app", "edge"}, "pause": {"app", "edge"},
		"send": {"app", "edge"}, "app": {"edge"}, "edge": nil,
	}
	lint := func(patterns ...string) string {
		_, stderr, code := runEnv(t, dir, env, append([]string{"-test=false", "-module-facts"}, patterns...)...)
		if code != 0 && code != 3 {
			t.Fatalf("retrylint %s: exit %d\n%s", strings.Join(patterns, " "), code, stderr)
		}
		return stderr
	}
	vet := func(patterns ...string) string {
		cmd := exec.Command("go", append([]string{"vet", "-vettool=" + retrylint}, patterns...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if _, ok := err.(*exec.ExitError); err != nil && !ok {
			t.Fatal(err)
		}
		return string(out)
	}
	whole := lint("./...")
	wholeVet := vet("./...")
	checked := 0
	for pkg, imps := range importers {
		want := findingsOf(whole, pkg)
		if pkg != "guard" && pkg != "pause" && len(want) == 0 {
			t.Errorf("%s: no finding in the whole module's run; the test shows nothing:\n%s", pkg, whole)
		}
		runs := map[string]string{
			"go vet ./...":       wholeVet,
			"go vet ./" + pkg:    vet("./" + pkg),
			"retrylint ./" + pkg: lint("./" + pkg),
		}
		if len(imps) > 0 {
			patterns := []string{"./" + pkg}
			for _, imp := range imps {
				patterns = append(patterns, "./"+imp)
			}
			runs["retrylint "+strings.Join(patterns, " ")] = lint(patterns...)
		}
		if pkg == "app" {
			runs["retrylint ./app example.com/lib"] = lint("./app", "example.com/lib")
		}
		for name, out := range runs {
			if got := findingsOf(out, pkg); !slices.Equal(got, want) {
				t.Errorf("%s: the findings in %s differ from those of retrylint ./...\n%s:\n%s\nretrylint ./...:\n%s",
					name, pkg, name, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			checked++
		}
	}
	t.Logf("%d runs agree on %d packages", checked, len(importers))
}

// findingsOf returns the findings of an output (lint mode or go vet)
// reported in the files of the package directory pkg: each diagnostic
// line with its related lines, sorted.
func findingsOf(out, pkg string) []string {
	diag := regexp.MustCompile(`^(?:\./)?([^\s:]+\.go):\d+:\d+: (.*)$`)
	var blocks []string
	keep := false
	for _, l := range strings.Split(out, "\n") {
		m := diag.FindStringSubmatch(l)
		switch {
		case m == nil:
			keep = false
		case strings.HasPrefix(m[2], "\t"): // related information of the diagnostic above
			if keep {
				blocks[len(blocks)-1] += "\n" + strings.TrimPrefix(l, "./")
			}
		default:
			keep = strings.HasPrefix(m[1], pkg+"/")
			if keep {
				blocks = append(blocks, strings.TrimPrefix(l, "./"))
			}
		}
	}
	slices.Sort(blocks)
	return slices.Compact(blocks)
}

// TestModuleFactsOff: without -module-facts, lint mode computes the facts
// of the named packages only. Over the whole module the findings are those
// of -module-facts; a package named without the packages of its module it
// imports misses their facts, and its findings differ.
func TestModuleFactsOff(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "parity"))); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off"}
	lint := func(args ...string) string {
		_, stderr, code := runEnv(t, dir, env, append([]string{"-test=false"}, args...)...)
		if code != 0 && code != 3 {
			t.Fatalf("retrylint %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
		}
		return stderr
	}
	whole, wholeOn := lint("./..."), lint("-module-facts", "./...")
	if !slices.Equal(findingsOf(whole, "app"), findingsOf(wholeOn, "app")) {
		t.Errorf("./... without -module-facts differs from ./... with it:\n%s\nvs\n%s", whole, wholeOn)
	}
	alone, aloneOn := findingsOf(lint("./app"), "app"), findingsOf(lint("-module-facts", "./app"), "app")
	if !slices.Equal(aloneOn, findingsOf(whole, "app")) {
		t.Errorf("./app with -module-facts differs from ./...:\n%s\nvs\n%s", strings.Join(aloneOn, "\n"), strings.Join(findingsOf(whole, "app"), "\n"))
	}
	if slices.Equal(alone, aloneOn) {
		t.Errorf("./app without -module-facts finds what it finds with it: the flag makes no difference here, and the test shows nothing:\n%s", strings.Join(alone, "\n"))
	}
}
