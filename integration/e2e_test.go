package integration_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// repoRoot is the absolute path of the checkout; retrylint is the command
// built from it for these tests (only with RETRYLINT_E2E=1).
var (
	repoRoot  string
	retrylint string
)

func TestMain(m *testing.M) {
	childResults() // the child process of TestAnalyzersNoGlobalState
	root, err := filepath.Abs("..")
	if err != nil {
		panic(err)
	}
	repoRoot = root
	code := 0
	if os.Getenv("RETRYLINT_E2E") == "1" || os.Getenv("RETRYLINT_FIXCHECK") == "1" {
		dir, err := os.MkdirTemp("", "retrylint-e2e-")
		if err != nil {
			panic(err)
		}
		retrylint = filepath.Join(dir, "retrylint")
		cmd := exec.Command("go", "build", "-o", retrylint, "./cmd/retrylint")
		cmd.Dir = repoRoot
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building retrylint: %v\n%s", err, out)
			os.Exit(1)
		}
		code = m.Run()
		os.RemoveAll(dir)
	} else {
		code = m.Run()
	}
	os.Exit(code)
}

// e2e skips the test unless end-to-end tests are switched on.
func e2e(t *testing.T) {
	t.Helper()
	if os.Getenv("RETRYLINT_E2E") != "1" {
		t.Skip("end-to-end test: set RETRYLINT_E2E=1 to run it (it needs the Go module proxy and, for some tests, pre-commit and the npm tools that .ci/run installs)")
	}
}

// need skips the test when a tool it needs is missing, or fails it when
// RETRYLINT_E2E_REQUIRE=1 (as in CI, where .ci/run installed the tools).
func need(t *testing.T, ok bool, format string, args ...any) {
	t.Helper()
	if ok {
		return
	}
	msg := fmt.Sprintf(format, args...)
	if os.Getenv("RETRYLINT_E2E_REQUIRE") == "1" {
		t.Fatalf("missing tool (RETRYLINT_E2E_REQUIRE=1): %s", msg)
	}
	t.Skipf("missing tool: %s", msg)
}

// cacheDir returns the directory where slow artefacts persist between runs.
func cacheDir(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("RETRYLINT_E2E_CACHE"); dir != "" {
		return dir
	}
	home, err := os.UserCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(home, "retrylint-ci")
}

// writeFiles writes files (slash-separated names relative to dir).
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// copyDir copies the regular files below from to to.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// result is what a command did.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

func (r result) String() string {
	return fmt.Sprintf("exit %d after %s\nstdout:\n%s\nstderr:\n%s", r.code, r.took.Round(time.Millisecond), r.stdout, r.stderr)
}

// run runs a command in dir with env added to the environment.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	if exit, ok := err.(*exec.ExitError); ok {
		r.code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return r
}

// sampleModule writes the sample module of testdata/sample to a new
// directory: package p has retry loops (one guarded by a method that is a
// budget only when the settings say so, one with a budget in scope) and a
// retry loop in a test file, package q is clean. Its go.mod requires the
// checkout's budget module, which fixes may use.
func sampleModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	copyDir(t, filepath.Join("testdata", "sample"), dir)
	writeFiles(t, dir, map[string]string{"go.mod": "module example.com/sample\n\ngo 1.22\n\n" +
		"require github.com/retrylint/retrylint/budget v0.0.0\n\n" +
		"replace github.com/retrylint/retrylint/budget => " + filepath.Join(repoRoot, "budget") + "\n"})
	return dir
}

// lineOf returns the 1-based number of the line after the first line of
// file (in dir) that contains marker.
func lineAfter(t *testing.T, file, marker string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, marker) {
			return i + 2
		}
	}
	t.Fatalf("%s: no line contains %q", file, marker)
	return 0
}

// goEnv is the environment for go commands in sample modules: outside the
// checkout's go.work.
var goEnv = []string{"GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false"}
