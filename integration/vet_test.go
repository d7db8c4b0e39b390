package integration_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGoVet runs retrylint as go vet's analysis tool on the sample module:
// diagnostics and exit status, pass flags, and the go command's cache.
func TestGoVet(t *testing.T) {
	e2e(t)
	dir := sampleModule(t)
	// A nonce in p.go, so that the first run cannot be served from a cache
	// filled by an earlier run of this test.
	f, err := os.OpenFile(filepath.Join(dir, "p", "p.go"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "\n// nonce %d\n", time.Now().UnixNano())
	f.Close()

	p := filepath.Join(dir, "p", "p.go")
	lineGet := lineAfter(t, p, "func get(")
	lineRationed := lineAfter(t, p, "func getRationed(")
	lineTest := lineAfter(t, filepath.Join(dir, "p", "p_test.go"), "var err error")
	diag := func(file string, line, attempts int) string {
		return fmt.Sprintf("%s:%d:2: retry loop makes up to %d attempts with no retry budget", file, line, attempts)
	}
	vettool := "-vettool=" + retrylint // an absolute path

	// -x prints each command the go command runs, so the output shows
	// whether retrylint ran or its result came from the cache.
	invocations := func(r result) int { return strings.Count(r.stderr, retrylint+" ") }
	first := run(t, dir, goEnv, "go", "vet", "-x", vettool, "./...")
	if first.code != 1 {
		t.Errorf("first go vet: exit %d, want 1 (diagnostics)\n%s", first.code, first)
	}
	for _, want := range []string{diag("p/p.go", lineGet, 3), diag("p/p.go", lineRationed, 3), diag("p/p_test.go", lineTest, 5)} {
		if !strings.Contains(first.stderr, want) {
			t.Errorf("first go vet: no %q in\n%s", want, first.stderr)
		}
	}
	if invocations(first) == 0 {
		t.Errorf("first go vet did not run retrylint:\n%s", first.stderr)
	}
	second := run(t, dir, goEnv, "go", "vet", "-x", vettool, "./...")
	if second.code != 1 || !strings.Contains(second.stderr, diag("p/p.go", lineGet, 3)) {
		t.Errorf("second go vet: exit %d, want 1 with the same diagnostics\n%s", second.code, second)
	}
	if n := invocations(second); n != 0 {
		t.Errorf("second go vet ran retrylint %d times, want every result from the build cache:\n%s", n, second.stderr)
	}
	t.Logf("go vet -vettool: first run %s (%d retrylint runs), second %s (%d, from the build cache)",
		first.took.Round(time.Millisecond), invocations(first), second.took.Round(time.Millisecond), invocations(second))

	// Pass flags: a lifted shared setting, a pass switched off, a bad flag.
	r := run(t, dir, goEnv, "go", "vet", vettool, "-retrysite.budget-methods=Ration,TryRetry", "./p")
	if r.code != 1 || strings.Contains(r.stderr, diag("p/p.go", lineRationed, 3)) || !strings.Contains(r.stderr, diag("p/p.go", lineGet, 3)) {
		t.Errorf("-retrysite.budget-methods=Ration,TryRetry: want getRationed guarded, get reported; %s", r)
	}
	r = run(t, dir, goEnv, "go", "vet", vettool, "-fixedattempts=false", "./...")
	if r.code != 0 || strings.Contains(r.stderr, "retry loop") {
		t.Errorf("-fixedattempts=false: want exit 0 and no diagnostics; %s", r)
	}
	r = run(t, dir, goEnv, "go", "vet", vettool, "-fixedattempts.no-such-flag", "./...")
	if r.code == 0 || !strings.Contains(r.stderr, "no-such-flag") {
		t.Errorf("unknown flag: want an error naming it; %s", r)
	}
	r = run(t, dir, goEnv, "go", "vet", vettool, "./q")
	if r.code != 0 || r.stderr != "" {
		t.Errorf("clean package: want exit 0 and no output; %s", r)
	}
}
