package integration_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's install lines, as it shows them; "/path/to/retrylint" is
// the checkout.
const (
	installCommand = "go install ./cmd/retrylint"
	budgetCommand  = "go mod edit -require=github.com/retrylint/retrylint/budget@v0.0.0 -replace=github.com/retrylint/retrylint/budget=/path/to/retrylint/budget"
)

// TestInstallFromCheckout runs the README's install lines: the command
// from a checkout, and the budget module in a module of one's own.
func TestInstallFromCheckout(t *testing.T) {
	e2e(t)
	bin := t.TempDir()
	env := []string{"GOBIN=" + bin}
	if r := run(t, repoRoot, env, "sh", "-c", installCommand); r.code != 0 {
		t.Fatalf("%s: %s", installCommand, r)
	}
	if r := run(t, t.TempDir(), nil, filepath.Join(bin, "retrylint"), "-version"); r.code != 0 || !strings.HasPrefix(r.stdout, "retrylint ") {
		t.Errorf("the installed retrylint -version: %s", r)
	}

	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/user\n\ngo 1.22\n",
		"main.go": `package main

import "github.com/retrylint/retrylint/budget"

var b = budget.New()

func main() { b.OnRequest(); _ = b.TryRetry() }
`,
	})
	cmd := strings.ReplaceAll(budgetCommand, "/path/to/retrylint", repoRoot)
	env = []string{"GOWORK=off", "GOFLAGS=-buildvcs=false", "GOPROXY=off"}
	if r := run(t, dir, env, "sh", "-c", cmd); r.code != 0 {
		t.Fatalf("%s: %s", cmd, r)
	}
	if r := run(t, dir, env, "go", "build", "./..."); r.code != 0 {
		t.Errorf("go build with the budget module from the checkout: %s", r)
	}
}

// TestVersionFromVCS builds retrylint in a git repository (the checkout,
// or a snapshot of it: the go command records no VCS information for a
// git worktree or a dirty tree's uncommitted files) and wants -version
// and -V=full to name the module version and the commit, and go vet to
// accept -V=full.
func TestVersionFromVCS(t *testing.T) {
	e2e(t)
	repo := repoRoot
	if fi, err := os.Stat(filepath.Join(repoRoot, ".git")); err != nil || !fi.IsDir() || run(t, repoRoot, nil, "git", "status", "--porcelain").stdout != "" {
		repo = snapshot(t)
	}
	rev := strings.TrimSpace(run(t, repo, nil, "git", "rev-parse", "HEAD").stdout)
	bin := filepath.Join(t.TempDir(), "retrylint")
	if r := run(t, repo, nil, "go", "build", "-buildvcs=true", "-o", bin, "./cmd/retrylint"); r.code != 0 {
		t.Fatalf("go build -buildvcs=true: %s", r)
	}
	pseudo := `v0\.0\.0-\d{14}-` + rev[:12]
	r := run(t, t.TempDir(), nil, bin, "-version")
	if !regexp.MustCompile(`^retrylint ` + pseudo + ` github\.com/retrylint/retrylint built with go\S+ from git revision ` + rev + ` of \S+\n$`).MatchString(r.stdout) {
		t.Errorf("-version: %q, want the pseudo-version and revision %s", r.stdout, rev)
	}
	r = run(t, t.TempDir(), nil, bin, "-V=full")
	if !regexp.MustCompile(`^retrylint version ` + pseudo + ` ` + rev + ` buildID=[0-9a-f]{64}\n$`).MatchString(r.stdout) {
		t.Errorf("-V=full: %q", r.stdout)
	}
	dir := sampleModule(t)
	if r := run(t, dir, goEnv, "go", "vet", "-vettool="+bin, "./q"); r.code != 0 {
		t.Errorf("go vet with this -V=full: %s", r)
	}
}
