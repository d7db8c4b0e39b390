package integration_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// The custom golangci-lint binary is built once per test process.
var gcl struct {
	once sync.Once
	path string
	err  string
}

// customGCL returns a golangci-lint v2.15.0 binary with the retrylint
// plugin, built from the main module in testdata/custom-gcl (a copy of
// golangci-lint's main with a blank import of gclplugin) with its replace
// directive pointed at this checkout. The binary is cached under the cache
// directory, keyed by everything it is built from.
func customGCL(t *testing.T) string {
	t.Helper()
	gcl.once.Do(func() { gcl.path, gcl.err = buildGCL(t) })
	if gcl.err != "" {
		t.Fatal(gcl.err)
	}
	return gcl.path
}

func buildGCL(t *testing.T) (string, string) {
	key, err := sourceKey()
	if err != nil {
		return "", err.Error()
	}
	parent := filepath.Join(cacheDir(t), "custom-gcl")
	bin := filepath.Join(parent, key, "custom-gcl")
	if _, err := os.Stat(bin); err == nil {
		t.Logf("custom golangci-lint: cached %s", bin)
		return bin, ""
	}
	src := t.TempDir()
	copyDir(t, filepath.Join("testdata", "custom-gcl"), src)
	env := []string{"GOWORK=off", "GOFLAGS=-mod=mod -buildvcs=false"}
	if r := run(t, src, env, "go", "mod", "edit", "-replace", "github.com/retrylint/retrylint="+repoRoot); r.code != 0 {
		return "", "go mod edit: " + r.String()
	}
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		return "", err.Error()
	}
	start := time.Now()
	r := run(t, src, env, "go", "build", "-ldflags=-s -w", "-o", bin+".tmp", ".")
	if r.code != 0 {
		return "", "building the custom golangci-lint: " + r.String()
	}
	if err := os.Rename(bin+".tmp", bin); err != nil {
		return "", err.Error()
	}
	t.Logf("custom golangci-lint: built %s in %s", bin, time.Since(start).Round(100*time.Millisecond))
	// Keep only this build.
	entries, _ := os.ReadDir(parent)
	for _, e := range entries {
		if e.Name() != key {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
	return bin, ""
}

// sourceKey hashes what the custom golangci-lint is built from: the Go
// version, the main module template, and the checkout's go.mod, go.sum and
// non-test Go files (the budget module and the tests are not built in).
func sourceKey() (string, error) {
	h := sha256.New()
	h.Write([]byte(runtime.Version() + "\n"))
	var files []string
	for _, name := range []string{"go.mod", "go.sum", "main.go"} {
		files = append(files, filepath.Join(repoRoot, "integration", "testdata", "custom-gcl", name))
	}
	files = append(files, filepath.Join(repoRoot, "go.mod"), filepath.Join(repoRoot, "go.sum"))
	err := filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, path)
		if d.IsDir() {
			switch {
			case rel == "budget", rel == "integration", d.Name() == "testdata", strings.HasPrefix(d.Name(), ".") && rel != ".":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") || strings.HasSuffix(path, ".txt") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return "", err
		}
		h.Write([]byte(f + "\n"))
		h.Write(data)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// gclIssue is an issue in golangci-lint's JSON output.
type gclIssue struct {
	FromLinter string
	Text       string
	Pos        struct {
		Filename     string
		Line, Column int
	}
	SuggestedFixes []struct {
		Message string
	}
}

// gclRun runs the custom golangci-lint in the sample module dir with the
// given config file and extra arguments, writing JSON and SARIF reports
// besides the text output, and returns the result and the JSON issues.
func gclRun(t *testing.T, dir, config string, args ...string) (result, []gclIssue, string) {
	t.Helper()
	jsonPath := filepath.Join(t.TempDir(), "report.json")
	sarifPath := filepath.Join(t.TempDir(), "report.sarif.json")
	all := append([]string{"run", "-c", config,
		"--output.text.path=stdout", "--output.json.path=" + jsonPath, "--output.sarif.path=" + sarifPath}, args...)
	all = append(all, "./...")
	env := append([]string{"GOLANGCI_LINT_CACHE=" + t.TempDir()}, goEnv...)
	r := run(t, dir, env, customGCL(t), all...)
	var report struct{ Issues []gclIssue }
	if data, err := os.ReadFile(jsonPath); err == nil {
		if err := json.Unmarshal(data, &report); err != nil {
			t.Fatalf("golangci-lint JSON report: %v\n%s", err, data)
		}
	}
	return r, report.Issues, sarifPath
}

// positions lists issues as file:line:col text, sorted.
func positions(issues []gclIssue) []string {
	var out []string
	for _, is := range issues {
		out = append(out, is.Pos.Filename+":"+itoa(is.Pos.Line)+":"+itoa(is.Pos.Column)+" "+is.FromLinter+": "+is.Text)
	}
	sort.Strings(out)
	return out
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestGolangciLint(t *testing.T) {
	e2e(t)
	dir := sampleModule(t)
	copyDir(t, filepath.Join("testdata", "golangci"), dir) // .golangci.yml as the README shows it
	p, ptest := filepath.Join(dir, "p", "p.go"), filepath.Join(dir, "p", "p_test.go")
	lineGet := lineAfter(t, p, "func get(")
	lineRationed := lineAfter(t, p, "func getRationed(")
	lineOrders := lineAfter(t, p, "func (s *Service) getOrders(")
	lineTest := lineAfter(t, ptest, "var err error")
	msg3 := "fixedattempts: retry loop makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load"
	want := []string{
		"p/p.go:" + itoa(lineGet) + ":2 retrylint: " + msg3,
		"p/p.go:" + itoa(lineRationed) + ":2 retrylint: " + msg3,
		"p/p.go:" + itoa(lineOrders) + ":2 retrylint: " + msg3,
		"p/p_test.go:" + itoa(lineTest) + ":2 retrylint: fixedattempts: retry loop makes up to 5 attempts with no retry budget: a failing dependency gets 5× its load",
	}
	sort.Strings(want)

	gclBin := customGCL(t)
	t.Run("linters", func(t *testing.T) {
		r := run(t, dir, goEnv, gclBin, "linters", "-c", ".golangci.yml")
		if r.code != 0 || !strings.Contains(r.stdout, "retrylint") {
			t.Errorf("golangci-lint linters: %s", r)
		}
	})

	t.Run("documented config", func(t *testing.T) {
		r, issues, sarifPath := gclRun(t, dir, ".golangci.yml")
		if r.code != 1 {
			t.Errorf("exit %d, want 1 (issues found)\n%s", r.code, r)
		}
		if got := positions(issues); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("JSON issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		for _, w := range want {
			// Text output: p/p.go:22:2: fixedattempts: ... (retrylint)
			file, rest, _ := strings.Cut(w, " retrylint: ")
			if !strings.Contains(r.stdout, file+": "+rest+" (retrylint)") {
				t.Errorf("text output lacks %q:\n%s", file+": "+rest+" (retrylint)", r.stdout)
			}
		}
		for _, is := range issues {
			if is.Pos.Filename == "p/p.go" && is.Pos.Line == lineOrders && len(is.SuggestedFixes) != 1 {
				t.Errorf("getOrders issue carries %d fixes, want 1", len(is.SuggestedFixes))
			}
		}
		t.Logf("golangci-lint run: exit %d in %s; text output:\n%s", r.code, r.took.Round(time.Millisecond), r.stdout)
		// The SARIF report carries the same issues under the linter name.
		data, err := os.ReadFile(sarifPath)
		if err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					RuleID    string
					Message   struct{ Text string }
					Locations []struct {
						PhysicalLocation struct {
							ArtifactLocation struct{ URI string }
							Region           struct{ StartLine, StartColumn int }
						}
					}
				}
			}
		}
		if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
			t.Fatalf("golangci-lint SARIF: %v\n%s", err, data)
		}
		var got []string
		for _, res := range log.Runs[0].Results {
			loc := res.Locations[0].PhysicalLocation
			got = append(got, loc.ArtifactLocation.URI+":"+itoa(loc.Region.StartLine)+":"+itoa(loc.Region.StartColumn)+" "+res.RuleID+": "+res.Message.Text)
		}
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("SARIF results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		validateSARIF(t, sarifPath, false)
	})

	// Two passes that report on one line both show: the documented
	// configuration sets uniq-by-line: false, without which golangci-lint
	// keeps one issue per line (nojitter and blindsleep on one time.Sleep,
	// fixedattempts and nestedretry on one for).
	t.Run("every finding", func(t *testing.T) {
		everyDir := sampleModule(t)
		copyDir(t, filepath.Join("testdata", "golangci"), everyDir)
		writeFiles(t, everyDir, map[string]string{"w/w.go": `package w

import (
	"context"
	"time"
)

type Store struct{}

func (s *Store) Get(ctx context.Context) error { return nil }

type Client struct{ store *Store }

func (c *Client) inner(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.store.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *Client) Outer(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.inner(ctx); err == nil {
			return nil
		}
	}
	return err
}
`})
		var want []string
		perLine := map[string]int{}
		for _, d := range lintJSON(t, everyDir, "./w/...") {
			at := filepath.ToSlash(d.file) + ":" + itoa(d.line)
			want = append(want, at+" "+d.pass+": "+d.message)
			perLine[at]++
		}
		shared := 0
		for _, n := range perLine {
			if n > 1 {
				shared++
			}
		}
		if shared < 2 {
			t.Fatalf("retrylint reports %d lines with two findings, want 2 (a wait and a for): %q", shared, want)
		}
		_, issues, _ := gclRun(t, everyDir, ".golangci.yml")
		var got []string
		for _, is := range issues {
			if strings.HasPrefix(is.Pos.Filename, "w/") {
				got = append(got, is.Pos.Filename+":"+itoa(is.Pos.Line)+" "+is.Text)
			}
		}
		sort.Strings(want)
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("golangci-lint shows %d of retrylint's %d findings:\n%s\nwant:\n%s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	})

	t.Run("settings change the result", func(t *testing.T) {
		writeFiles(t, dir, map[string]string{"settings.yml": strings.Replace(readFile(t, filepath.Join(dir, ".golangci.yml")),
			"          tests: true ", "          budget-methods: [Ration, TryRetry]\n          tests: false", 1)})
		_, issues, _ := gclRun(t, dir, "settings.yml")
		// Ration is now a budget method, and test files are not reported.
		wantHere := []string{want[0], want[2]}
		if got := positions(issues); strings.Join(got, "\n") != strings.Join(wantHere, "\n") {
			t.Errorf("budget-methods [Ration, TryRetry], tests false:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantHere, "\n"))
		}

		writeFiles(t, dir, map[string]string{"disabled.yml": strings.Replace(readFile(t, filepath.Join(dir, ".golangci.yml")),
			"# disable: [fixedattempts]", "disable: [fixedattempts] ", 1)})
		r, issues, _ := gclRun(t, dir, "disabled.yml")
		if r.code != 0 || len(issues) != 0 {
			t.Errorf("disable [fixedattempts]: %d issues, %s", len(issues), r)
		}
	})

	t.Run("directives", func(t *testing.T) {
		dirDir := sampleModule(t)
		copyDir(t, filepath.Join("testdata", "golangci"), dirDir)
		writeFiles(t, dirDir, map[string]string{"q/directives.go": `package q

import "errors"

func spaced(get func() error) error {
	// nolint:retrylint // golangci-lint's form with a space: silenced
	for i := 0; i < 3; i++ {
		if get() == nil {
			return nil
		}
	}
	//lint:ignore fixedattempts
	for i := 0; i < 3; i++ {
		if get() == nil {
			return nil
		}
	}
	//lint:ignore fixedattempts nothing below is retried
	return errors.New("gave up")
}
`})
		_, issues, _ := gclRun(t, dirDir, ".golangci.yml")
		var got []string
		for _, is := range issues {
			if strings.HasPrefix(is.Pos.Filename, "q/") {
				got = append(got, is.Pos.Filename+":"+itoa(is.Pos.Line)+" "+is.Text)
			}
		}
		sort.Strings(got)
		wantHere := []string{
			"q/directives.go:12 directives: //lint:ignore fixedattempts gives no reason, so it silences nothing: say why after the pass name",
			"q/directives.go:13 fixedattempts: retry loop makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load",
			"q/directives.go:18 directives: //lint:ignore fixedattempts silences nothing: no fixedattempts diagnostic in the line or statement below it; remove it",
		}
		if strings.Join(got, "\n") != strings.Join(wantHere, "\n") {
			t.Errorf("issues in q:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantHere, "\n"))
		}
	})

	t.Run("bad settings", func(t *testing.T) {
		for name, repl := range map[string][2]string{
			"unknown key":  {"tests: true", "test: true"},
			"wrong type":   {"tests: true", "tests: [yes]"},
			"no such pass": {"# disable: [fixedattempts]", "disable: [nosuch]"},
		} {
			writeFiles(t, dir, map[string]string{"bad.yml": strings.Replace(readFile(t, filepath.Join(dir, ".golangci.yml")), repl[0], repl[1], 1)})
			r, _, _ := gclRun(t, dir, "bad.yml")
			if r.code == 0 || r.code == 1 || !strings.Contains(r.stderr+r.stdout, "plugin(retrylint)") {
				t.Errorf("%s: want a configuration error naming the plugin; %s", name, r)
			} else {
				t.Logf("%s: exit %d: %s", name, r.code, strings.TrimSpace(r.stderr))
			}
		}
	})

	// The fixes of four passes on one loop (a budget, an idempotency key,
	// jitter and a select, the last two on one time.Sleep) are applied
	// together by golangci-lint, which takes every edit of a file at once
	// and skips a linter's edits when two of them overlap: the passes'
	// edits stay apart, and the result builds.
	t.Run("fixes compose", func(t *testing.T) {
		fixDir := sampleModule(t)
		copyDir(t, filepath.Join("testdata", "golangci"), fixDir)
		conf := strings.Replace(readFile(t, filepath.Join(fixDir, ".golangci.yml")), "# budget-module: true", "budget-module: true", 1)
		mod := strings.Replace(readFile(t, filepath.Join(fixDir, "go.mod")), "go 1.22", "go 1.24", 1)
		writeFiles(t, fixDir, map[string]string{"compose.yml": conf, "go.mod": mod, "pay/pay.go": composeSrc})
		r, _, _ := gclRun(t, fixDir, "compose.yml", "--fix")
		t.Logf("golangci-lint run --fix: exit %d", r.code)
		if strings.Contains(r.stderr, "conflict") || strings.Contains(r.stderr, "skipped") {
			t.Errorf("golangci-lint skipped edits:\n%s", r.stderr)
		}
		fixed := readFile(t, filepath.Join(fixDir, "pay", "pay.go"))
		for _, want := range []string{"crand.Text()", "case <-time.After(rand.N(100 * time.Millisecond)):", ".TryRetry() {", "case <-ctx.Done():"} {
			if !strings.Contains(fixed, want) {
				t.Errorf("--fix: pay.go lacks %q:\n%s", want, fixed)
			}
		}
		if b := run(t, fixDir, goEnv, "go", "vet", "./pay/"); b.code != 0 {
			t.Fatalf("the fixed package does not build: %s\n%s", b, fixed)
		}
		if _, issues, _ := gclRun(t, fixDir, "compose.yml"); len(issuesIn(issues, "pay/")) != 0 {
			t.Errorf("after --fix, issues in pay:\n%s", strings.Join(positions(issuesIn(issues, "pay/")), "\n"))
		}
	})

	t.Run("fix", func(t *testing.T) {
		fixDir := sampleModule(t)
		copyDir(t, filepath.Join("testdata", "golangci"), fixDir)
		r, _, _ := gclRun(t, fixDir, ".golangci.yml", "--fix")
		t.Logf("golangci-lint run --fix: exit %d", r.code)
		fixed := readFile(t, filepath.Join(fixDir, "p", "p.go"))
		if !strings.Contains(fixed, "!s.ordersBudget.TryRetry() {") || !strings.Contains(fixed, "s.ordersBudget.OnRequest()") {
			t.Errorf("--fix did not guard getOrders with s.ordersBudget:\n%s", fixed)
		}
		if b := run(t, fixDir, goEnv, "go", "vet", "./..."); b.code != 0 { // builds the tests too
			t.Fatalf("the fixed sample does not build: %s", b)
		}
		if !strings.Contains(fixed, "var clientBudget = budget.New()") || strings.Count(fixed, "!clientBudget.TryRetry() {") != 2 {
			t.Errorf("--fix did not give get and getRationed the Client's own budget:\n%s", fixed)
		}
		// The loops of p.go are fixed. golangci-lint applies the edits of
		// one variant of a package per file: the test variant's edit to
		// p.go (the same clientBudget declaration) conflicts with the one
		// already made, so its loop in p_test.go keeps its finding until
		// the next --fix, which uses the declared budget.
		r, issues, _ := gclRun(t, fixDir, ".golangci.yml")
		if got := positions(issues); r.code != 1 || strings.Join(got, "\n") != want[3] {
			t.Errorf("after --fix: exit %d, issues:\n%s\nwant:\n%s", r.code, strings.Join(got, "\n"), want[3])
		}
		gclRun(t, fixDir, ".golangci.yml", "--fix")
		if r, issues, _ := gclRun(t, fixDir, ".golangci.yml"); r.code != 0 || len(issues) != 0 {
			t.Errorf("after a second --fix: exit %d, issues:\n%s", r.code, strings.Join(positions(issues), "\n"))
		}
		if b := run(t, fixDir, goEnv, "go", "vet", "./..."); b.code != 0 {
			t.Fatalf("the sample fixed twice does not build: %s", b)
		}
	})
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// composeSrc is a retried POST with a fixed wait that cancellation does
// not interrupt: four passes fix it.
const composeSrc = `package pay

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
`

// issuesIn returns the issues of files below dir.
func issuesIn(issues []gclIssue, dir string) []gclIssue {
	var out []gclIssue
	for _, is := range issues {
		if strings.HasPrefix(is.Pos.Filename, dir) {
			out = append(out, is)
		}
	}
	return out
}
