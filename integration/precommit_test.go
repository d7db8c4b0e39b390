package integration_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// hookRepo returns a git repository and commit that hold this checkout's
// .pre-commit-hooks.yaml and code: the checkout itself at HEAD when its
// work tree is clean (as in CI), else a snapshot of the work tree
// committed to a new repository, so that what is tested is what is on disk.
func hookRepo(t *testing.T) (repo, rev string) {
	t.Helper()
	git := func(dir string, args ...string) string {
		t.Helper()
		r := run(t, dir, nil, "git", args...)
		if r.code != 0 {
			t.Fatalf("git %s: %s", strings.Join(args, " "), r)
		}
		return strings.TrimSpace(r.stdout)
	}
	if git(repoRoot, "status", "--porcelain") == "" {
		t.Logf("hook repository: the checkout %s at HEAD", repoRoot)
		return repoRoot, git(repoRoot, "rev-parse", "HEAD")
	}
	snap := snapshot(t)
	t.Logf("hook repository: a snapshot of the work tree of %s (it has uncommitted changes)", repoRoot)
	return snap, git(snap, "rev-parse", "HEAD")
}

// snapshot commits the checkout's work tree (tracked and untracked files
// that are not ignored) to a new git repository and returns its directory.
func snapshot(t *testing.T) string {
	t.Helper()
	git := func(dir string, args ...string) string {
		t.Helper()
		r := run(t, dir, nil, "git", args...)
		if r.code != 0 {
			t.Fatalf("git %s: %s", strings.Join(args, " "), r)
		}
		return strings.TrimSpace(r.stdout)
	}
	snap := t.TempDir()
	for _, name := range strings.Split(git(repoRoot, "ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00") {
		if name == "" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(repoRoot, name))
		if err != nil {
			continue // deleted in the work tree
		}
		writeFiles(t, snap, map[string]string{name: string(data)})
	}
	git(snap, "init", "-q")
	git(snap, "add", "-A")
	git(snap, "-c", "user.name=retrylint e2e", "-c", "user.email=e2e@example.com", "commit", "-qm", "snapshot of the work tree")
	return snap
}

const violation = `package svc

import "errors"

func Fetch(c interface{ Get() error }) error {
	for i := 0; i < 3; i++ {
		if c.Get() == nil {
			return nil
		}
	}
	return errors.New("gave up")
}
`

const fixed = `package svc

func Fetch(c interface{ Get() error }) error {
	return c.Get()
}
`

// TestPreCommitBaseline gives the installed-binary hook a baseline, as the
// README shows: a commit that keeps the recorded findings (and moves them)
// passes, one that adds a finding is refused with that finding only.
func TestPreCommitBaseline(t *testing.T) {
	e2e(t)
	_, err := exec.LookPath("pre-commit")
	need(t, err == nil, "pre-commit (apt-get install -y pre-commit)")
	repo, rev := hookRepo(t)
	dir := t.TempDir()
	env := []string{
		"PRE_COMMIT_HOME=" + t.TempDir(),
		"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
		"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com",
		"GOWORK=off",
		"PATH=" + filepath.Dir(retrylint) + string(os.PathListSeparator) + os.Getenv("PATH"),
	}
	config := "repos:\n  - repo: " + repo + "\n    rev: " + rev + "\n    hooks:\n      - id: retrylint-system\n        args: [\"-baseline=retrylint-baseline.json\", \"./...\"]\n"
	writeFiles(t, dir, map[string]string{
		"go.mod":                  "module example.com/hooked\n\ngo 1.22\n",
		"svc/svc.go":              violation,
		".pre-commit-config.yaml": config,
	})
	must := func(name string, args ...string) result {
		t.Helper()
		r := run(t, dir, env, name, args...)
		if r.code != 0 {
			t.Fatalf("%s %s: %s", name, strings.Join(args, " "), r)
		}
		return r
	}
	must(retrylint, "-write-baseline", "retrylint-baseline.json", "./...")
	must("git", "init", "-q")
	must("git", "add", "-A")
	must("git", "commit", "-qm", "start, with a finding recorded in the baseline")
	must("pre-commit", "install")

	// Lines above the recorded loop: it moves, and is still recorded.
	writeFiles(t, dir, map[string]string{"svc/svc.go": strings.Replace(violation, "func Fetch(", "// Name is the service's name.\nconst Name = \"svc\"\n\nfunc Fetch(", 1)})
	must("git", "add", "svc/svc.go")
	r := run(t, dir, env, "git", "commit", "-m", "a constant above the recorded loop")
	if out := r.stdout + r.stderr; r.code != 0 || !strings.Contains(out, "Passed") {
		t.Fatalf("commit that moves a recorded finding: want it to pass; %s", r)
	}
	// A new loop: refused, with the new finding only.
	writeFiles(t, dir, map[string]string{"svc/more.go": strings.Replace(strings.Replace(violation, "func Fetch(", "func FetchMore(", 1), "import \"errors\"", "import \"errors\"\n\nvar _ = 0", 1)})
	must("git", "add", "svc/more.go")
	r = run(t, dir, env, "git", "commit", "-m", "a new retry loop")
	out := r.stdout + r.stderr
	if r.code == 0 || !strings.Contains(out, "svc/more.go:8:2: retry loop makes up to 3 attempts") || strings.Contains(out, "svc/svc.go:") || !strings.Contains(out, "1 finding left out") {
		t.Fatalf("commit with a new finding: want it refused with that finding only; %s", r)
	}
	t.Logf("commit with a new finding: exit %d\n%s", r.code, strings.TrimSpace(out))
}

