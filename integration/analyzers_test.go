package integration_test

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"go/types"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/types/objectpath"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/passes"
)

// What Bazel's nogo, go vet and remote execution need of an analyzer, and
// what these tests check of every analyzer retrylint exports (and of those
// they require): a valid analyzer graph; no state that survives from one
// run to the next in a process (nogo and golangci-lint run many packages
// in one process, go vet one per process); facts that gob-encode and
// decode to what was encoded, with the same bytes every time (they cross
// process boundaries and feed caches). They need no tools and always run.

// exported returns the analyzers a nogo configuration can list: the passes
// (flag-bound and built from settings) and what they require.
func exported(t *testing.T) []*analysis.Analyzer {
	t.Helper()
	fresh, err := passes.New(passes.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	return append(append(passes.All(), fresh...), suppress.Check(passes.All(), passNames()))
}

// TestNogoREADME checks that the nogo section of docs/integrations.md
// lists every pass, as a label of its package, and configures flags that
// exist.
func TestNogoREADME(t *testing.T) {
	readme := readFile(t, filepath.Join(repoRoot, "docs", "integrations.md"))
	i := strings.Index(readme, "## Bazel: rules_go's nogo\n")
	if i < 0 {
		t.Fatal("docs/integrations.md has no nogo section")
	}
	section := readme[i:]
	section = section[:strings.Index(section[3:], "\n## ")+3]
	for _, a := range passes.All() {
		if !strings.Contains(section, `"@com_github_retrylint_retrylint//passes/`+a.Name+`",`) {
			t.Errorf("the nogo section does not list %s", a.Name)
		}
	}
	byName := map[string]*analysis.Analyzer{"retrysite": retrysite.Analyzer}
	for _, a := range passes.All() {
		byName[a.Name] = a
	}
	for _, tc := range []struct{ name, flag string }{
		{"retrysite", "budget-methods"}, {"retrysite", "budget-funcs"},
		{"fixedattempts", "budget-module"}, {"nonidempotent", "headers"},
	} {
		if byName[tc.name].Flags.Lookup(tc.flag) == nil || !strings.Contains(section, `"`+tc.name+`": {`) || !strings.Contains(section, `"`+tc.flag+`": "`) {
			t.Errorf("the nogo section's analyzer_flags: %s.%s", tc.name, tc.flag)
		}
	}
}

func passNames() []string {
	var out []string
	for _, a := range passes.All() {
		out = append(out, a.Name)
	}
	return out
}

func TestAnalyzersValidate(t *testing.T) {
	all := exported(t)
	// A set runs together: the flag-bound passes, or those built from
	// settings (each set has its own retry-site analyzer, and one fact
	// type belongs to one analyzer).
	fresh, _ := passes.New(passes.Settings{})
	for _, set := range [][]*analysis.Analyzer{passes.All(), fresh} {
		if err := analysis.Validate(append(set, suppress.Check(set, passNames()))); err != nil {
			t.Error(err)
		}
	}
	seen := map[*analysis.Analyzer]bool{}
	var visit func(a *analysis.Analyzer)
	visit = func(a *analysis.Analyzer) {
		if seen[a] {
			return
		}
		seen[a] = true
		if err := analysis.Validate([]*analysis.Analyzer{a}); err != nil {
			t.Errorf("%s: %v", a.Name, err)
		}
		if a.URL == "" || !strings.HasPrefix(a.URL, "https://") {
			t.Errorf("%s: URL %q", a.Name, a.URL)
		}
		for _, r := range a.Requires {
			visit(r)
		}
	}
	for _, a := range all {
		visit(a)
	}
	for _, a := range []*analysis.Analyzer{retrysite.Analyzer, amplify.Analyzer, suppress.Analyzer} {
		if !seen[a] {
			t.Errorf("%s is required by no pass", a.Name)
		}
	}
}

// analyzerFixture writes a copy of the shop module of analysistest (retry
// loops and helpers across packages, budgets, nested retries) with a
// package that yields the facts the shop does not (an idempotency-key
// helper, a budget check wrapper). edit changes the copy's sources.
func analyzerFixture(t *testing.T, edit func(name, src string) string) string {
	t.Helper()
	dir := t.TempDir()
	copyDir(t, filepath.Join(repoRoot, "analysistest", "testdata", "shop"), dir)
	files := map[string]string{
		"go.mod": "module example.com/shop\n\ngo 1.22\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + filepath.Join(repoRoot, "budget") + "\n",
		"pay/pay.go": `package pay

import (
	"bytes"
	"context"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

var payBudget = budget.New()

// SetKey sets the request's idempotency key.
func SetKey(req *http.Request, key string) { req.Header.Set("Idempotency-Key", key) }

// mustNot never returns (a fact of the control-flow analysis).
func mustNot(msg string) { panic("pay: " + msg) }

// Settled holds for a nil error (a polarity fact of the retry-site
// analysis).
func Settled(err error) bool { return err == nil }

// Allow asks the budget: a budget check of its own.
func Allow() bool { return payBudget.TryRetry() }

// Watcher keeps the context it is started with (freshtimeout's handoff
// fact).
type Watcher struct{ ctx context.Context }

func (w *Watcher) Start(ctx context.Context) { w.ctx = ctx }

// hooks run after a charge: OnCharge keeps its callback for later (a fact
// of the amplification analysis).
var hooks []func()

func OnCharge(f func()) { hooks = append(hooks, f) }

// Backoff computes a wait with no random term (nojitter's delay fact).
func Backoff(attempt int) time.Duration { return time.Duration(attempt+1) * 100 * time.Millisecond }

// Nap sleeps without watching a context (blindsleep's sleep-helper fact).
func Nap(d time.Duration) { time.Sleep(d) }

func Charge(ctx context.Context, hc *http.Client, body []byte, key string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/charge", bytes.NewReader(body))
		if rerr != nil {
			mustNot(rerr.Error())
		}
		SetKey(req, key)
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		if !Allow() {
			return err
		}
		time.Sleep(time.Second)
	}
	return err
}

func Refund(ctx context.Context, hc *http.Client, body []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "https://pay.example/refund", bytes.NewReader(body))
		if rerr != nil {
			return rerr
		}
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}
`,
	}
	writeFiles(t, dir, files)
	if edit != nil {
		err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
			if err != nil || !strings.HasSuffix(path, ".go") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			return os.WriteFile(path, []byte(edit(filepath.ToSlash(rel), string(data))), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// results runs the passes (and the directives check) on every package of
// dir, in this process, and returns the diagnostics and facts as sorted
// lines, and the number of facts of each type.
func results(dir string) (string, map[string]int, error) {
	pkgs, err := driver.Load(dir, []string{"./..."}, true)
	if err != nil {
		return "", nil, err
	}
	if errs := driver.LoadErrors(pkgs, dir); len(errs) > 0 {
		return "", nil, fmt.Errorf("load errors: %s", strings.Join(errs, "; "))
	}
	all := passes.All()
	if err := warmGob(all); err != nil {
		return "", nil, err
	}
	g, err := driver.Analyze(append(all, suppress.Check(all, passNames())), pkgs, false)
	if err != nil {
		return "", nil, err
	}
	if errs := driver.Errors(g); len(errs) > 0 {
		return "", nil, fmt.Errorf("analysis errors: %v", errs)
	}
	var lines []string
	for _, f := range driver.Unique(driver.Findings(g)) {
		l := fmt.Sprintf("diag %s:%d:%d %s: %s", driver.Rel(dir, f.Posn.Filename), f.Posn.Line, f.Posn.Column, f.Analyzer.Name, f.Diag.Message)
		for _, r := range f.Diag.Related {
			l += fmt.Sprintf(" | %s %s", driver.Rel(dir, f.Fset().Position(r.Pos).String()), r.Message)
		}
		for _, fix := range f.Diag.SuggestedFixes {
			l += " | fix " + fix.Message
			for _, e := range fix.TextEdits {
				l += fmt.Sprintf(" %q", e.NewText)
			}
		}
		lines = append(lines, l)
	}
	counts := map[string]int{}
	for act := range g.All() {
		if act.Package.Types == nil {
			continue
		}
		for _, f := range act.AllObjectFacts() {
			if f.Object.Pkg() != act.Package.Types {
				continue // another package's, seen where it is imported
			}
			path, _ := objectpath.For(f.Object)
			data, err := encodeFacts(act.Package.Types.Path(), string(path), f.Fact)
			if err != nil {
				return "", nil, fmt.Errorf("%s: fact %T of %s: %v", act, f.Fact, f.Object, err)
			}
			counts[reflect.TypeOf(f.Fact).String()]++
			lines = append(lines, fmt.Sprintf("fact %s %s %s %s: %v %x", act.Analyzer.Name, act.Package.ID, types.ObjectString(f.Object, nil), path, f.Fact, data))
		}
		for _, f := range act.AllPackageFacts() {
			if f.Package != act.Package.Types {
				continue
			}
			data, err := encodeFacts(f.Package.Path(), "", f.Fact)
			if err != nil {
				return "", nil, fmt.Errorf("%s: package fact %T: %v", act, f.Fact, err)
			}
			counts[reflect.TypeOf(f.Fact).String()]++
			lines = append(lines, fmt.Sprintf("pkgfact %s %s: %v %x", act.Analyzer.Name, act.Package.ID, f.Fact, data))
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n", counts, nil
}

// warmGob encodes a zero fact of every fact type of the analyzers, in the
// order of their type names, before any other: gob numbers the types a
// process encodes in the order it first meets them, and the facts of one
// package come in no set order, so without this the bytes of a fact would
// depend on what the process encoded before.
func warmGob(analyzers []*analysis.Analyzer) error {
	types := map[string]reflect.Type{}
	var visit func(*analysis.Analyzer)
	visit = func(an *analysis.Analyzer) {
		for _, f := range an.FactTypes {
			t := reflect.TypeOf(f)
			types[t.String()] = t
		}
		for _, r := range an.Requires {
			visit(r)
		}
	}
	for _, an := range analyzers {
		visit(an)
	}
	names := make([]string, 0, len(types))
	for n := range types {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		zero := reflect.New(types[n].Elem()).Interface().(analysis.Fact)
		if _, err := encodeFacts("", "", zero); err != nil {
			return fmt.Errorf("fact type %s: %v", n, err)
		}
	}
	return nil
}

// gobFact is how go vet (x/tools' internal/facts) writes a fact.
type gobFact struct {
	PkgPath string
	Object  string
	Fact    analysis.Fact
}

// encodeFacts gob-encodes a fact as go vet does, twice, and decodes it:
// the bytes must not change, and the decoded fact must equal the fact.
func encodeFacts(pkg, obj string, fact analysis.Fact) ([]byte, error) {
	gob.Register(fact)
	enc := func() ([]byte, error) {
		var buf bytes.Buffer
		err := gob.NewEncoder(&buf).Encode([]gobFact{{PkgPath: pkg, Object: obj, Fact: fact}})
		return buf.Bytes(), err
	}
	first, err := enc()
	if err != nil {
		return nil, err
	}
	second, _ := enc()
	if !bytes.Equal(first, second) {
		return nil, fmt.Errorf("the encoding is not deterministic")
	}
	var back []gobFact
	if err := gob.NewDecoder(bytes.NewReader(first)).Decode(&back); err != nil {
		return nil, err
	}
	if len(back) != 1 || !reflect.DeepEqual(back[0].Fact, fact) {
		return nil, fmt.Errorf("decodes to %#v, not %#v", back[0].Fact, fact)
	}
	return first, nil
}

// TestAnalyzersNoGlobalState analyzes two modules with the same package
// paths and different code, one after the other in this process, and each
// alone in a new process: the results must not depend on what ran before.
// It also checks that every fact type of the exported analyzers occurs, so
// that the gob round trip of each is tested.
func TestAnalyzersNoGlobalState(t *testing.T) {
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "off")
	a := analyzerFixture(t, nil)
	b := analyzerFixture(t, func(name, src string) string {
		// Other bounds, budgets removed, the helper's bound changed,
		// the key helper gone: every fact changes.
		src = strings.ReplaceAll(src, "i < 3;", "i < 5;")
		src = strings.ReplaceAll(src, "i < 4;", "i < 2;")
		src = strings.ReplaceAll(src, "if !Allow() {\n\t\t\treturn err\n\t\t}\n", "")
		src = strings.ReplaceAll(src, "\t\tSetKey(req, key)\n", "")
		return src
	})
	inProcess := map[string]string{}
	for _, dir := range []string{a, b, a, b} {
		got, counts, err := results(dir)
		if err != nil {
			t.Fatal(err)
		}
		if prev, ok := inProcess[dir]; ok && prev != got {
			t.Errorf("second run on %s differs from the first in this process:\n%s", dir, diffLines(prev, got))
		}
		inProcess[dir] = got
		if dir == a {
			want := map[string]bool{}
			for _, an := range exported(t) {
				var visit func(*analysis.Analyzer)
				visit = func(an *analysis.Analyzer) {
					for _, f := range an.FactTypes {
						want[reflect.TypeOf(f).String()] = true
					}
					for _, r := range an.Requires {
						visit(r)
					}
				}
				visit(an)
			}
			for typ := range want {
				if counts[typ] == 0 {
					t.Errorf("no fact of type %s in the fixture: its encoding is not tested", typ)
				}
			}
			if len(want) < 4 {
				t.Errorf("fact types found: %v", want)
			}
		}
	}
	if inProcess[a] == inProcess[b] {
		t.Fatalf("the two modules give the same results; the test shows nothing:\n%s", inProcess[a])
	}
	for _, dir := range []string{a, b} {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "RETRYLINT_RESULTS_OF="+dir)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("child process on %s: %v\n%s", dir, err, stderr.String())
		}
		if stdout.String() != inProcess[dir] {
			t.Errorf("%s analyzed alone in a new process differs from this process after the other module:\n%s", dir, diffLines(stdout.String(), inProcess[dir]))
		}
	}
	t.Logf("%d lines of results for the first module, %d for the second", strings.Count(inProcess[a], "\n"), strings.Count(inProcess[b], "\n"))
}

// childResults is the child process of TestAnalyzersNoGlobalState: it
// prints the results of one module and exits.
func childResults() {
	dir := os.Getenv("RETRYLINT_RESULTS_OF")
	if dir == "" {
		return
	}
	out, _, err := results(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Print(out)
	os.Exit(0)
}

// diffLines lists the lines only one of a and b has.
func diffLines(a, b string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	ma, mb := in(a), in(b)
	var out []string
	for l := range ma {
		if !mb[l] {
			out = append(out, "- "+l)
		}
	}
	for l := range mb {
		if !ma[l] {
			out = append(out, "+ "+l)
		}
	}
	sort.Strings(out)
	return strings.Join(out, "\n")
}
