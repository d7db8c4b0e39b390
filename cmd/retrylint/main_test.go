package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// retrylint is the command built once for these tests.
var retrylint string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "retrylint-cmd-")
	if err != nil {
		panic(err)
	}
	retrylint = filepath.Join(dir, "retrylint")
	out, err := exec.Command("go", "build", "-o", retrylint, ".").CombinedOutput()
	if err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// module writes a module with the given files to a new directory.
func module(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["go.mod"] = "module example.com/m\n\ngo 1.22\n"
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// run runs the command in dir and returns its stdout, stderr and exit code.
func run(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(retrylint, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String(), stderr.String(), code
}

const retrying = `package p

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

func get(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
`

const clean = `package q

func add(a, b int) int { return a + b }
`

func TestJSONAndExitStatus(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": retrying, "q/q.go": clean})

	out, stderr, code := run(t, dir, "./...")
	if code != 3 {
		t.Errorf("plain run: exit %d, want 3 (diagnostics); stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "p.go:14:2: retry loop makes up to 3 attempts with no retry budget") {
		t.Errorf("plain run: diagnostic missing from stderr:\n%s%s", out, stderr)
	}

	out, stderr, code = run(t, dir, "-json", "./...")
	if code != 0 {
		t.Errorf("-json run: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	// {"pkg": {"analyzer": [{"posn": ..., "message": ...}]}}
	var tree map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &tree); err != nil {
		t.Fatalf("-json output is not JSON: %v\n%s", err, out)
	}
	var diags []struct {
		Posn     string `json:"posn"`
		Message  string `json:"message"`
		Category string `json:"category"`
	}
	if err := json.Unmarshal(tree["example.com/m/p"]["fixedattempts"], &diags); err != nil {
		t.Fatalf("no fixedattempts diagnostics for example.com/m/p: %v\n%s", err, out)
	}
	if len(diags) != 1 || !strings.HasSuffix(diags[0].Posn, "p.go:14:2") || diags[0].Category != "fixed_attempts" {
		t.Errorf("-json diagnostics = %+v, want one fixed_attempts at p.go:14:2", diags)
	}
	if _, ok := tree["example.com/m/q"]; ok {
		t.Errorf("-json reports the clean package q:\n%s", out)
	}

	// A clean package exits 0; a pass switched off reports nothing.
	if _, stderr, code := run(t, dir, "./q"); code != 0 {
		t.Errorf("clean run: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, "-fixedattempts=false", "./p"); code != 0 || strings.Contains(stderr, "retry loop") {
		t.Errorf("-fixedattempts=false: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestSharedFlags(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": strings.Replace(retrying,
		"if err := c.Get(ctx); err == nil {", "if err := c.Get(ctx); err == nil || !c.Ration() {", 1) +
		"\nfunc (c *Client) Ration() bool { return true }\n"})
	// Ration is not a budget method by default: the loop is reported.
	if _, stderr, code := run(t, dir, "./..."); code != 3 {
		t.Errorf("default methods: exit %d, want 3; stderr:\n%s", code, stderr)
	}
	// Named as one, the loop is guarded.
	if _, stderr, code := run(t, dir, "-retrysite.budget-methods=Ration", "./..."); code != 0 {
		t.Errorf("-retrysite.budget-methods=Ration: exit %d, want 0; stderr:\n%s", code, stderr)
	}
}

func TestBadInput(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": retrying, "bad/bad.go": "package bad\n\nfunc f() int { return \"x\" }\n"})
	if _, stderr, code := run(t, dir, "-no-such-flag", "./..."); code == 0 || !strings.Contains(stderr, "no-such-flag") {
		t.Errorf("unknown flag: exit %d, stderr:\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, "./bad"); code != 1 || !strings.Contains(stderr, "bad.go") {
		t.Errorf("type error: exit %d, want 1; stderr:\n%s", code, stderr)
	}
}

func TestExample(t *testing.T) {
	_, stderr, code := run(t, t.TempDir())
	if code != 0 || !strings.Contains(stderr, "checkout.go") || !strings.Contains(stderr, "up to 3 attempts") {
		t.Errorf("built-in example: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestVetTool(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": retrying})
	cmd := exec.Command("go", "vet", "-vettool="+retrylint, "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "retry loop makes up to 3 attempts") {
		t.Errorf("go vet -vettool: err %v, output:\n%s", err, out)
	}
}