// TestPreCommit installs the hooks of .pre-commit-hooks.yaml in a sample
// repository, with Debian's pre-commit: a commit that adds a retry loop
// without a budget is refused with retrylint's message, a clean one
// passes. Both hooks are tested: retrylint (language golang: pre-commit
// builds retrylint from the hook repository) and retrylint-system (the
// binary on PATH).
func TestPreCommit(t *testing.T) {
	e2e(t)
	_, err := exec.LookPath("pre-commit")
	need(t, err == nil, "pre-commit (apt-get install -y pre-commit)")
	repo, rev := hookRepo(t)
	home := t.TempDir() // pre-commit's cache of hook environments

	for _, hook := range []string{"retrylint", "retrylint-system"} {
		t.Run(hook, func(t *testing.T) {
			dir := t.TempDir()
			env := []string{
				"PRE_COMMIT_HOME=" + home,
				"GIT_AUTHOR_NAME=e2e", "GIT_AUTHOR_EMAIL=e2e@example.com",
				"GIT_COMMITTER_NAME=e2e", "GIT_COMMITTER_EMAIL=e2e@example.com",
				"GOWORK=off",
			}
			if hook == "retrylint-system" {
				env = append(env, "PATH="+filepath.Dir(retrylint)+string(os.PathListSeparator)+os.Getenv("PATH"))
			}
			config := "repos:\n  - repo: " + repo + "\n    rev: " + rev + "\n    hooks:\n      - id: " + hook + "\n"
			writeFiles(t, dir, map[string]string{
				"go.mod":                  "module example.com/hooked\n\ngo 1.22\n",
				"main.go":                 "package main\n\nfunc main() {}\n",
				".pre-commit-config.yaml": config,
			})
			must := func(name string, args ...string) result {
				t.Helper()
				r := run(t, dir, env, name, args...)
				if r.code != 0 {
					t.Fatalf("%s %s: %s", name, strings.Join(args, " "), r)
				}
				return r
			}
			must("git", "init", "-q")
			must("git", "add", "-A")
			must("git", "commit", "-qm", "start")
			must("pre-commit", "install")
			t.Logf(".pre-commit-config.yaml:\n%s", config)

			writeFiles(t, dir, map[string]string{"svc/svc.go": violation})
			must("git", "add", "svc/svc.go")
			r := run(t, dir, env, "git", "commit", "-m", "add a retry loop without a budget")
			out := r.stdout + r.stderr
			if r.code == 0 || !strings.Contains(out, "svc/svc.go:6:2: retry loop makes up to 3 attempts with no retry budget") || !strings.Contains(out, "Failed") {
				t.Fatalf("commit with a violation: want it refused with retrylint's message; %s", r)
			}
			t.Logf("commit with a violation: exit %d after %s\n%s", r.code, r.took.Round(1e6), strings.TrimSpace(out))
			if log := must("git", "log", "--oneline").stdout; strings.Count(log, "\n") != 1 {
				t.Errorf("the refused commit was made:\n%s", log)
			}

			writeFiles(t, dir, map[string]string{"svc/svc.go": fixed})
			must("git", "add", "svc/svc.go")
			r = run(t, dir, env, "git", "commit", "-m", "add a fetch without retries")
			out = r.stdout + r.stderr
			if r.code != 0 || !strings.Contains(out, "Passed") {
				t.Fatalf("clean commit: want it to pass; %s", r)
			}
			t.Logf("clean commit: exit %d after %s\n%s", r.code, r.took.Round(1e6), strings.TrimSpace(out))
		})
	}
}
