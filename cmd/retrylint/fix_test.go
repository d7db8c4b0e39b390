package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fixModule returns a module that depends on the repository's budget
// module, with two files of fixable retry loops (a.go: one, b.go: two) and
// one finding with no fix (a retry loop whose dependency is a function
// value taken from a map, in b.go after the fixed loops).
func fixModule(t *testing.T) string {
	t.Helper()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := module(t, map[string]string{
		"p/a.go": `package p

import (
	"context"
	"errors"
	"time"

	"github.com/retrylint/retrylint/budget"
)

var _ = budget.New

type Store interface{ Put(ctx context.Context) error }

type Service struct{ inventory, payments Store }

func (s *Service) Reserve(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.inventory.Put(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return errors.Join(errors.New("inventory unavailable"), err)
}
`,
		"p/b.go": `package p

import (
	"context"
	"time"
)

func (s *Service) Charge(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.payments.Put(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

func (s *Service) Refund(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = s.payments.Put(ctx); err == nil {
			return nil
		}
	}
	return err
}

var senders = map[string]func(ctx context.Context) error{}

func notify(ctx context.Context) error {
	send := senders["mail"]
	var err error
	for i := 0; i < 3; i++ {
		if err = send(ctx); err == nil {
			return nil
		}
	}
	return err
}
`,
	})
	mod := "module example.com/m\n\ngo 1.22\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + filepath.Join(repo, "budget") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestFixSummary(t *testing.T) {
	dir := fixModule(t)
	_, stderr, code := run(t, dir, "-fixedattempts", "-fix", "./...")
	if code != 3 { // a finding is left
		t.Fatalf("-fix: exit %d, want 3, stderr:\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	want := "retrylint: fixed 3 findings in 2 files; 1 finding has no automatic fix"
	if last := lines[len(lines)-1]; last != want {
		t.Errorf("-fix: last line %q, want %q; stderr:\n%s", last, want, stderr)
	}
	// The finding left is printed as usual, at its line in the fixed file.
	b, _ := os.ReadFile(filepath.Join(dir, "p", "b.go"))
	line := 1 + strings.Count(string(b[:bytes.Index(b, []byte("for i := 0; i < 3; i++ {\n\t\tif err = send"))]), "\n")
	if !strings.HasPrefix(stderr, filepath.Join("p", "b.go")+":"+strconv.Itoa(line)+":2: retry loop makes up to 3 attempts") || len(lines) != 4 || !strings.Contains(lines[2], "\tno fix: the attempts' dependency is not known") {
		t.Errorf("-fix: want the finding with no fix at p/b.go:%d:2, its attempt and why it has no fix, then the summary; stderr:\n%s", line, stderr)
	}
	// Singular, and nothing left.
	dir = fixModule(t)
	os.WriteFile(filepath.Join(dir, "p", "b.go"), []byte("package p\n"), 0o644)
	_, stderr, code = run(t, dir, "-fixedattempts", "-fix", "./...")
	if want := "retrylint: fixed 1 finding in 1 file\n"; code != 0 || stderr != want {
		t.Errorf("-fix: exit %d, stderr %q, want %q", code, stderr, want)
	}
}

// TestDiff checks -diff: alone it shows what -fix -diff shows and writes
// nothing; the diff has paths relative to the current directory and
// applies with git apply and with patch -p1, giving what -fix writes.
func TestDiff(t *testing.T) {
	dir := fixModule(t)
	read := func(dir string) map[string]string {
		out := map[string]string{}
		for _, f := range []string{"a.go", "b.go"} {
			data, err := os.ReadFile(filepath.Join(dir, "p", f))
			if err != nil {
				t.Fatal(err)
			}
			out[f] = string(data)
		}
		return out
	}
	before := read(dir)
	diff, stderr, code := run(t, dir, "-fixedattempts", "-diff", "./...")
	if code != 3 || !strings.HasPrefix(diff, "--- a/p/a.go\n+++ b/p/a.go\n@@ ") || !strings.Contains(diff, "\n--- a/p/b.go\n+++ b/p/b.go\n") {
		t.Fatalf("-diff: exit %d, stdout:\n%s\nstderr:\n%s", code, diff, stderr)
	}
	if want := "retrylint: the diff fixes 3 findings in 2 files; 1 finding has no automatic fix\n"; !strings.HasSuffix(stderr, want) {
		t.Errorf("-diff: stderr %q, want it to end with %q", stderr, want)
	}
	// Deletions come before insertions in a hunk.
	if strings.Contains(diff, "+\t\t}\n-") {
		t.Errorf("-diff: an insertion before a deletion:\n%s", diff)
	}
	fixDiff, _, _ := run(t, dir, "-fixedattempts", "-fix", "-diff", "./...")
	if fixDiff != diff {
		t.Errorf("-diff and -fix -diff differ:\n%s\n---\n%s", diff, fixDiff)
	}
	if !equalMaps(read(dir), before) {
		t.Fatal("-diff changed a file")
	}
	// What -fix writes, in a copy.
	fixed := copyModule(t, dir)
	if _, stderr, code := run(t, fixed, "-fixedattempts", "-fix", "./..."); code != 3 {
		t.Fatalf("-fix: exit %d\n%s", code, stderr)
	}
	want := read(fixed)
	for _, tool := range [][]string{{"git", "apply"}, {"patch", "-p1"}} {
		if _, err := exec.LookPath(tool[0]); err != nil {
			t.Errorf("%s is not installed (.ci/run installs it)", tool[0])
			continue
		}
		c := copyModule(t, dir)
		cmd := exec.Command(tool[0], tool[1:]...)
		cmd.Dir = c
		cmd.Stdin = strings.NewReader(diff)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", strings.Join(tool, " "), err, out)
			continue
		}
		if got := read(c); !equalMaps(got, want) {
			t.Errorf("%s: the patched files differ from what -fix writes:\n%s", strings.Join(tool, " "), got["a.go"])
		}
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// copyModule copies a module directory (files one level below it too).
func copyModule(t *testing.T, dir string) string {
	t.Helper()
	out := t.TempDir()
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(out, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, rel), data, info.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestFixAllOrNothing checks that -fix changes every file or none: a
// read-only file sorted after a writable one leaves both as they were,
// with one clear error and no temporary file behind.
func TestFixAllOrNothing(t *testing.T) {
	dir := fixModule(t)
	a, b := filepath.Join(dir, "p", "a.go"), filepath.Join(dir, "p", "b.go")
	beforeA, _ := os.ReadFile(a)
	beforeB, _ := os.ReadFile(b)
	if err := os.Chmod(b, 0o444); err != nil {
		t.Fatal(err)
	}
	_, stderr, code := run(t, dir, "-fixedattempts", "-fix", "./...")
	want := "retrylint: -fix: " + filepath.Join("p", "b.go") + ": file is read-only; no file was changed\n"
	if code != 1 || stderr != want {
		t.Errorf("-fix with a read-only file: exit %d, stderr %q, want exit 1 and %q", code, stderr, want)
	}
	if afterA, _ := os.ReadFile(a); !bytes.Equal(afterA, beforeA) {
		t.Error("-fix rewrote a.go although b.go could not be written")
	}
	if afterB, _ := os.ReadFile(b); !bytes.Equal(afterB, beforeB) {
		t.Error("-fix changed the read-only b.go")
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "p"))
	for _, e := range entries {
		if strings.Contains(e.Name(), "retrylint") {
			t.Errorf("-fix left a temporary file behind: %s", e.Name())
		}
	}
}

// TestREADMEAfter checks the README's "Before and after": -fix turns its
// Before loop, in a service that holds a budget for inventory, into its
// After loop; the same loop on payments gets a budget of its own; and a
// second run reports nothing (no shared budget, no unguarded retry).
func TestREADMEAfter(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := func(marker string) []string {
		_, rest, ok := strings.Cut(string(readme), "```go\n"+marker)
		if !ok {
			t.Fatalf("README.md has no Go block starting %q", marker)
		}
		code, _, _ := strings.Cut(rest, "```")
		lines := strings.Split(strings.TrimSpace(code), "\n")
		return lines[1:] // without the comment line
	}
	before, after := block("// Before"), block("// After")
	indent := func(lines []string) string { return "\t" + strings.Join(lines, "\n\t") + "\n" }
	payments := strings.NewReplacer("inventory.Reserve", "payments.Charge").Replace(indent(before))
	dir := fixModule(t)
	os.Remove(filepath.Join(dir, "p", "a.go"))
	os.Remove(filepath.Join(dir, "p", "b.go"))
	src := `package p

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/retrylint/retrylint/budget"
)

type Inventory interface{ Reserve(ctx context.Context, item string) error }

type Payments interface{ Charge(ctx context.Context, item string) error }

type Service struct {
	inventory       Inventory
	payments        Payments
	inventoryBudget *budget.Budget
}

func backoff(i int) time.Duration { return rand.N(time.Duration(1<<i) * time.Millisecond) }

func (s *Service) Reserve(ctx context.Context, item string) error {
	var err error
` + indent(before) + `	return err
}

func (s *Service) Charge(ctx context.Context, item string) error {
	var err error
` + payments + `	return err
}
`
	file := filepath.Join(dir, "p", "p.go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := run(t, dir, "-fix", "./..."); code != 0 {
		t.Fatalf("-fix: exit %d\n%s", code, stderr)
	}
	fixed, _ := os.ReadFile(file)
	if !strings.Contains(string(fixed), indent(after)) {
		t.Errorf("-fix does not write the README's After:\n%s\nwant:\n%s", fixed, indent(after))
	}
	if !strings.Contains(string(fixed), "\tpaymentsBudget.OnRequest()\n") || strings.Count(string(fixed), "s.inventoryBudget.TryRetry()") != 1 {
		t.Errorf("-fix: the payments loop does not get a budget of its own:\n%s", fixed)
	}
	if _, stderr, code := run(t, dir, "./..."); code != 0 {
		t.Errorf("after -fix: exit %d, want nothing reported:\n%s", code, stderr)
	}
}

// TestFixComposes: one retry loop that gets the fixes of four passes
// (fixedattempts' budget, nonidempotent's key, nojitter's jitter and
// blindsleep's select, the last two on the same time.Sleep) is fixed in
// one run, and the result builds: crypto/rand's Text and math/rand/v2's N
// are imported under two names. The fixed code then behaves (the test
// file below runs it against an always-503 server): it fails with an
// error, sends every attempt with one key, asks the budget, and returns
// at once when its context is cancelled. The same test fails on the code
// before the fix (no key).
func TestFixComposes(t *testing.T) {
	dir := fixModule(t)
	os.Remove(filepath.Join(dir, "p", "a.go"))
	os.Remove(filepath.Join(dir, "p", "b.go"))
	mod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
	files := map[string]string{
		"go.mod": strings.Replace(string(mod), "go 1.22", "go 1.24", 1), // crypto/rand.Text
		"p/pay.go": `package p

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"
)

type Client struct {
	hc   *http.Client
	base string
}

func (c *Client) Charge(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charge", bytes.NewReader(body))
		if err != nil {
			return err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("charge failed")
}
`,
		"p/pay_test.go": `package p

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

func TestCharge(t *testing.T) {
	var mu sync.Mutex
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		keys = append(keys, r.Header.Get("Idempotency-Key"))
		mu.Unlock()
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	c := &Client{hc: srv.Client(), base: srv.URL}
	if err := c.Charge(context.Background(), []byte("{}")); err == nil {
		t.Fatal("Charge against an always-503 server returned nil")
	}
	if len(keys) == 0 || len(keys) > 3 {
		t.Fatalf("%d attempts, want 1 to 3", len(keys))
	}
	for _, k := range keys {
		if k == "" || k != keys[0] {
			t.Fatalf("the attempts' idempotency keys differ or are missing: %q", keys)
		}
	}
	// A cancelled request stops waiting at once.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	c.Charge(ctx, []byte("{}"))
	if d := time.Since(start); d > 50*time.Millisecond {
		t.Errorf("Charge with a cancelled context took %v", d)
	}
}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gotest := func() (string, error) {
		cmd := exec.Command("go", "test", "-count=1", "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := gotest(); err == nil {
		t.Fatalf("the behaviour test passes before the fix:\n%s", out)
	}
	_, stderr, code := run(t, dir, "-fix", "-fixedattempts.budget-module", "./...")
	if code != 0 {
		t.Fatalf("-fix: exit %d, want 0 (every finding fixed), stderr:\n%s", code, stderr)
	}
	if want := "retrylint: fixed 4 findings in 1 file\n"; stderr != want {
		t.Errorf("-fix: stderr %q, want %q", stderr, want)
	}
	fixed, _ := os.ReadFile(filepath.Join(dir, "p", "pay.go"))
	for _, want := range []string{"\tcrand \"crypto/rand\"\n", "\t\"math/rand/v2\"\n", "idempotencyKey := crand.Text()\n",
		"case <-time.After(rand.N(100 * time.Millisecond)):", ".TryRetry() {", "case <-ctx.Done():"} {
		if !strings.Contains(string(fixed), want) {
			t.Errorf("the fixed file lacks %q:\n%s", want, fixed)
		}
	}
	if out, err := gotest(); err != nil {
		t.Fatalf("the fixed code does not build or behave:\n%s\n%s", out, fixed)
	}
	if _, stderr, code := run(t, dir, "./..."); code != 0 {
		t.Errorf("after -fix: exit %d, want nothing reported:\n%s", code, stderr)
	}
}

// TestFixHelperTestCalls checks the fix of a retry helper that a test file
// calls, when the analysis does not see test files (-test=false): the
// helper gets an optional budget parameter, which the test's call leaves
// out, so the test still compiles; a test that uses the helper as a value
// leaves it with no fix and the reason.
func TestFixHelperTestCalls(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	src := `package p

import (
	"context"
	"time"
)

type Store interface{ Put(ctx context.Context) error }

type Service struct{ inventory Store }

func retry(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

func (s *Service) Reserve(ctx context.Context) error {
	return retry(ctx, s.inventory.Put)
}
`
	mod := "module example.com/m\n\ngo 1.22\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + filepath.Join(repo, "budget") + "\n"
	for _, tc := range []struct {
		name, test string
		fixed      bool
	}{
		{"calls", "package p\n\nimport (\n\t\"context\"\n\t\"testing\"\n)\n\nfunc TestRetry(t *testing.T) {\n\tif err := retry(context.Background(), func(context.Context) error { return nil }); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n", true},
		{"value", "package p\n\nimport (\n\t\"context\"\n\t\"testing\"\n)\n\nvar helper func(context.Context, func(context.Context) error) error = retry\n\nfunc TestRetry(t *testing.T) {\n\tif err := helper(context.Background(), func(context.Context) error { return nil }); err != nil {\n\t\tt.Fatal(err)\n\t}\n}\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := module(t, map[string]string{"p/p.go": src, "p/p_test.go": tc.test})
			if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
				t.Fatal(err)
			}
			_, stderr, code := run(t, dir, "-fixedattempts", "-fixedattempts.budget-module", "-test=false", "-fix", "./...")
			b, _ := os.ReadFile(filepath.Join(dir, "p", "p.go"))
			if !tc.fixed {
				if code != 3 || string(b) != src || !strings.Contains(stderr, "no fix: a test file that this analysis of the package does not see uses the retry helper") {
					t.Fatalf("-fix: exit %d, want 3, the file unchanged and the reason; stderr:\n%s\nfile:\n%s", code, stderr, b)
				}
				return
			}
			if code != 0 || !strings.Contains(string(b), "func retry(ctx context.Context, op func(context.Context) error, retryBudget ...*budget.Budget) error {") ||
				!strings.Contains(string(b), "return retry(ctx, s.inventory.Put, inventoryBudget)") {
				t.Fatalf("-fix: exit %d, want 0 and an optional budget parameter that Reserve fills; stderr:\n%s\nfile:\n%s", code, stderr, b)
			}
			cmd := exec.Command("go", "test", "./...")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go test of the fixed module: %v\n%s", err, out)
			}
		})
	}
}
