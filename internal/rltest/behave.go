package rltest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// BehaveCalls is how many times Behave calls each fixed function in each
// mode: enough for the budget's share of retries to show (its ratio is 0.1,
// so 2,000 calls allow about 200 retries).
const BehaveCalls = 2000

// BudgetRatio is the share of retries the budget package allows by
// default (budget.New's Ratio), and BudgetSlack what its floor (one retry
// per second) and rounding may add over BehaveCalls calls.
const (
	BudgetRatio = 0.1
	BudgetSlack = 0.03
)

// Report is what one case did in one mode over all its calls (see package
// rlbehave in testdata/fakes).
type Report struct {
	Case     string         `json:"case"`
	Mode     string         `json:"mode"`
	Calls    int            `json:"calls"`
	Attempts int            `json:"attempts"`
	Opened   int            `json:"opened"`
	Closed   int            `json:"closed"`
	Outcomes map[string]int `json:"outcomes"`
	// Refused is a regular expression of the error a refused retry must
	// return where it differs from the original's after its last attempt
	// (rlbehave.Case.Refused).
	Refused string `json:"refused"`
}

// Behave checks that fixes keep behaviour. It builds the package pkg of
// the tree dir (made by WithStubs) twice, as it is and with each of its
// files that has a .go.golden in the golden's text, each with the driver
// file (a Go file of package pkg that defines BehaveCases() []rlbehave.Case)
// added; both link the real budget package and the behaving fakes of the
// retry libraries (testdata/fakes) in place of the stubs. It runs the
// original once per case and mode and the fixed build BehaveCalls times,
// and checks, for every case:
//
//   - with the dependency healthy, the fixed code returns what the original
//     returns, with as many attempts;
//   - with the dependency failing (down, or answering 503), the original
//     retries and returns a failure, and the fixed code returns that same
//     failure (the same result and error message; for a loop that gives up
//     only when its context ends, the driver's Refused error, the last
//     attempt's, with the original's result) on every call, makes
//     between 1 and 1 + BudgetRatio + BudgetSlack attempts per call on
//     average, and closes every response body it was handed.
//
// It returns the reports of the fixed build.
func Behave(t *testing.T, dir, pkg, driver string) []Report {
	t.Helper()
	orig := runBehave(t, buildBehave(t, dir, pkg, driver, false), 1, "", "")
	fixedBin := buildBehave(t, dir, pkg, driver, true)
	var fixed []Report
	for _, o := range orig {
		// A process per case and mode: each starts from new budgets.
		fixed = append(fixed, runBehave(t, fixedBin, BehaveCalls, o.Case, o.Mode)...)
	}
	byKey := map[string]Report{}
	for _, r := range orig {
		byKey[r.Case+"/"+r.Mode] = r
	}
	if len(fixed) == 0 {
		t.Fatalf("Behave %s: the driver has no cases", pkg)
	}
	healthy := map[string]string{}
	for _, r := range fixed {
		if r.Mode == "healthy" {
			healthy[r.Case] = only(byKey[r.Case+"/healthy"].Outcomes)
		}
	}
	for _, r := range fixed {
		o, ok := byKey[r.Case+"/"+r.Mode]
		if !ok {
			t.Errorf("%s %s: not run before the fix", r.Case, r.Mode)
			continue
		}
		want := only(o.Outcomes)
		if want == "" {
			t.Errorf("%s %s: the original's outcome is not one: %v", r.Case, r.Mode, o.Outcomes)
			continue
		}
		label := r.Case + " (" + r.Mode + ")"
		shown := outcome(want)
		if r.Refused != "" {
			// The original gave up when its context ended, or its error
			// lists its attempts; a refusal returns its own.
			res, _, _ := strings.Cut(want, "\x00")
			re, err := regexp.Compile("^(?:" + r.Refused + ")$")
			if err != nil {
				t.Fatalf("%s: Refused: %v", label, err)
			}
			n := 0
			for k, c := range r.Outcomes {
				kr, msg, _ := strings.Cut(k, "\x00")
				if kr == res && re.MatchString(msg) {
					n += c
				}
			}
			if n != r.Calls {
				t.Errorf("%s: %d of %d calls returned result %q and an error matching %q; all: %s", label, n, r.Calls, res, r.Refused, outcomesExcept(r.Outcomes, ""))
			}
			want = ""
			shown = fmt.Sprintf("result %q, an error matching %q", res, r.Refused)
		}
		if got := r.Outcomes[want]; want != "" && got != r.Calls {
			t.Errorf("%s: %d of %d calls returned what the original returned (%s); the others: %s", label, got, r.Calls, outcome(want), outcomesExcept(r.Outcomes, want))
		}
		if r.Mode == "healthy" {
			if r.Attempts != o.Attempts*r.Calls {
				t.Errorf("%s: %d attempts in %d calls, want %d per call as before the fix", label, r.Attempts, r.Calls, o.Attempts)
			}
			continue
		}
		if want != "" && want == healthy[r.Case] {
			t.Errorf("%s: the original returns the same with the dependency failing as healthy: %s", label, outcome(want))
		}
		if o.Attempts < 2 {
			t.Errorf("%s: the original made %d attempts: it does not retry", label, o.Attempts)
		}
		per := float64(r.Attempts) / float64(r.Calls)
		t.Logf("%s: %d attempts per call before the fix, %.3f after (%d calls); %s", label, o.Attempts, per, r.Calls, shown)
		if per < 1 || per > 1+BudgetRatio+BudgetSlack {
			t.Errorf("%s: %.3f attempts per call (%d in %d calls), want 1 to %.2f; the original makes %d", label, per, r.Attempts, r.Calls, 1+BudgetRatio+BudgetSlack, o.Attempts)
		}
		if r.Opened != r.Closed {
			t.Errorf("%s: %d of %d response bodies left open", label, r.Opened-r.Closed, r.Opened)
		}
	}
	return fixed
}

