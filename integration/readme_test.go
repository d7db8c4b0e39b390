package integration_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLicense checks that the repository and the budget module (published
// on its own) carry the BSD 3-Clause license.
func TestLicense(t *testing.T) {
	root := readFile(t, filepath.Join(repoRoot, "LICENSE"))
	for _, clause := range []string{
		"Redistributions of source code must retain the above copyright",
		"Redistributions in binary form must reproduce the above",
		"Neither the name of the copyright holder nor the names of its",
		"THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS",
	} {
		if !strings.Contains(root, clause) {
			t.Errorf("LICENSE lacks %q", clause)
		}
	}
	if budget := readFile(t, filepath.Join(repoRoot, "budget", "LICENSE")); budget != root {
		t.Error("budget/LICENSE differs from LICENSE")
	}
}

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
	for _, line := range []string{installCommand, budgetCommand} {
		if !strings.Contains(readme, "\n"+line+" ") && !strings.Contains(readme, "\n"+line+"\n") {
			t.Errorf("README.md does not show the install line the end-to-end test runs: %s", line)
		}
	}
	if strings.Contains(readme, "Install the command: `go install github.com/retrylint/retrylint/cmd/retrylint@latest`") {
		t.Error("README.md offers go install ...@latest, which fails until a release is published")
	}
	// The pre-commit hook with a baseline, as TestPreCommitBaseline runs it.
	if !strings.Contains(readme, `args: ["-baseline=retrylint-baseline.json", "./..."]`) || !strings.Contains(hooks, "retrylint-baseline") {
		t.Error("README.md or .pre-commit-hooks.yaml does not show the hook with a baseline")
	}
	for _, section := range []string{"## golangci-lint", "## pre-commit", "## go vet", "## SARIF / GitHub code scanning", "## Monorepos (go.work)",
		"## Adopting retrylint on existing code: a baseline", "### Silencing a finding", "### Installing", "## Bazel: rules_go's nogo"} {
		if !strings.Contains(readme, "\n"+section+"\n") {
			t.Errorf("README.md has no section %q", section)
		}
	}
}
