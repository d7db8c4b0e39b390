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

// run runs the command in dir, outside any workspace, and returns its
// stdout, stderr and exit code.
func run(t *testing.T, dir string, args ...string) (string, string, int) {
	t.Helper()
	return runEnv(t, dir, []string{"GOWORK=off", "GOFLAGS=-mod=mod"}, args...)
}

// runEnv is run with the given environment added.
func runEnv(t *testing.T, dir string, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(retrylint, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
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
		pause(ctx)
	}
	return errors.New("gave up")
}

// pause waits a second, or until ctx is done.
func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
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

// budgetModule returns a module that depends on the repository's budget
// module, with one retry loop that has a budget in scope.
func budgetModule(t *testing.T) (dir, file string) {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir = t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + filepath.Join(repo, "budget") + "\n",
		"p/p.go": `package p

import (
	"context"
	"errors"
	"time"

	"github.com/retrylint/retrylint/budget"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

type Service struct {
	orders       *Client
	ordersBudget *budget.Budget
}

func (s *Service) get(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := s.orders.Get(ctx)
		if err == nil {
			return nil
		}
		pause(ctx)
	}
	return errors.New("gave up")
}

// pause waits a second, or until ctx is done.
func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(time.Second):
	}
}
`,
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, filepath.Join(dir, "p", "p.go")
}

func TestFixAndDiff(t *testing.T) {
	dir, file := budgetModule(t)
	before, _ := os.ReadFile(file)

	out, stderr, code := run(t, dir, "-fix", "-diff", "./...")
	if code != 0 || !strings.Contains(out, "+\t\tif i+1 < 3 && !s.ordersBudget.TryRetry() {") || !strings.Contains(out, "+\ts.ordersBudget.OnRequest()") {
		t.Errorf("-fix -diff: exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("-diff changed the file")
	}

	if _, stderr, code := run(t, dir, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d, stderr:\n%s", code, stderr)
	}
	cmd := exec.Command("go", "build", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fixed module does not build: %v\n%s", err, out)
	}
	if _, stderr, code := run(t, dir, "./..."); code != 0 {
		t.Errorf("after -fix: exit %d, want 0 (nothing left to report); stderr:\n%s", code, stderr)
	}
}

func TestFixReadOnly(t *testing.T) {
	dir, file := budgetModule(t)
	before, _ := os.ReadFile(file)
	if err := os.Chmod(file, 0o444); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, dir, "-fix", "./...")
	if code != 1 || !strings.Contains(stderr, "read-only") {
		t.Errorf("-fix on a read-only file: exit %d, want 1 with a clear error; stderr:\n%s", code, stderr)
	}
	if after, _ := os.ReadFile(file); string(after) != string(before) {
		t.Errorf("-fix changed a read-only file")
	}
	entries, _ := os.ReadDir(filepath.Dir(file))
	for _, e := range entries {
		if strings.Contains(e.Name(), "retrylint") {
			t.Errorf("-fix left a temporary file behind: %s", e.Name())
		}
	}
}

