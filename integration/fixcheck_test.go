package integration_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// fixModules are public modules, at the versions listed here, fetched
// through the Go module proxy, whose retry code retrylint has fixes for: retry
// loops in the connection handling of amqp091-go, go-nsq, gocql and
// memberlist, backoff's own (generic) retry loop, and a fresh timeout in a
// test of openai-go. They have few dependencies, so that the check stays
// within its time limit on a cold cache; of openai-go, whose generated API
// package alone takes minutes to compile, only the package with the
// finding is checked.
var fixModules = []struct {
	modver string
	pkgs   []string // the patterns checked, ./... when empty
	// behave, when set, runs a fixed function against a failing fake
	// dependency, before and after the fixes.
	behave *behaveCheck
}{
	{modver: "github.com/cenkalti/backoff/v5@v5.0.3"},
	{modver: "github.com/rabbitmq/amqp091-go@v1.16.0"},
	{modver: "github.com/nsqio/go-nsq@v1.1.0"},
	{modver: "github.com/gocql/gocql@v1.7.0", behave: gocqlBehave},
	{modver: "github.com/hashicorp/memberlist@v0.7.0"},
	{modver: "github.com/openai/openai-go/v3@v3.99.0", pkgs: []string{"./packages/websocket/..."}},
}

// TestFixesOnRealModules copies real modules from the module proxy to a
// scratch directory, applies retrylint -fix to their packages (tests
// included), and checks that every module still builds and passes go vet,
// and that a second run reports none of the diagnostics that were fixed and
// nothing new. It logs the diff the fixes make.
//
// It is slow (it downloads and compiles the modules and their
// dependencies), so it runs only with RETRYLINT_FIXCHECK=1; .ci/run runs it
// as a step of its own:
//
//	RETRYLINT_FIXCHECK=1 go test -count=1 -timeout 15m -run TestFixesOnRealModules -v ./integration/
func TestFixesOnRealModules(t *testing.T) {
	if os.Getenv("RETRYLINT_FIXCHECK") != "1" {
		t.Skip("fix check on real modules: set RETRYLINT_FIXCHECK=1 to run it (it needs the Go module proxy)")
	}
	work := t.TempDir()
	budgetDir := filepath.Join(work, "budget")
	copyDir(t, filepath.Join(repoRoot, "budget"), budgetDir)
	// The fixes that add a budget import github.com/retrylint/retrylint/budget
	// (-fixedattempts.budget-module): each module requires it, from the
	// checkout, as a user who ran go get would.
	flags := []string{"-fixedattempts.budget-module"}

	total := struct{ diags, fixable, files int }{}
	for _, m := range fixModules {
		modver, pkgs := m.modver, m.pkgs
		if len(pkgs) == 0 {
			pkgs = []string{"./..."}
		}
		mod, _, _ := strings.Cut(modver, "@")
		t.Run(modName(mod), func(t *testing.T) {
			start := time.Now()
			dir := filepath.Join(work, strings.ReplaceAll(mod, "/", "_"))
			download := run(t, work, goEnv, "go", "mod", "download", "-json", modver)
			var info struct{ Dir, Error string }
			if err := json.Unmarshal([]byte(download.stdout), &info); err != nil || info.Dir == "" {
				t.Fatalf("go mod download %s: %v %s\n%s", modver, err, info.Error, download)
			}
			copyDir(t, info.Dir, dir)
			mustRun(t, dir, "go", "mod", "edit",
				"-require=github.com/retrylint/retrylint/budget@v0.0.0",
				"-replace=github.com/retrylint/retrylint/budget="+budgetDir)
			mustRun(t, dir, "go", "mod", "download")
			mustRun(t, dir, "go", append([]string{"build"}, pkgs...)...)
			mustRun(t, dir, "go", append([]string{"vet"}, pkgs...)...)

			before := lintJSON(t, dir, append(flags, pkgs...)...)
			fixable := 0
			for _, d := range before {
				if d.fixed {
					fixable++
				}
			}
			var perBefore float64
			if m.behave != nil {
				perBefore = m.behave.run(t, dir, "before")
			}
			diff := run(t, dir, goEnv, retrylint, append(append([]string{"-fix", "-diff"}, flags...), pkgs...)...)
			t.Logf("retrylint -fix -diff:\n%s", diff.stdout)
			// Overlapping fixes are applied one per run: run until none is
			// left, three times at most.
			for i := 0; i < 3; i++ {
				r := run(t, dir, goEnv, retrylint, append(append([]string{"-fix"}, flags...), pkgs...)...)
				if r.code != 0 && r.code != 3 {
					t.Fatalf("retrylint -fix: %s", r)
				}
				if !strings.Contains(r.stderr, "overlap") {
					break
				}
			}
			files := changedGoFiles(t, info.Dir, dir)

			if r := run(t, dir, goEnv, "go", append([]string{"build"}, pkgs...)...); r.code != 0 {
				t.Errorf("go build after the fixes: %s", r)
			}
			if r := run(t, dir, goEnv, "go", append([]string{"vet"}, pkgs...)...); r.code != 0 {
				t.Errorf("go vet after the fixes (it passed before them): %s", r)
			}
			after := lintJSON(t, dir, append(flags, pkgs...)...)
			// Compare by file, pass and message: the fixes move lines. What
			// is reported after the fixes must have been reported, without a
			// fix, before them. (A fix may settle more than its own
			// diagnostic: a budget on an inner retry ends the nesting.)
			unfixed := map[string]int{}
			for _, d := range before {
				if !d.fixed {
					unfixed[d.key()]++
				}
			}
			for _, d := range after {
				if unfixed[d.key()] == 0 {
					t.Errorf("after the fixes: %s (fix: %t), not reported without a fix before them", d, d.fixed)
					continue
				}
				unfixed[d.key()]--
			}
			if t.Failed() {
				t.Logf("before the fixes:\n%s\nafter:\n%s", diagList(before), diagList(after))
			}
			if m.behave != nil {
				per := m.behave.run(t, dir, "after")
				t.Logf("%s: %.3f attempts per call before the fixes, %.3f after", m.behave.name, perBefore, per)
				if perBefore < 2 {
					t.Errorf("%s: %.3f attempts per call before the fixes: the behaviour check sees no retry", m.behave.name, perBefore)
				}
				if per < 1 || per > 1+behaveRatio+behaveSlack {
					t.Errorf("%s: %.3f attempts per call after the fixes, want 1 to %.2f", m.behave.name, per, 1+behaveRatio+behaveSlack)
				}
			}
			t.Logf("%s: %d diagnostics, %d with a fix, %d files changed; %d left after the fixes; %s",
				modver, len(before), fixable, files, len(after), time.Since(start).Round(time.Second))
			total.diags += len(before)
			total.fixable += fixable
			total.files += files
		})
	}
	t.Logf("%d modules: %d diagnostics, %d fixed, %d files changed", len(fixModules), total.diags, total.fixable, total.files)
	if total.fixable == 0 {
		t.Error("no fix was applied: the check checked nothing")
	}
}

