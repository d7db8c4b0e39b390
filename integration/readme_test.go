package integration_test

import (
	"io/fs"
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

// TestREADME checks that the README and docs/integrations.md show the
// configuration files the end-to-end tests run with, verbatim, so that
// what users paste is what is tested, and that the commands they show are
// those CI runs. It needs no tools and always runs.
func TestREADME(t *testing.T) {
	readme := readFile(t, filepath.Join(repoRoot, "README.md"))
	integrations := readFile(t, filepath.Join(repoRoot, "docs", "integrations.md"))
	contributing := readFile(t, filepath.Join(repoRoot, "docs", "contributing.md"))
	if n := strings.Count(readme, "\n"); n > 300 {
		t.Errorf("README.md has %d lines, want at most 300: the rest belongs in docs/", n)
	}
	for _, name := range []string{
		"golangci/.golangci.yml",
		"golangci/.custom-gcl.yml",
		"custom-gcl/main.go",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(integrations, strings.TrimRight(string(data), "\n")) {
			t.Errorf("docs/integrations.md does not show testdata/%s as it is", name)
		}
	}
	hooks := readFile(t, filepath.Join(repoRoot, ".pre-commit-hooks.yaml"))
	for _, id := range []string{"retrylint", "retrylint-system"} {
		if !strings.Contains(hooks, "- id: "+id+"\n") || !strings.Contains(integrations, "`"+id+"`") {
			t.Errorf("hook %s: missing from .pre-commit-hooks.yaml or docs/integrations.md", id)
		}
	}
	ci := readFile(t, filepath.Join(repoRoot, ".ci", "run"))
	// The README's test command is the one CI runs (with a longer time
	// limit and the end-to-end tests switched on).
	if !strings.Contains(readme, "\ngo test work\n") || !strings.Contains(ci, "\ntime go test -timeout 60m work\n") {
		t.Error("README.md's test command (go test work) is not the one .ci/run runs")
	}
	// The fix check docs/contributing.md shows is the step .ci/run runs.
	const fixcheck = "RETRYLINT_FIXCHECK=1 go test -count=1 -timeout 15m -run '^TestFixesOnRealModules$' -v ./integration/"
	if !strings.Contains(contributing, "\n"+fixcheck+"\n") || !strings.Contains(ci, " "+fixcheck+"\n") {
		t.Errorf("docs/contributing.md and .ci/run do not both run the fix check as %q", fixcheck)
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
	if !strings.Contains(integrations, `args: ["-baseline=retrylint-baseline.json", "./..."]`) || !strings.Contains(hooks, "retrylint-baseline") {
		t.Error("docs/integrations.md or .pre-commit-hooks.yaml does not show the hook with a baseline")
	}
	for _, section := range []string{"## Adopting retrylint on existing code: a baseline", "### Silencing a finding", "### Installing"} {
		if !strings.Contains(readme, "\n"+section+"\n") {
			t.Errorf("README.md has no section %q", section)
		}
	}
	for _, section := range []string{"## golangci-lint", "## pre-commit", "## go vet", "## SARIF / GitHub code scanning", "## Monorepos (go.work)", "## Bazel: rules_go's nogo"} {
		if !strings.Contains(integrations, "\n"+section+"\n") {
			t.Errorf("docs/integrations.md has no section %q", section)
		}
	}
}

// TestNoPathOutside checks that no text file of the repository names a
// path into the shared folder beside a checkout, so that a fresh clone has
// what its scripts, tests and documents refer to.
func TestNoPathOutside(t *testing.T) {
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || name == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".md", ".sh", ".yml", ".yaml", ".txt", "":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(data), "../"+"shared") {
			rel, _ := filepath.Rel(repoRoot, path)
			t.Errorf("%s names a path outside the repository (../%s)", rel, "shared")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