func TestSARIF(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": retrying})
	out, stderr, code := run(t, dir, "-sarif", "./...")
	if code != 0 {
		t.Fatalf("-sarif: exit %d; stderr:\n%s", code, stderr)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name  string `json:"name"`
					Rules []struct {
						ID      string `json:"id"`
						HelpURI string `json:"helpUri"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine, StartColumn, EndLine, EndColumn int
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("-sarif output is not JSON: %v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "retrylint" || len(log.Runs[0].Tool.Driver.Rules) == 0 {
		t.Fatalf("-sarif: unexpected log header:\n%s", out)
	}
	res := log.Runs[0].Results
	if len(res) != 1 || res[0].RuleID != "fixedattempts" || len(res[0].Locations) != 1 || len(res[0].PartialFingerprints) == 0 {
		t.Fatalf("-sarif: results = %+v", res)
	}
	loc := res[0].Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "p/p.go" || loc.Region.StartLine != 14 || loc.Region.StartColumn != 2 || loc.Region.EndColumn != 5 {
		t.Errorf("-sarif location = %+v, want p/p.go 14:2-14:5", loc)
	}
}

// TestWorkspace checks the monorepo pattern: at the root of a go.work with
// two modules, ./... analyzes both (the go command rejects ./... there), and
// patterns that match nothing are errors that name them.
func TestWorkspace(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.work":          "go 1.22\n\nuse (\n\t./svc1\n\t./svc2\n)\n",
		"svc1/go.mod":      "module example.com/svc1\n\ngo 1.22\n",
		"svc1/p/p.go":      retrying,
		"svc2/go.mod":      "module example.com/svc2\n\ngo 1.22\n",
		"svc2/p/p.go":      retrying,
		"svc2/q/q.go":      clean,
		"svc2/empty/x.txt": "no Go here\n",
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"GOWORK=", "GOFLAGS=-buildvcs=false"} // GOWORK= finds go.work
	_, stderr, code := runEnv(t, dir, env, "./...")
	if code != 3 || !strings.Contains(stderr, filepath.Join("svc1", "p", "p.go")+":14:2: retry loop") ||
		!strings.Contains(stderr, filepath.Join("svc2", "p", "p.go")+":14:2: retry loop") {
		t.Errorf("./... at the workspace root: exit %d, want 3 with both modules reported; stderr:\n%s", code, stderr)
	}
	// Inside one module, ./... stays in that module.
	_, stderr, code = runEnv(t, filepath.Join(dir, "svc2"), env, "./...")
	if code != 3 || strings.Contains(stderr, "svc1") || !strings.HasPrefix(stderr, filepath.Join("p", "p.go")+":14:2: retry loop") {
		t.Errorf("./... in svc2: exit %d; stderr:\n%s", code, stderr)
	}
	for _, tc := range []struct {
		dir, pattern, want string
	}{
		{".", "./nosuch/...", "pattern ./nosuch/...: "},
		{"svc2", "./nosuch/...", "pattern ./nosuch/...: "},
		{"svc2", "./nosuch", "pattern ./nosuch: "},
		{"svc2", "./empty/...", "pattern ./empty/... matched no packages"},
		{"svc2", "./empty", "pattern ./empty: no Go files"},
		{"svc2", "example.com/svc2/nosuch/...", "pattern example.com/svc2/nosuch/... matched no packages"},
		{"svc2", "example.com/nosuch", "pattern example.com/nosuch: "},
	} {
		// One good pattern does not hide a bad one.
		_, stderr, code := runEnv(t, filepath.Join(dir, tc.dir), env, "./...", tc.pattern)
		if code != 1 || !strings.HasPrefix(stderr, "retrylint: "+tc.want) || strings.Contains(stderr, "retry loop") {
			t.Errorf("in %s, ./... %s: exit %d, want 1 and %q; stderr:\n%s", tc.dir, tc.pattern, code, tc.want, stderr)
		}
	}
}

// A package between two analyzed packages (c imports b imports a, with a
// and c named) is type-checked without function bodies; its loops must not
// be analyzed as if they had types.
func TestPackageBetweenRoots(t *testing.T) {
	dir := module(t, map[string]string{
		"a/a.go": "package a\n\nfunc N() int { return 3 }\n",
		"b/b.go": "package b\n\nimport (\n\t\"context\"\n\t\"time\"\n\n\t\"example.com/m/a\"\n)\n\ntype C struct{}\n\nfunc (C) Get(ctx context.Context) error { return nil }\n\nfunc Get(ctx context.Context, c C, xs []int) error {\n\tfor range a.N() {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\tfor range xs {\n\t}\n\treturn nil\n}\n",
		"c/c.go": "package c\n\nimport \"example.com/m/b\"\n\nvar _ = b.Get\n",
	})
	_, stderr, code := run(t, dir, "./a", "./c")
	if code != 0 || strings.Contains(stderr, "panic") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
	// Named itself, b is analyzed in full.
	if _, stderr, code := run(t, dir, "./b"); code != 3 || !strings.Contains(stderr, "up to a.N() attempts") {
		t.Errorf("./b: exit %d, stderr:\n%s", code, stderr)
	}
}

func TestSyntaxError(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": retrying, "broken/broken.go": "package broken\n\nfunc f( {\n"})
	_, stderr, code := run(t, dir, "./...")
	if code != 1 || !strings.Contains(stderr, "broken.go:3") {
		t.Errorf("syntax error: exit %d, want 1 naming broken.go:3; stderr:\n%s", code, stderr)
	}
	// The other package is still analyzed.
	if !strings.Contains(stderr, "retry loop makes up to 3 attempts") {
		t.Errorf("syntax error in one package hid the others' diagnostics:\n%s", stderr)
	}
}