// only returns the single outcome of a report, or "".
func only(m map[string]int) string {
	if len(m) != 1 {
		return ""
	}
	for k := range m {
		return k
	}
	return ""
}

func outcome(k string) string {
	res, msg, _ := strings.Cut(k, "\x00")
	return fmt.Sprintf("result %q, error %q", res, msg)
}

func outcomesExcept(m map[string]int, except string) string {
	var parts []string
	for k, n := range m {
		if k != except {
			parts = append(parts, fmt.Sprintf("%d× %s", n, outcome(k)))
		}
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// buildBehave builds one variant and returns its binary.
func buildBehave(t *testing.T, dir, pkg, driver string, fixed bool) string {
	t.Helper()
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	if err := BehaveTree(dir, src); err != nil {
		t.Fatal(err)
	}
	pkgDir := filepath.Join(src, filepath.FromSlash(pkg))
	if fixed {
		n := 0
		entries, err := os.ReadDir(pkgDir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if g, ok := strings.CutSuffix(e.Name(), ".golden"); ok {
				data, err := os.ReadFile(filepath.Join(pkgDir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(pkgDir, g), data, 0o644); err != nil {
					t.Fatal(err)
				}
				n++
			}
		}
		if n == 0 {
			t.Fatalf("Behave: no golden file in %s", pkg)
		}
	}
	drv, err := os.ReadFile(driver)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(pkgDir, "zz_behave.go"), drv, 0o644); err != nil {
		t.Fatal(err)
	}
	main := fmt.Sprintf("package main\n\nimport (\n\t\"rlbehave\"\n\n\tp %q\n)\n\nfunc main() { rlbehave.Main(p.BehaveCases()) }\n", pkg)
	if err := os.MkdirAll(filepath.Join(src, "rlbehavemain"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "rlbehavemain", "main.go"), []byte(main), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(tmp, "behave")
	build := exec.Command("go", "build", "-o", bin, "rlbehavemain")
	build.Dir = tmp
	build.Env = GopathEnv(tmp)
	if out, err := build.CombinedOutput(); err != nil {
		variant := "original"
		if fixed {
			variant = "fixed"
		}
		t.Fatalf("Behave: building the %s %s: %v\n%s", variant, pkg, err, out)
	}
	return bin
}

// runBehave runs a binary of buildBehave for one case ("" for all) in the
// modes listed ("" for all).
func runBehave(t *testing.T, bin string, calls int, only, modes string) []Report {
	t.Helper()
	run := exec.Command(bin, fmt.Sprintf("-calls=%d", calls), "-case="+only, "-modes="+modes)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		t.Fatalf("Behave: running %s: %v\n%s", bin, err, stderr.String())
	}
	var out []Report
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r Report
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("Behave: %v: %s", err, sc.Text())
		}
		out = append(out, r)
	}
	return out
}

// GopathEnv returns the environment of a go command that builds the
// GOPATH tree gopath offline.
func GopathEnv(gopath string) []string {
	return append(os.Environ(), "GOPATH="+gopath, "GO111MODULE=off", "GOFLAGS=", "GOWORK=off", "GOPROXY=off")
}

// BehaveTree writes to src a GOPATH src tree for running code: the tree
// dir/src (stubs and test packages), with the behaving fakes of
// testdata/fakes in place of the stubs of the same packages, and the
// repository's budget package in place of its stub.
func BehaveTree(dir, src string) error {
	if err := copyTree(filepath.Join(dir, "src"), src); err != nil {
		return err
	}
	fakes := filepath.Join(StubsDir(), "fakes", "src")
	var pkgs []string
	err := filepath.WalkDir(fakes, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(fakes, filepath.Dir(path))
		if len(pkgs) == 0 || pkgs[len(pkgs)-1] != rel {
			pkgs = append(pkgs, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, p := range pkgs {
		if err := replacePkg(filepath.Join(fakes, p), filepath.Join(src, p)); err != nil {
			return err
		}
	}
	return replacePkg(budgetDir(), filepath.Join(src, "github.com", "retrylint", "retrylint", "budget"))
}

// replacePkg replaces the Go files of the package directory to with the
// non-test Go files of from (subdirectories are left alone).
func replacePkg(from, to string) error {
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	old, err := os.ReadDir(to)
	if err != nil {
		return err
	}
	for _, e := range old {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
			if err := os.Remove(filepath.Join(to, e.Name())); err != nil {
				return err
			}
		}
	}
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// budgetDir returns the directory of the repository's budget package.
func budgetDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "budget")
}