// lintDiag is one diagnostic of retrylint -json.
type lintDiag struct {
	file, pass, message string
	line                int
	fixed               bool // it offers a fix
}

// key identifies a diagnostic across the fixes, which move lines. A
// nestedretry diagnostic is the same nesting when its site's part of the
// message is: a budget a fix gives an inner layer changes that layer's
// multiplier in the rest of it.
func (d lintDiag) key() string {
	msg := d.message
	if d.pass == "nestedretry" {
		msg, _, _ = strings.Cut(msg, " × ")
	}
	return d.file + "\x00" + d.pass + "\x00" + msg
}

func (d lintDiag) String() string {
	return fmt.Sprintf("%s:%d: %s: %s", d.file, d.line, d.pass, d.message)
}

func diagList(ds []lintDiag) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "\t%s (fix: %t)\n", d, d.fixed)
	}
	return b.String()
}

// lintJSON runs retrylint -json with args (flags, then patterns) in dir and
// returns its diagnostics, sorted, file names relative to dir. An analyzer
// error, a package that does not load, or a panic fails the test.
func lintJSON(t *testing.T, dir string, args ...string) []lintDiag {
	t.Helper()
	r := run(t, dir, goEnv, retrylint, append([]string{"-json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("retrylint -json: %s", r)
	}
	var out map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("retrylint -json: %v\n%s", err, r.stdout)
	}
	var diags []lintDiag
	for pkg, byPass := range out {
		for pass, raw := range byPass {
			var list []struct {
				Posn           string            `json:"posn"`
				Message        string            `json:"message"`
				SuggestedFixes []json.RawMessage `json:"suggested_fixes"`
			}
			if err := json.Unmarshal(raw, &list); err != nil {
				t.Fatalf("retrylint -json: %s: %s: %s", pkg, pass, raw)
			}
			for _, d := range list {
				file, line := d.Posn, 0
				if i := strings.LastIndex(file, ":"); i > 0 { // drop the column
					file = file[:i]
				}
				if i := strings.LastIndex(file, ":"); i > 0 {
					fmt.Sscan(file[i+1:], &line)
					file = file[:i]
				}
				rel, err := filepath.Rel(dir, file)
				if err != nil {
					rel = file
				}
				diags = append(diags, lintDiag{file: rel, pass: pass, message: d.Message, line: line, fixed: len(d.SuggestedFixes) > 0})
			}
		}
	}
	sort.Slice(diags, func(i, j int) bool { return diags[i].String() < diags[j].String() })
	return diags
}

// modName returns the last element of a module path that is not a major
// version suffix: backoff for github.com/cenkalti/backoff/v5.
func modName(mod string) string {
	base := path.Base(mod)
	if len(base) > 1 && base[0] == 'v' && strings.Trim(base[1:], "0123456789") == "" {
		base = path.Base(path.Dir(mod))
	}
	return base
}

// changedGoFiles returns how many Go files below dir differ from those
// below orig.
func changedGoFiles(t *testing.T, orig, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		a, errA := os.ReadFile(filepath.Join(orig, rel))
		b, errB := os.ReadFile(p)
		if errB != nil {
			return errB
		}
		if errA != nil || !bytes.Equal(a, b) {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// mustRun runs a go command in dir and fails the test if it fails.
func mustRun(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	if r := run(t, dir, goEnv, name, args...); r.code != 0 {
		t.Fatalf("%s %s: %s", name, strings.Join(args, " "), r)
	}
}

// The budget package's default ratio, and what its floor (one retry a
// second) and rounding may add over behaveCalls calls (as rltest.Behave).
const (
	behaveRatio = 0.1
	behaveSlack = 0.03
	behaveCalls = 2000
)

// behaveCheck is a test file written into a package of a fixed module: it
// calls a function that a fix changes behaveCalls times against a fake
// dependency that always fails, checks that every call returns the fake's
// error and that no goroutine is left, and prints
// "retrylint-behave: ATTEMPTS CALLS".
type behaveCheck struct {
	name string // what is called
	pkg  string // the package's directory in the module
	src  string // the test file
}

// run writes the check's test file, runs it, removes it, and returns the
// attempts per call it printed.
func (b *behaveCheck) run(t *testing.T, dir, when string) float64 {
	t.Helper()
	file := filepath.Join(dir, filepath.FromSlash(b.pkg), "retrylint_behave_test.go")
	if err := os.WriteFile(file, []byte(strings.ReplaceAll(b.src, "CALLS", fmt.Sprint(behaveCalls))), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(file)
	r := run(t, dir, goEnv, "go", "test", "-count=1", "-run", "^TestRetrylintBehave$", "-v", "./"+b.pkg)
	if r.code != 0 {
		t.Errorf("%s %s the fixes: %s", b.name, when, r)
		return 0
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		var attempts, calls int
		if _, err := fmt.Sscanf(strings.TrimSpace(line), "retrylint-behave: %d %d", &attempts, &calls); err == nil && calls > 0 {
			return float64(attempts) / float64(calls)
		}
	}
	t.Errorf("%s %s the fixes: no retrylint-behave line in\n%s", b.name, when, r.stdout)
	return 0
}

// gocqlBehave calls hostConnPool.connect, the connection pool's
// reconnection loop, against a host dialer that always fails (three
// attempts a call before the fix).
var gocqlBehave = &behaveCheck{name: "gocql hostConnPool.connect", pkg: ".", src: `package gocql

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"testing"
	"time"
)

var errRetrylintDown = errors.New("dependency down")

type retrylintDialer struct{ calls int }

func (d *retrylintDialer) DialHost(ctx context.Context, host *HostInfo) (*DialedHost, error) {
	d.calls++
	return nil, errRetrylintDown
}

func TestRetrylintBehave(t *testing.T) {
	d := &retrylintDialer{}
	s := &Session{
		ctx:     context.Background(),
		cfg:     ClusterConfig{ReconnectionPolicy: &ConstantReconnectionPolicy{MaxRetries: 3, Interval: time.Nanosecond}},
		connCfg: &ConnConfig{HostDialer: d},
	}
	pool := &hostConnPool{session: s, host: &HostInfo{}}
	goroutines := runtime.NumGoroutine()
	for i := 0; i < CALLS; i++ {
		if err := pool.connect(); !errors.Is(err, errRetrylintDown) || err.Error() != errRetrylintDown.Error() {
			t.Fatalf("call %d: %v, want the dialer's error", i, err)
		}
	}
	if n := runtime.NumGoroutine(); n > goroutines {
		t.Errorf("%d goroutines left, %d before", n, goroutines)
	}
	if len(pool.conns) != 0 {
		t.Errorf("%d connections in the pool", len(pool.conns))
	}
	fmt.Printf("retrylint-behave: %d %d\n", d.calls, CALLS)
}
`}
