package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestLoadErrors wants each load error once, on one line, relative to the
// current directory, with no follow-on errors and no word of the
// analyzers that were skipped; the other packages are still analyzed.
func TestLoadErrors(t *testing.T) {
	dir := module(t, map[string]string{
		"p/p.go":         retrying,
		"paren/paren.go": "package paren\n\nfunc f( {\n}\n",
		"typed/typed.go": "package typed\n\nfunc f() int { return \"x\" }\n",
		"cyc1/a.go":      "package cyc1\n\nimport _ \"example.com/m/cyc2\"\n",
		"cyc2/a.go":      "package cyc2\n\nimport _ \"example.com/m/cyc1\"\n",
		"missing/a.go":   "package missing\n\nimport _ \"example.com/nosuch/x\"\n",
	})
	// The default -mod=readonly (not the tests' -mod=mod): the go command
	// does not look the missing import up, but says how to add it.
	env := []string{"GOWORK=off", "GOFLAGS=-buildvcs=false", "GOPROXY=off"}
	_, stderr, code := runEnv(t, dir, env, "./...")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := []string{
		"paren/paren.go:3:9: expected ')', found '{'",
		"typed/typed.go:3:23: cannot use \"x\" (untyped string constant) as int value in return statement",
		"import cycle not allowed: import stack: [example.com/m/cyc1 example.com/m/cyc2 example.com/m/cyc1]",
		"missing/a.go:3:8: no required module provides package example.com/nosuch/x; to add it: go get example.com/nosuch/x",
		"p/p.go:14:2: retry loop makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load",
		"p/p.go:15:13: \tattempt made here",
		"p/p.go:14:2: \tno fix: no retry budget of this dependency is in scope",
		"retrylint: 1 finding has no fix because no retry budget is in scope: go get github.com/retrylint/retrylint/budget, then run with -fixedattempts.budget-module for fixes that add one",
	}
	got := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(got) != len(want) {
		t.Errorf("%d lines, want %d:\n%s", len(got), len(want), stderr)
	}
	for _, w := range want {
		if strings.Count(stderr, w+"\n") != 1 {
			t.Errorf("want once: %q", w)
		}
	}
	for _, noise := range []string{"prerequisites", "skipped", "# example.com", "-: ", dir} {
		if strings.Contains(stderr, noise) {
			t.Errorf("stderr has %q:\n%s", noise, stderr)
		}
	}
	// From a subdirectory, names are relative to it.
	_, stderr, _ = runEnv(t, filepath.Join(dir, "typed"), env, ".")
	if stderr != "typed.go:3:23: cannot use \"x\" (untyped string constant) as int value in return statement\n" {
		t.Errorf("in typed/: stderr:\n%s", stderr)
	}
}

