package integration_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestREADME checks that the README shows the configuration files the
// end-to-end tests run with, verbatim, so that what users paste is what is
// tested. It needs no tools and always runs.
func TestREADME(t *testing.T) {
	readme := readFile(t, filepath.Join(repoRoot, "README.md"))
	for _, name := range []string{
		"golangci/.golangci.yml",
		"golangci/.custom-gcl.yml",
		"custom-gcl/main.go",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(readme, strings.TrimRight(string(data), "\n")) {
			t.Errorf("README.md does not show testdata/%s as it is", name)
		}
	}
	hooks := readFile(t, filepath.Join(repoRoot, ".pre-commit-hooks.yaml"))
	for _, id := range []string{"retrylint", "retrylint-system"} {
		if !strings.Contains(hooks, "- id: "+id+"\n") || !strings.Contains(readme, "`"+id+"`") {
			t.Errorf("hook %s: missing from .pre-commit-hooks.yaml or the README", id)
		}
	}
	// The fix check the README shows is the step .ci/run runs.
	ci := readFile(t, filepath.Join(repoRoot, ".ci", "run"))
	const fixcheck = "RETRYLINT_FIXCHECK=1 go test -count=1 -timeout 15m -run '^TestFixesOnRealModules$' -v ./integration/"
	if !strings.Contains(readme, "\n"+fixcheck+"\n") || !strings.Contains(ci, " "+fixcheck+"\n") {
		t.Errorf("README.md and .ci/run do not both run the fix check as %q", fixcheck)
	}
	for _, section := range []string{"## golangci-lint", "## pre-commit", "## go vet", "## SARIF / GitHub code scanning", "## Monorepos (go.work)"} {
		if !strings.Contains(readme, "\n"+section+"\n") {
			t.Errorf("README.md has no section %q", section)
		}
	}
}