// TestBadFlags wants one line for a bad flag and a pointer to -h, exit 2.
func TestBadFlags(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": retrying})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-foo", "./..."}, "retrylint: flag provided but not defined: -foo\nrun 'retrylint -h' for usage\n"},
		{[]string{"-c=abc", "./..."}, "retrylint: invalid value \"abc\" for flag -c: parse error\nrun 'retrylint -h' for usage\n"},
		{[]string{"-fixedattempts=maybe", "./..."}, "retrylint: invalid boolean value \"maybe\" for -fixedattempts: want true or false, not \"maybe\"\nrun 'retrylint -h' for usage\n"},
		{[]string{"-json"}, "retrylint: no packages given (retrylint ./... analyzes the module here)\nrun 'retrylint -h' for usage\n"},
		{[]string{"-json", "-sarif", "./..."}, "retrylint: -json and -sarif: choose one\nrun 'retrylint -h' for usage\n"},
		{[]string{"help", "nosuch"}, "retrylint: no pass named \"nosuch\" (run 'retrylint help' for the list)\n"},
	} {
		stdout, stderr, code := run(t, dir, tc.args...)
		if code != 2 || stderr != tc.want || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s", tc.args, code, stdout, stderr, tc.want)
		}
	}
	// -h is the usage, and no error.
	_, stderr, code := run(t, dir, "-h")
	if code != 0 || !strings.Contains(stderr, "Usage:") || !strings.Contains(stderr, "-baseline") {
		t.Errorf("-h: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestNoModule wants a directory pattern outside any module to say that
// there is no go.mod and how to run on files.
func TestNoModule(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.go"), []byte(retrying), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, pattern := range []string{"./...", "."} {
		_, stderr, code := run(t, dir, pattern)
		want := "retrylint: no go.mod in " + dir + " or any directory above it, so " + pattern + " names no package: run retrylint inside a Go module (go mod init creates one), or name the Go files: retrylint x.go\n"
		if code != 1 || stderr != want {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", pattern, code, stderr, want)
		}
	}
	// Named files work outside a module.
	if _, stderr, code := run(t, dir, "x.go"); code != 3 || !strings.HasPrefix(stderr, "x.go:14:2: retry loop") {
		t.Errorf("x.go: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestHelp wants the audit in -h and help, its own help, and each pass's
// flags once.
func TestHelp(t *testing.T) {
	dir := t.TempDir()
	out, _, code := run(t, dir, "help")
	if code != 0 || !regexp.MustCompile(`(?m)^\taudit +report every retry site`).MatchString(out) {
		t.Errorf("help: exit %d, no audit line:\n%s", code, out)
	}
	_, usage, _ := run(t, dir, "-h")
	if !strings.Contains(usage, "retrylint audit [flags] packages") || !strings.Contains(usage, "\taudit ") {
		t.Errorf("-h does not list the audit:\n%s", usage)
	}
	out, stderr, code := run(t, dir, "help", "audit")
	if code != 0 || stderr != "" || !strings.Contains(out, "retrylint audit writes a report") {
		t.Errorf("help audit: exit %d, stdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	// Every flag of retrylint audit -h is in retrylint help audit.
	_, auditUsage, _ := run(t, dir, "audit", "-h")
	flags := regexp.MustCompile(`(?m)^  (-[\w.-]+)`).FindAllStringSubmatch(auditUsage, -1)
	if len(flags) < 5 {
		t.Fatalf("audit -h lists %d flags:\n%s", len(flags), auditUsage)
	}
	for _, f := range flags {
		if !strings.Contains(out, "  "+f[1]) {
			t.Errorf("help audit lacks %s", f[1])
		}
	}
	if out, _, code := run(t, dir, "help", "directives"); code != 0 || !strings.HasPrefix(out, "directives: report lint:ignore directives with no reason or no effect") {
		t.Errorf("help directives: exit %d:\n%s", code, out)
	}
	for _, tc := range []struct{ pass, flag string }{
		{"fixedattempts", "-fixedattempts.budget-module"},
		{"nonidempotent", "-nonidempotent.headers"},
		{"retrysite", "-retrysite.budget-methods"},
		{"retrysite", "-retrysite.budget-funcs"},
	} {
		out, _, code := run(t, dir, "help", tc.pass)
		// A listing: the flag, then its usage after two spaces or a tab,
		// or on the next line.
		listed := regexp.MustCompile(`(?m)^\s+` + regexp.QuoteMeta(tc.flag) + `(  |\t|( value| string| int)?$)`)
		if code != 0 || len(listed.FindAllString(out, -1)) != 1 || strings.Contains(out, `(default "false")`) {
			t.Errorf("help %s: exit %d, want %s listed once:\n%s", tc.pass, code, tc.flag, out)
		}
	}
}

// TestVersion wants -version and -V=full to carry the module version from
// the build information, and -V=full in the form go vet reads.
func TestVersion(t *testing.T) {
	out, _, code := run(t, t.TempDir(), "-version")
	if code != 0 || !strings.HasPrefix(out, "retrylint (devel) github.com/retrylint/retrylint built with go") || strings.Contains(out, "comments-go-here") {
		t.Errorf("-version: exit %d, %q", code, out)
	}
	out, _, code = run(t, t.TempDir(), "-V=full")
	if code != 0 || !regexp.MustCompile(`^retrylint version \(devel\) \S+ buildID=[0-9a-f]{64}\n$`).MatchString(out) {
		t.Errorf("-V=full: exit %d, %q", code, out)
	}
}

// TestExample wants the built-in example's findings named as the files of
// the example, a word on where its source is, and the user's GOFLAGS kept.
func TestExample(t *testing.T) {
	_, stderr, code := run(t, t.TempDir())
	if code != 0 || !strings.Contains(stderr, "\ncheckout.go:33:2: retry loop makes up to 3 attempts") ||
		!strings.Contains(stderr, "cmd/retrylint/example/checkout.go.txt in the retrylint repository") ||
		strings.Contains(stderr, os.TempDir()) {
		t.Errorf("built-in example: exit %d, stderr:\n%s", code, stderr)
	}
	// The README says how many findings the example shows.
	findings := 0
	for _, line := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(line, "checkout.go:") && !strings.Contains(line, ": \t") {
			findings++
		}
	}
	if findings != 8 {
		t.Errorf("built-in example: %d findings, want the README's 8:\n%s", findings, stderr)
	}
	// GOFLAGS reach the go command the example runs (a bad one fails it).
	_, stderr, code = runEnv(t, t.TempDir(), []string{"GOFLAGS=-mod=nosuchmode"}, []string{}...)
	if code != 1 || !strings.Contains(stderr, "-mod=nosuchmode") {
		t.Errorf("GOFLAGS=-mod=nosuchmode: exit %d, stderr:\n%s", code, stderr)
	}
	if _, stderr, code := runEnv(t, t.TempDir(), []string{"GOFLAGS=-mod=readonly"}, []string{}...); code != 0 || !strings.Contains(stderr, "checkout.go:33:2") {
		t.Errorf("GOFLAGS=-mod=readonly: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestVetToolRelated wants the related positions of go vet -vettool to be
// those of the lint mode, across packages and across the modules of a
// workspace.
func TestVetToolRelated(t *testing.T) {
	ledger := `package ledger

import (
	"context"
	"time"
)

type DB struct{}

func (DB) Exec(ctx context.Context) error { return nil }

type Client struct{ db DB }

// Post tries the database 3 times.
func (c *Client) Post(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.db.Exec(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`
	orders := func(imp string) string {
		return `package orders

import (
	"context"
	"time"

	"` + imp + `"
)

type Client struct{ ledger *ledger.Client }

func (c *Client) Get(ctx context.Context, id string) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = c.ledger.Post(ctx, id); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`
	}
	const related = "ledger/ledger.go:17:2: \tledger.(*Client).Post retries here (3)\n"
	vet := func(dir string, env []string, patterns ...string) string {
		cmd := exec.Command("go", append([]string{"vet", "-vettool=" + retrylint, "-nestedretry"}, patterns...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	lint := func(dir string, env []string) string {
		_, stderr, _ := runEnv(t, dir, env, "-nestedretry", "./...")
		return stderr
	}

	// One module.
	dir := module(t, map[string]string{"ledger/ledger.go": ledger, "orders/orders.go": orders("example.com/m/ledger")})
	env := []string{"GOWORK=off"}
	l, v := lint(dir, env), vet(dir, env, "./...")
	if !strings.Contains(l, related) || !strings.Contains(v, related) {
		t.Errorf("one module: want %q from both drivers; lint:\n%s\ngo vet:\n%s", related, l, v)
	}

	// A workspace of two modules.
	ws := t.TempDir()
	for name, text := range map[string]string{
		"go.work":              "go 1.22\n\nuse (\n\t./lib\n\t./svc\n)\n",
		"lib/go.mod":           "module example.com/lib\n\ngo 1.22\n",
		"lib/ledger/ledger.go": ledger,
		"svc/go.mod":           "module example.com/svc\n\ngo 1.22\n\nrequire example.com/lib v0.0.0\n",
		"svc/orders/orders.go": orders("example.com/lib/ledger"),
	} {
		path := filepath.Join(ws, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env = []string{"GOWORK=", "GOFLAGS=-buildvcs=false"}
	l, v = lint(ws, env), vet(ws, env, "./lib/...", "./svc/...")
	if !strings.Contains(l, "lib/"+related) || !strings.Contains(v, "lib/"+related) {
		t.Errorf("workspace: want %q from both drivers; lint:\n%s\ngo vet:\n%s", "lib/"+related, l, v)
	}
}

// TestDirectives checks the directives under the lint mode and go vet:
// golangci-lint's "// nolint:retrylint" (with a space) silences, a
// //lint:ignore with no reason does not and is reported, and one that
// silences nothing is reported.
func TestDirectives(t *testing.T) {
	src := strings.Replace(retrying, "func get(", `func spaced(ctx context.Context, c *Client) error {
	// nolint:retrylint // golangci-lint's form, with a space
	for i := 0; i < 3; i++ {
		if err := c.Get(ctx); err == nil {
			return nil
		}
	}
	//lint:ignore fixedattempts nothing is retried below
	return errors.New("gave up")
}

func get(`, 1)
	src = strings.Replace(src, "\tfor i := 0; i < 3; i++ {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\tpause(ctx)", "\t//lint:ignore fixedattempts\n\tfor i := 0; i < 3; i++ {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\tpause(ctx)", 1)
	dir := module(t, map[string]string{"p/p.go": src})
	want := []string{
		"p/p.go:20:2: //lint:ignore fixedattempts silences nothing: no fixedattempts diagnostic in the line or statement below it; remove it",
		"p/p.go:25:2: //lint:ignore fixedattempts gives no reason, so it silences nothing: say why after the pass name",
		"p/p.go:26:2: retry loop makes up to 3 attempts with no retry budget",
	}
	_, stderr, code := run(t, dir, "./...")
	if code != 3 || strings.Contains(stderr, "p.go:15:") {
		t.Errorf("lint: exit %d, want 3 and nothing at line 15; stderr:\n%s", code, stderr)
	}
	vet := exec.Command("go", "vet", "-vettool="+retrylint, "./...")
	vet.Dir = dir
	vet.Env = append(os.Environ(), "GOWORK=off")
	out, _ := vet.CombinedOutput()
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("lint: no %q in\n%s", w, stderr)
		}
		if !strings.Contains(string(out), w) {
			t.Errorf("go vet: no %q in\n%s", w, out)
		}
	}
	if strings.Contains(string(out), "p.go:15:") {
		t.Errorf("go vet reports the silenced loop:\n%s", out)
	}
	// fixedattempts off: its directives are not judged unused, but the
	// one without a reason is still reported.
	_, stderr, _ = run(t, dir, "-fixedattempts=false", "./...")
	if strings.Contains(stderr, "silences nothing: no") || !strings.Contains(stderr, want[1]) {
		t.Errorf("-fixedattempts=false: stderr:\n%s", stderr)
	}
}
