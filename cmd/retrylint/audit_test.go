package main_test

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/retrylint/retrylint/internal/rltest"
)

var update = flag.Bool("update", false, "rewrite the audit golden files")

// shopDir is the multi-package fixture: a gateway, orders, ledger and db.
func shopDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("..", "..", "analysistest", "testdata", "shop"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// fixture copies testdata/audit/<name> (a module) to a new directory, so
// that a test can edit it, and returns the copy.
func fixture(t *testing.T, name string) string {
	t.Helper()
	from := filepath.Join("testdata", "audit", name)
	to := filepath.Join(t.TempDir(), name)
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

// auditCache caches one run per directory and arguments.
var auditCache = map[string]string{}

// auditRun runs the audit in dir with args, which must succeed (exit
// want), and returns stdout with the working directory replaced by
// SRCROOT in SARIF's file URIs.
func auditRun(t *testing.T, dir string, want int, args ...string) string {
	t.Helper()
	key := dir + "\x00" + strings.Join(args, "\x00")
	if out, ok := auditCache[key]; ok {
		return out
	}
	stdout, stderr, code := run(t, dir, append([]string{"audit"}, args...)...)
	if code != want {
		t.Fatalf("audit %s: exit %d, want %d\n%s", strings.Join(args, " "), code, want, stderr)
	}
	out := strings.ReplaceAll(stdout, "file://"+filepath.ToSlash(dir)+"/", "file:///SRCROOT/")
	auditCache[key] = out
	return out
}

func auditOutput(t *testing.T, format string) string {
	t.Helper()
	dir := shopDir(t)
	key := dir + "\x00-format\x00" + format + "\x00./..."
	if out, ok := auditCache[key]; ok {
		return out
	}
	_, stderr, _ := run(t, dir, "audit", "-format", format, "./...")
	if stderr != "" {
		t.Errorf("audit -format %s: stderr is not a terminal, want no output there, got:\n%s", format, stderr)
	}
	return auditRun(t, dir, 0, "-format", format, "./...")
}

// opsOutput is the audit of the ops fixture (a reconnect goroutine, an
// unbounded, a time-bounded and a configured site, a suppressed one, a
// test file).
func opsOutput(t *testing.T, format string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", "audit", "ops"))
	if err != nil {
		t.Fatal(err)
	}
	return auditRun(t, dir, 0, "-format", format, "./...")
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "audit", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run Audit -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the output (go test -run Audit -update rewrites it):\n%s", name, lineDiff(string(want), got))
	}
}

// lineDiff shows the first lines that differ.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 8; i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
			shown++
		}
	}
	return b.String()
}

func TestAuditGolden(t *testing.T) {
	for _, f := range []struct{ format, file string }{
		{"text", "shop.txt"},
		{"json", "shop.json"},
		{"sarif", "shop.sarif.json"},
		{"markdown", "shop.md"},
		{"csv", "shop.csv"},
	} {
		t.Run(f.format, func(t *testing.T) { golden(t, f.file, auditOutput(t, f.format)) })
	}
	for _, f := range []struct{ format, file string }{
		{"text", "ops.txt"},
		{"markdown", "ops.md"},
	} {
		t.Run("ops-"+f.format, func(t *testing.T) { golden(t, f.file, opsOutput(t, f.format)) })
	}
}

// report is the part of the JSON report the tests read.
type report struct {
	Schema      string `json:"$schema"`
	Packages    int
	NotAnalyzed []struct{ Package, Reason string } `json:"not_analyzed"`
	Summary     struct {
		Sites, Unbudgeted, Budgeted, Suppressed, Chains, Unbounded int
		InBaseline                                                 int  `json:"in_baseline"`
		TimeBounded                                                int  `json:"time_bounded"`
		UnknownCount                                               int  `json:"unknown_count"`
		TestSites                                                  int  `json:"test_sites"`
		TestChains                                                 int  `json:"test_chains"`
		WorstSite                                                  *ref `json:"worst_site"`
		WorstChain                                                 *struct {
			Function, Pos string
			Deepest       string `json:"deepest_dependency"`
			Product       struct{ Text string }
		} `json:"worst_chain"`
		WorstDependency *struct {
			Name  string
			Worst struct{ Text string }
		} `json:"worst_dependency"`
		UnboundedSites []ref `json:"unbounded_sites"`
	}
	Dependencies []struct {
		Name, Kind        string
		Sites, Unbudgeted int
		Worst             struct{ Text string }
		WorstBound        struct{ Text string } `json:"worst_bound"`
		WorstChain        *ref                  `json:"worst_chain"`
	}
	Sites  []site
	Chains []chain
	Tests  struct {
		Sites  []site
		Chains []chain
	}
}

type ref struct {
	Pos, Function, Dependency string
	Total                     struct{ Text string }
}

type site struct {
	Pos, Function, Package, Status, Dependency, Fingerprint string
	Bound                                                   struct{ Kind, Text string }
	Total                                                   struct{ Kind, Text string }
	Suppressed                                              *struct{ Directive, Reason string }
	InBaseline                                              bool `json:"in_baseline"`
	Test                                                    bool
}

type chain struct {
	Function, Pos string
	Deepest       string `json:"deepest_dependency"`
	Product       struct{ Text string }
	Steps         []struct{ Function string }
}

func parseReport(t *testing.T, out string) *report {
	t.Helper()
	var rep report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%.500s", err, out)
	}
	return &rep
}

// TestAuditNumbers checks the reference points of the design in the JSON
// report: 27 (3 per layer), 64 (4 per layer), 1.33 (a 10% budget per hop).
func TestAuditNumbers(t *testing.T) {
	rep := parseReport(t, auditOutput(t, "json"))
	products := map[string]string{}
	for _, c := range rep.Chains {
		products[c.Function] = fmt.Sprintf("%s/%d", c.Product.Text, len(c.Steps))
	}
	for fn, want := range map[string]string{
		"gateway.(*Server).ServeHTTP":      "27/3",
		"gateway.(*Server).Handle4":        "64/3",
		"gateway.(*Server).HandleBudgeted": "1.33/3",
		"gateway.(*Server).HandleHelper":   "27/3",
		"gateway.(*Server).HandleVia":      "≥9/2",
	} {
		if products[fn] != want {
			t.Errorf("chain from %s: %q (product/steps), want %q", fn, products[fn], want)
		}
	}
	if w := rep.Summary.WorstChain; w == nil || w.Function != "gateway.(*Server).Handle4" || w.Deepest != "db" {
		t.Errorf("worst chain %+v, want gateway.(*Server).Handle4 ending at db", w)
	}
}

// TestAuditDependencies checks the per-dependency table of the shop: db
// receives the 64 calls of the worst chain; its worst bound is Post4's 4.
func TestAuditDependencies(t *testing.T) {
	rep := parseReport(t, auditOutput(t, "json"))
	if len(rep.Dependencies) == 0 {
		t.Fatal("no dependencies")
	}
	d := rep.Dependencies[0]
	if d.Name != "db" || d.Sites != 4 || d.Unbudgeted != 3 || d.Worst.Text != "64" || d.WorstBound.Text != "4 attempts" ||
		d.WorstChain == nil || d.WorstChain.Function != "gateway.(*Server).Handle4" {
		t.Errorf("first dependency %+v, want db: 4 sites, 3 unbudgeted, worst 64 from gateway.(*Server).Handle4, worst bound 4 attempts", d)
	}
	names := map[string]bool{}
	for _, d := range rep.Dependencies {
		if names[d.Name+"/"+d.Kind] {
			t.Errorf("dependency %s listed twice", d.Name)
		}
		names[d.Name+"/"+d.Kind] = true
	}
	if w := rep.Summary.WorstDependency; w == nil || w.Name != "db" || w.Worst.Text != "64" {
		t.Errorf("worst dependency %+v, want db with 64", w)
	}
	text := auditOutput(t, "text")
	if !strings.Contains(text, "worst dependency: db, up to 64 calls per request") {
		t.Errorf("the text summary does not name the worst dependency:\n%.600s", text)
	}
}

// TestAuditGoroutineChain: a reconnect loop that Conn.connect starts as
// a goroutine does not multiply the retries of Open and Publish: the chain
// is 4 × 3 = 12 at the broker, not 4 × 3 × unbounded.
func TestAuditGoroutineChain(t *testing.T) {
	rep := parseReport(t, opsOutput(t, "json"))
	var found bool
	for _, c := range rep.Chains {
		if c.Function == "api.(*Server).Publish" {
			found = true
			if c.Product.Text != "12" || len(c.Steps) != 2 {
				t.Errorf("chain from Publish: %s over %d steps, want 12 over 2 (the reconnect goroutine is no step)", c.Product.Text, len(c.Steps))
			}
		}
	}
	if !found {
		t.Error("no chain from api.(*Server).Publish")
	}
	for _, s := range rep.Sites {
		if s.Function == "conn.(*Conn).Open" && s.Total.Text != "3" {
			t.Errorf("conn.(*Conn).Open: %s calls, want 3", s.Total.Text)
		}
		if s.Total.Kind == "unbounded" && s.Function != "conn.(*Conn).reconnect" {
			t.Errorf("%s at %s is unbounded: only the reconnect loop is", s.Function, s.Pos)
		}
	}
}

// TestAuditWorstFirst: the sites are sorted by risk (unbounded, then
// time-bounded, then the largest product), the summary of every format
// names the worst site, chain and dependency with positions and lists the
// unbounded sites, and a test file's site (50 × 3 = 150) is listed apart,
// never the headline.
func TestAuditWorstFirst(t *testing.T) {
	rep := parseReport(t, opsOutput(t, "json"))
	var order []string
	for _, s := range rep.Sites {
		order = append(order, s.Function+"="+s.Total.Text)
	}
	want := []string{
		"conn.(*Conn).reconnect=unbounded",
		"store.(*Store).Wait=time-bounded",
		"api.(*Server).Publish=12",
		"conn.(*Conn).Open=3",
		"api.(*Server).Read=2 × ?",
		"store.(*Store).Get=?",
		"store.(*Store).Warm=10", // suppressed: last
	}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("sites in the order\n%s\nwant\n%s", strings.Join(order, "\n"), strings.Join(want, "\n"))
	}
	s := rep.Summary
	if s.WorstSite == nil || s.WorstSite.Function != "conn.(*Conn).reconnect" || s.WorstSite.Pos != "conn/conn.go:21:2" || s.WorstSite.Dependency != "broker" {
		t.Errorf("worst site %+v, want conn.(*Conn).reconnect at conn/conn.go:21:2, to broker", s.WorstSite)
	}
	if len(s.UnboundedSites) != 1 || s.UnboundedSites[0].Pos != "conn/conn.go:21:2" || s.Unbounded != 1 || s.TimeBounded != 1 || s.UnknownCount != 1 {
		t.Errorf("unbounded sites %+v (%d), time-bounded %d, unknown %d; want conn/conn.go:21:2, 1, 1", s.UnboundedSites, s.Unbounded, s.TimeBounded, s.UnknownCount)
	}
	if s.WorstChain == nil || s.WorstChain.Function != "api.(*Server).Publish" {
		t.Errorf("worst chain %+v, want api.(*Server).Publish (12), not the test file's 150", s.WorstChain)
	}
	if s.TestSites != 1 || s.TestChains != 1 || len(rep.Tests.Sites) != 1 || rep.Tests.Sites[0].Function != "conn.waitOpen" || !rep.Tests.Sites[0].Test {
		t.Errorf("test files: %d sites, %d chains, %+v; want conn.waitOpen alone", s.TestSites, s.TestChains, rep.Tests.Sites)
	}
	for _, x := range rep.Sites {
		if strings.HasSuffix(strings.Split(x.Pos, ":")[0], "_test.go") {
			t.Errorf("test file site %s among the counted sites", x.Pos)
		}
	}
	// Every format names the worst site and chain with their positions.
	for _, format := range []string{"text", "markdown", "html"} {
		out := opsOutput(t, format)
		for _, want := range []string{"conn.(*Conn).reconnect", "conn/conn.go:21:2", "api.(*Server).Publish", "api/api.go:33:2", "broker"} {
			if !strings.Contains(out, want) {
				t.Errorf("-format %s: the summary does not name %s", format, want)
			}
		}
		head := out
		if i := strings.Index(out, "RETRY SITES"); i > 0 && format == "text" {
			head = out[:i]
		}
		if format == "text" && strings.Contains(strings.SplitN(head, "\n\n", 2)[0], "waitOpen") {
			t.Errorf("-format text: a test file's site in the summary:\n%s", head)
		}
	}
	sarif := opsOutput(t, "sarif")
	if !strings.Contains(sarif, "conn.(*Conn).reconnect: unbounded") && !strings.Contains(sarif, "in conn.(*Conn).reconnect: unbounded") {
		t.Errorf("the SARIF does not name the unbounded site's function and bound")
	}
	// The text table starts with the calls, whatever the widths.
	for _, line := range strings.Split(opsOutput(t, "text"), "\n") {
		if strings.HasPrefix(line, "CALLS") {
			continue
		}
		if strings.HasPrefix(line, "unbounded     conn/conn.go:21:2") {
			return
		}
	}
	t.Error("the text table of sites does not start with the calls column")
}

// TestAuditSuppressed: a site silenced by //lint:ignore fixedattempts is
// listed as suppressed with its reason and not counted as unbudgeted.
func TestAuditSuppressed(t *testing.T) {
	rep := parseReport(t, opsOutput(t, "json"))
	var warm *site
	for i, s := range rep.Sites {
		if s.Function == "store.(*Store).Warm" {
			warm = &rep.Sites[i]
		}
	}
	if warm == nil {
		t.Fatal("store.(*Store).Warm is not listed")
	}
	if warm.Status != "suppressed" || warm.Suppressed == nil || warm.Suppressed.Reason != "polled once at start-up, before traffic" ||
		!strings.HasPrefix(warm.Suppressed.Directive, "//lint:ignore fixedattempts") {
		t.Errorf("Warm: %+v, want suppressed with its reason", warm)
	}
	if rep.Summary.Suppressed != 1 || rep.Summary.Unbudgeted != 6 || rep.Summary.Sites != 7 {
		t.Errorf("summary: %d sites, %d unbudgeted, %d suppressed; want 7, 6, 1", rep.Summary.Sites, rep.Summary.Unbudgeted, rep.Summary.Suppressed)
	}
	if !strings.Contains(opsOutput(t, "text"), "suppressed: polled once at start-up, before traffic") {
		t.Error("the text report does not show the suppression's reason")
	}
	if !strings.Contains(opsOutput(t, "sarif"), `"justification": "polled once at start-up, before traffic"`) {
		t.Error("the SARIF result has no in-source suppression with the reason")
	}
}

// TestAuditBrokenTestFile: a test file that does not type-check costs its
// test variant only: the report covers the other packages, names the one
// that did not load with its error, and the status is 1.
func TestAuditBrokenTestFile(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "audit", "broken"))
	if err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := run(t, dir, "audit", "-format", "json", "./...")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	rep := parseReport(t, stdout)
	fns := map[string]bool{}
	for _, s := range rep.Sites {
		fns[s.Function] = true
	}
	if !fns["a.(*A).Fetch"] || !fns["b.(*B).Save"] {
		t.Errorf("sites %v, want a.(*A).Fetch and b.(*B).Save (package b itself loads)", fns)
	}
	if len(rep.NotAnalyzed) != 1 || rep.NotAnalyzed[0].Package != "example.com/broken/b [example.com/broken/b.test]" ||
		!strings.HasPrefix(rep.NotAnalyzed[0].Reason, "b/b_test.go:6:14: cannot use") {
		t.Errorf("not analyzed: %+v, want the test variant of b with its type error", rep.NotAnalyzed)
	}
	if !strings.Contains(stderr, "1 package was not analyzed (example.com/broken/b [example.com/broken/b.test]); the report covers the other 2") {
		t.Errorf("stderr does not say what was not analyzed:\n%s", stderr)
	}
	text, _, _ := run(t, dir, "audit", "./...")
	if !strings.Contains(text, "NOT ANALYZED\nexample.com/broken/b [example.com/broken/b.test]: b/b_test.go:6:14") ||
		!strings.Contains(text, "not analyzed: 1 package: example.com/broken/b [example.com/broken/b.test]") {
		t.Errorf("the text report does not name the package that did not load:\n%s", text)
	}
}

func TestAuditJSONSchema(t *testing.T) {
	schema, err := os.ReadFile("audit.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	broken, _ := filepath.Abs(filepath.Join("testdata", "audit", "broken"))
	brokenOut, _, _ := run(t, broken, "audit", "-format", "json", "./...")
	outs := map[string]string{"shop": auditOutput(t, "json"), "ops": opsOutput(t, "json"), "broken": brokenOut}
	for name, out := range outs {
		errs, err := rltest.ValidateJSON(schema, []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Errorf("%s: %s", name, e)
		}
	}
	// The schema is strict: what the report never writes, it rejects.
	ops := outs["ops"]
	noNumber := regexp.MustCompile(`("kind": "count",)\s*"n": [0-9]+,`).ReplaceAllString(ops, "$1")
	if errs, _ := rltest.ValidateJSON(schema, []byte(noNumber)); noNumber == ops || len(errs) == 0 {
		t.Error("the schema accepts a count bound with neither a number nor an expression")
	}
	for _, bad := range []struct{ what, from, to string }{
		{"a bound text with nothing before attempts", `"text": "3 attempts"`, `"text": " attempts"`},
		{"a suppressed site without its directive", `"status": "unbudgeted"`, `"status": "suppressed"`},
		{"an unknown field", `"tool": "retrylint",`, `"tool": "retrylint", "extra": 1,`},
		{"another schema URL", `"$schema": "https://raw.githubusercontent.com/retrylint/retrylint/main/cmd/retrylint/audit.schema.json"`, `"$schema": "https://example.com/x.json"`},
		{"a fingerprint that is not one", `"fingerprint": "`, `"fingerprint": "x`},
	} {
		mutated := strings.Replace(ops, bad.from, bad.to, 1)
		if mutated == ops {
			t.Errorf("%s: %q is not in the report", bad.what, bad.from)
			continue
		}
		if errs, _ := rltest.ValidateJSON(schema, []byte(mutated)); len(errs) == 0 {
			t.Errorf("the schema accepts %s", bad.what)
		}
	}
	// $schema names the schema's own $id: the raw file of the repository,
	// which serves the schema itself, at the path it has here.
	var s struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatal(err)
	}
	rep := parseReport(t, ops)
	if rep.Schema != s.ID || !strings.HasPrefix(s.ID, "https://raw.githubusercontent.com/retrylint/retrylint/main/") ||
		!strings.HasSuffix(s.ID, "/cmd/retrylint/audit.schema.json") {
		t.Errorf("$schema %q, schema $id %q: want the raw URL of cmd/retrylint/audit.schema.json", rep.Schema, s.ID)
	}
}

// TestAuditSARIFSchema validates the audit's SARIF against the official
// SARIF 2.1.0 schema (testdata/sarif-2.1.0.json, from the OASIS standard
// as the Microsoft SARIF Multitool ships it), and checks what GitHub code
// scanning requires besides.
func TestAuditSARIFSchema(t *testing.T) {
	schema, err := os.ReadFile(filepath.Join("testdata", "sarif-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"shop": auditOutput(t, "sarif"), "ops": opsOutput(t, "sarif")} {
		errs, err := rltest.ValidateJSON(schema, []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range errs {
			t.Errorf("%s: %s", name, e)
		}
	}
	out := auditOutput(t, "sarif")
	// The validator must reject what the schema forbids.
	bad := strings.Replace(out, `"level": "warning"`, `"level": "high"`, 1)
	if errs, _ := rltest.ValidateJSON(schema, []byte(bad)); len(errs) == 0 {
		t.Error("a SARIF log with level high passed the schema check")
	}
	log := parseSARIF(t, out)
	if len(log.Runs) != 1 || log.Runs[0].Tool.Driver.Name != "retrylint" || len(log.Runs[0].Tool.Driver.Rules) == 0 {
		t.Fatalf("want one run by retrylint with rules, got %+v", log.Runs)
	}
	rules := map[string]bool{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		rules[r.ID] = true
	}
	for _, r := range log.Runs[0].Results {
		if !rules[r.RuleID] || r.Level == "" || r.Message.Text == "" || len(r.Locations) == 0 {
			t.Errorf("result %+v lacks a known ruleId, level, message or location", r)
		}
	}
}

type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct {
				Name  string
				Rules []struct{ ID string }
			}
		}
		Results []struct {
			RuleID              string
			Level               string
			Message             struct{ Text string }
			Locations           []json.RawMessage
			PartialFingerprints map[string]string
			BaselineState       string
		}
	}
}

func parseSARIF(t *testing.T, out string) *sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	return &log
}

// lookalikes has sites whose rule, file and message agree: two identical
// loops in two functions, and two in one function.
const lookalikes = `package m

import (
	"context"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

type S struct{ c *Client }

func (s *S) A(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *S) B(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *S) Twice(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = s.c.Get(ctx); err == nil {
			break
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ {
		if err = s.c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`

// TestAuditFingerprints: every SARIF result has a fingerprint of its own
// (sites whose rule, file and message agree included), and the
// fingerprints survive edits above the sites.
func TestAuditFingerprints(t *testing.T) {
	dir := module(t, map[string]string{"m.go": lookalikes})
	prints := func() map[string]string {
		stdout, stderr, code := run(t, dir, "audit", "-format", "sarif", "./...")
		if code != 0 {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		log := parseSARIF(t, stdout)
		out := map[string]string{} // fingerprint -> message
		msgs := map[string]int{}
		for _, r := range log.Runs[0].Results {
			fp := r.PartialFingerprints["retrylint/v2"]
			if fp == "" {
				t.Errorf("result %q has no retrylint/v2 fingerprint", r.Message.Text)
			}
			if prev, ok := out[fp]; ok {
				t.Errorf("results %q and %q share the fingerprint %s", prev, r.Message.Text, fp)
			}
			out[fp] = r.Message.Text
			msgs[r.Message.Text]++
		}
		if len(out) != 4 {
			t.Errorf("%d results, want 4 sites", len(out))
		}
		return out
	}
	before := prints()
	// Edit above the sites: a comment and a function.
	edited := strings.Replace(lookalikes, "type Client struct{}", "// Client is a client.\n// It has a method.\ntype Client struct{}\n\nfunc helper() {}", 1)
	if err := os.WriteFile(filepath.Join(dir, "m.go"), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	after := prints()
	for fp := range before {
		if _, ok := after[fp]; !ok {
			t.Errorf("fingerprint %s (%s) changed with an edit above it", fp, before[fp])
		}
	}
}

// TestAuditBaseline: sites recorded by -write-baseline are listed as known
// and not counted by the thresholds, also after edits above them; a new
// site is counted.
func TestAuditBaseline(t *testing.T) {
	dir := fixture(t, "ops")
	base := filepath.Join(t.TempDir(), "audit-baseline.json")
	if _, stderr, code := run(t, dir, "audit", "-write-baseline", base, "-max-unbudgeted", "0", "./..."); code != 0 {
		t.Fatalf("-write-baseline: exit %d (the thresholds are skipped when writing)\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, "audit", "-baseline", base, "-max-unbudgeted", "0", "-max-amplification", "1", "./..."); code != 0 {
		t.Fatalf("-baseline on unchanged code: exit %d, want 0\n%s", code, stderr)
	}
	// Edit above every site of store.go, and add a site to api.go.
	store := filepath.Join(dir, "store", "store.go")
	data, _ := os.ReadFile(store)
	os.WriteFile(store, bytes.Replace(data, []byte("type DB struct{}"), []byte("// DB is the database.\n//\n// It is slow.\ntype DB struct{}"), 1), 0o644)
	api := filepath.Join(dir, "api", "api.go")
	data, _ = os.ReadFile(api)
	os.WriteFile(api, append(data, []byte(`
// Delete is new: 2 attempts.
func (s *Server) Delete(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ {
		if err = s.conn.Open(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`)...), 0o644)
	stdout, stderr, code := run(t, dir, "audit", "-baseline", base, "-max-unbudgeted", "0", "-format", "json", "./...")
	if code != 3 || !strings.Contains(stderr, "1 retry site has no budget, more than -max-unbudgeted 0") {
		t.Errorf("a new site with -baseline: exit %d, stderr %q; want 3 and one site", code, stderr)
	}
	rep := parseReport(t, stdout)
	for _, s := range rep.Sites {
		if known := s.Function != "api.(*Server).Delete"; s.InBaseline != known {
			t.Errorf("%s at %s: in_baseline %v, want %v", s.Function, s.Pos, s.InBaseline, known)
		}
	}
	if rep.Summary.InBaseline != 6 {
		t.Errorf("summary: %d in the baseline, want 6 (the suppressed site does not count)", rep.Summary.InBaseline)
	}
	sarif, _, _ := run(t, dir, "audit", "-baseline", base, "-format", "sarif", "./...")
	states := map[string]int{}
	for _, r := range parseSARIF(t, sarif).Runs[0].Results {
		states[r.BaselineState]++
	}
	if states["new"] != 2 || states["unchanged"] == 0 || states[""] != 0 {
		t.Errorf("SARIF baseline states %v, want 2 new (the site and its chain), the rest unchanged", states)
	}
	// A file that is not a baseline is an error, not an empty baseline.
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"version": 1, "tool": "retrylint", "findings": []}`), 0o644)
	if _, stderr, code := run(t, dir, "audit", "-baseline", bad, "./..."); code != 1 || !strings.Contains(stderr, "not a baseline written by retrylint audit") {
		t.Errorf("a lint baseline given to the audit: exit %d, stderr %q", code, stderr)
	}
}

// gate has nested retries whose counts come from configuration, and one
// that retries until a deadline.
const gate = `package m

import (
	"context"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

type S struct {
	c          *Client
	tries, max int
}

func (s *S) inner(ctx context.Context) error {
	var err error
	for i := 0; i < s.max; i++ {
		if err = s.c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *S) Outer(ctx context.Context) error {
	var err error
	for i := 0; i < s.tries; i++ {
		if err = s.inner(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
`

const deadline = `package m

import (
	"context"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

func Wait(ctx context.Context, c *Client) error {
	for ctx.Err() == nil {
		if err := c.Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return ctx.Err()
}
`

func TestAuditThresholds(t *testing.T) {
	dir := shopDir(t)
	_, stderr, code := run(t, dir, "audit", "-max-amplification", "10", "./...")
	if code != 3 || !strings.Contains(stderr, "gateway.(*Server).Handle4 at gateway/gateway.go:35:2 can send 64 calls per request to db, more than -max-amplification 10 (4 sites over the limit)") {
		t.Errorf("-max-amplification 10: exit %d, stderr %q; want 3 and the worst site named", code, stderr)
	}
	if _, stderr, code = run(t, dir, "audit", "-max-amplification", "64", "-format", "json", "./..."); code != 0 {
		t.Errorf("-max-amplification 64: exit %d, want 0\n%s", code, stderr)
	}
	_, stderr, code = run(t, dir, "audit", "-max-unbudgeted", "2", "./...")
	if code != 3 || !strings.Contains(stderr, "13 retry sites have no budget, more than -max-unbudgeted 2") {
		t.Errorf("-max-unbudgeted 2: exit %d, stderr %q", code, stderr)
	}
	if _, stderr, code = run(t, dir, "audit", "./nosuch/..."); code != 1 {
		t.Errorf("a pattern matching nothing: exit %d, want 1\n%s", code, stderr)
	}
	for _, args := range [][]string{{"-format", "pdf"}, {"-max-unknown", "x"}, {"-format", "text,json"}, {"-o", "a", "-o", "b", "-format", "text,json,csv"}, {"-link-template", "https://x/"}} {
		if _, _, code := run(t, dir, append(append([]string{"audit"}, args...), "./...")...); code != 2 {
			t.Errorf("audit %v: exit %d, want 2", args, code)
		}
	}

	// Nested retries with counts from configuration: not comparable, so
	// -max-amplification 1 fails unless -max-unknown allows them.
	m := module(t, map[string]string{"m.go": gate})
	_, stderr, code = run(t, m, "audit", "-max-amplification", "1", "./...")
	if code != 3 || !strings.Contains(stderr, "2 sites cannot be compared with a limit, more than -max-unknown 0 allows; the first, m.(*S).") || !strings.Contains(stderr, "sends an unknown number of calls per request: its number of calls is not known") {
		t.Errorf("-max-amplification 1 on nested configured retries: exit %d, stderr %q; want 3", code, stderr)
	}
	if _, stderr, code = run(t, m, "audit", "-max-amplification", "1", "-max-unknown", "2", "./..."); code != 0 {
		t.Errorf("-max-unknown 2 allows both: exit %d\n%s", code, stderr)
	}
	// A time-bounded retry does not fail every limit.
	d := module(t, map[string]string{"m.go": deadline})
	if _, stderr, code = run(t, d, "audit", "-max-amplification", "1000000", "-max-unknown", "1", "./..."); code != 0 {
		t.Errorf("-max-amplification 1e6 on a time-bounded retry allowed by -max-unknown: exit %d\n%s", code, stderr)
	}
	_, stderr, code = run(t, d, "audit", "-max-amplification", "1000000", "./...")
	if code != 3 || !strings.Contains(stderr, "it retries until a deadline") {
		t.Errorf("-max-amplification 1e6 on a time-bounded retry: exit %d, stderr %q; want 3 through -max-unknown", code, stderr)
	}
	// A known part beyond the limit exceeds it, whatever the rest.
	ops, _ := filepath.Abs(filepath.Join("testdata", "audit", "ops"))
	_, stderr, code = run(t, ops, "audit", "-pkg", "example.com/ops/api", "-max-amplification", "1", "-max-unknown", "9", "./...")
	if code != 3 || !strings.Contains(stderr, "api.(*Server).Publish at api/api.go:33:2 can send 12 calls per request") || !strings.Contains(stderr, "(2 sites over the limit)") {
		t.Errorf("-max-amplification 1 on 12 and 2 × ?: exit %d, stderr %q", code, stderr)
	}
}

// TestAuditOutputFirst: -o is opened before the analysis: a path that
// cannot be written fails at once, before anything is loaded.
func TestAuditOutputFirst(t *testing.T) {
	dir := shopDir(t)
	start := time.Now()
	_, stderr, code := run(t, dir, "audit", "-progress", "always", "-o", filepath.Join(t.TempDir(), "no", "such", "dir", "a.txt"), "./...")
	if code != 1 || !strings.Contains(stderr, "no such file or directory") || strings.Contains(stderr, "loading") || strings.Contains(stderr, "analyzing") {
		t.Errorf("a bad -o: exit %d, stderr %q; want 1 before loading", code, stderr)
	}
	t.Logf("a bad -o failed in %v", time.Since(start))
}

// TestAuditFormatsOneRun: one run writes every format, the same bytes as
// one run per format, to a directory or to one file per format.
func TestAuditFormatsOneRun(t *testing.T) {
	dir := shopDir(t)
	out := t.TempDir()
	if _, stderr, code := run(t, dir, "audit", "-format", "text,json,html,sarif,markdown,csv", "-o", out, "./..."); code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for format, file := range map[string]string{"text": "audit.txt", "json": "audit.json", "sarif": "audit.sarif", "markdown": "audit.md", "html": "audit.html", "csv": "audit.csv"} {
		data, err := os.ReadFile(filepath.Join(out, file))
		if err != nil {
			t.Error(err)
			continue
		}
		got := strings.ReplaceAll(string(data), "file://"+filepath.ToSlash(dir)+"/", "file:///SRCROOT/")
		if got != auditOutput(t, format) {
			t.Errorf("%s differs from -format %s alone:\n%s", file, format, lineDiff(auditOutput(t, format), got))
		}
	}
	a, b := filepath.Join(out, "one.json"), filepath.Join(out, "two.csv")
	if _, stderr, code := run(t, dir, "audit", "-format", "json,csv", "-o", a, "-o", b, "./..."); code != 0 {
		t.Fatalf("one -o per format: exit %d\n%s", code, stderr)
	}
	for file, format := range map[string]string{a: "json", b: "csv"} {
		data, _ := os.ReadFile(file)
		if string(data) != auditOutput(t, format) {
			t.Errorf("%s is not the %s report", file, format)
		}
	}
	// The CSV has one row per site, with the header.
	rows, err := csv.NewReader(strings.NewReader(auditOutput(t, "csv"))).ReadAll()
	if err != nil || len(rows) != 17 || rows[0][0] != "calls" || rows[1][0] != "64" {
		t.Errorf("csv: %d rows (%v), want a header and 16 sites, the worst first", len(rows), err)
	}
}

// TestAuditPkgFilter: -pkg lists the sites of matching packages only; the
// analysis (and so the products through other packages) is the same.
func TestAuditPkgFilter(t *testing.T) {
	all := parseReport(t, auditOutput(t, "json"))
	out := auditRun(t, shopDir(t), 0, "-format", "json", "-pkg", "example.com/shop/orders", "./...")
	rep := parseReport(t, out)
	if rep.Packages != all.Packages {
		t.Errorf("-pkg changed what was analyzed: %d packages, want %d", rep.Packages, all.Packages)
	}
	if len(rep.Sites) != 5 {
		t.Errorf("-pkg example.com/shop/orders: %d sites, want the 5 of orders", len(rep.Sites))
	}
	for _, s := range rep.Sites {
		if s.Package != "example.com/shop/orders" {
			t.Errorf("site of %s listed", s.Package)
		}
		if s.Function == "orders.(*Client).Get4" && s.Total.Text != "16" {
			t.Errorf("orders.(*Client).Get4: %s, want 16 (it still reaches ledger)", s.Total.Text)
		}
	}
	rep = parseReport(t, auditRun(t, shopDir(t), 0, "-format", "json", "-pkg", "example.com/shop/...", "-pkg", "nothing", "./..."))
	if len(rep.Sites) != len(all.Sites) {
		t.Errorf("-pkg example.com/shop/...: %d sites, want %d", len(rep.Sites), len(all.Sites))
	}
}

// TestAuditProgress checks that progress goes to stderr when asked (as it
// does by default on a terminal), names the loading and analysis phases
// with counts, uses correct plurals, and never goes into the report.
func TestAuditProgress(t *testing.T) {
	dir := module(t, map[string]string{"m.go": gate})
	stdout, stderr, code := run(t, dir, "audit", "-progress", "always", "-format", "json", "./...")
	if code != 0 || !json.Valid([]byte(stdout)) {
		t.Fatalf("exit %d, valid JSON on stdout %v\n%s", code, json.Valid([]byte(stdout)), stderr)
	}
	for _, want := range []string{"listing packages", "loading 1 package: compiling dependencies", "analyzing packages: ", "/1", "retrylint audit: 1 package, 2 retry sites, 1 chain in "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("progress lacks %q:\n%q", want, stderr)
		}
	}
	if regexp.MustCompile(`\b1 (packages|chains|retry sites)\b`).MatchString(stderr) {
		t.Errorf("a wrong plural: %q", stderr)
	}
}

// TestAuditDeterministic: the same report at any GOMAXPROCS, run after
// run, in every format.
func TestAuditDeterministic(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "audit", "ops"))
	for _, format := range []string{"json", "sarif", "csv"} {
		var first string
		for _, procs := range []string{"1", "2", "8", "8"} {
			stdout, stderr, code := runEnv(t, dir, []string{"GOWORK=off", "GOFLAGS=-mod=mod", "GOMAXPROCS=" + procs}, "audit", "-format", format, "./...")
			if code != 0 {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			if first == "" {
				first = stdout
			} else if stdout != first {
				t.Errorf("-format %s at GOMAXPROCS=%s differs:\n%s", format, procs, lineDiff(first, stdout))
			}
		}
	}
}

// genSites writes a module with about n retry sites over ten packages:
// loops bounded by a count (2 to 6 attempts), by time and by nothing,
// some budgeted, every third one reaching another, and a few
// suppressed; it returns the module's directory.
func genSites(t *testing.T, n int) string {
	dir := t.TempDir()
	write := func(name, text string) {
		path := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/gen\n\ngo 1.22\n")
	per := (n + 9) / 10
	for p := range 10 {
		// Package p0 has long names, for the layout.
		service, backend := "Service", "backend"
		if p == 0 {
			service, backend = "InventoryReservationServiceWithALongName", "warehouseInventoryBackendClient"
		}
		var b strings.Builder
		fmt.Fprintf(&b, "package p%d\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\n", p)
		fmt.Fprintf(&b, "type Dep struct{}\n\nfunc (d *Dep) Call(ctx context.Context) error { return nil }\n\ntype Budget struct{}\n\nfunc (b *Budget) TryRetry() bool { return true }\n\n")
		fmt.Fprintf(&b, "type %s struct {\n", service)
		for d := range 12 {
			fmt.Fprintf(&b, "\t%s%d *Dep\n", backend, d)
		}
		fmt.Fprintf(&b, "\tbudget *Budget\n\tmax int\n}\n\n")
		for i := range per {
			dep := fmt.Sprintf("s.%s%d.Call(ctx)", backend, i%12)
			if i%3 == 2 {
				dep = fmt.Sprintf("s.F%d(ctx)", i-1) // reaches the site before it
			}
			fmt.Fprintf(&b, "func (s *%s) F%d(ctx context.Context) error {\n\tvar err error\n", service, i)
			if i%37 == 5 {
				fmt.Fprintf(&b, "\t//lint:ignore fixedattempts generated case %d\n", i)
			}
			switch {
			case i%41 == 7:
				fmt.Fprintf(&b, "\tfor {\n\t\tif err = %s; err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n}\n\n", dep)
				continue
			case i%29 == 3:
				fmt.Fprintf(&b, "\tfor ctx.Err() == nil {\n")
			case i%23 == 4:
				fmt.Fprintf(&b, "\tfor i := 0; i < s.max; i++ {\n")
			default:
				fmt.Fprintf(&b, "\tfor i := 0; i < %d; i++ {\n", 2+i%5)
			}
			fmt.Fprintf(&b, "\t\tif err = %s; err == nil {\n\t\t\treturn nil\n\t\t}\n", dep)
			if i%7 == 1 {
				fmt.Fprintf(&b, "\t\tif !s.budget.TryRetry() {\n\t\t\treturn err\n\t\t}\n")
			}
			fmt.Fprintf(&b, "\t\ttime.Sleep(time.Second)\n\t}\n\treturn err\n}\n\n")
		}
		write(fmt.Sprintf("p%d/p.go", p), b.String())
	}
	return dir
}

// TestAuditMarkdownLimit: the markdown report of 600 sites fits in a
// GitHub comment (65,536 characters), lists the worst first and says how
// many were left out; asked for all, it still fits, and says so again.
func TestAuditMarkdownLimit(t *testing.T) {
	dir := genSites(t, 600)
	rep := parseReport(t, auditRun(t, dir, 0, "-format", "json", "./..."))
	if n := len(rep.Sites); n != 600 {
		t.Fatalf("the generated module has %d sites, want 600", n)
	}
	for _, c := range []struct {
		args []string
		note string
	}{
		{nil, "550 retry sites beyond the first 50"},
		{[]string{"-markdown-sites", "100000"}, "retry sites;"},
	} {
		out := auditRun(t, dir, 0, append([]string{"-format", "markdown"}, append(c.args, "./...")...)...)
		if n := len([]rune(out)); n > 65536 {
			t.Errorf("markdown %v: %d characters, more than GitHub's 65,536", c.args, n)
		}
		if !strings.Contains(out, "_Left out to stay within GitHub's comment limit: ") || !strings.Contains(out, c.note) {
			t.Errorf("markdown %v: no note of what was left out (want %q):\n%s", c.args, c.note, out[max(0, len(out)-400):])
		}
		if !strings.Contains(out, "| **unbounded** |") && !strings.Contains(out, "| unbounded |") {
			t.Errorf("markdown %v: the unbounded sites are not listed first", c.args)
		}
	}
}

// TestAuditLinkTemplate: with -link-template every site links to its file
// and line in the HTML and markdown reports.
func TestAuditLinkTemplate(t *testing.T) {
	dir := shopDir(t)
	tmpl := "https://github.com/org/shop/blob/main/{file}#L{line}"
	html := auditRun(t, dir, 0, "-format", "html", "-link-template", tmpl, "./...")
	md := auditRun(t, dir, 0, "-format", "markdown", "-link-template", tmpl, "./...")
	rep := parseReport(t, auditOutput(t, "json"))
	for _, s := range rep.Sites {
		file, line, _ := strings.Cut(s.Pos, ":")
		line, _, _ = strings.Cut(line, ":")
		want := "https://github.com/org/shop/blob/main/" + file + "#L" + line
		if !strings.Contains(html, `href="`+want+`"`) {
			t.Errorf("html: no link %s for %s", want, s.Pos)
		}
		if !strings.Contains(md, "]("+want+")") {
			t.Errorf("markdown: no link %s for %s", want, s.Pos)
		}
	}
	plain := auditOutput(t, "html")
	// The tests' outputs name the working directory SRCROOT.
	if !strings.Contains(plain, `href="file:///SRCROOT/gateway/gateway.go#L35"`) {
		t.Error("html without a template: no link to the file on this machine")
	}
}

// TestAuditHTMLChart: the chart's axis has numbers only; a chain with a
// step that is not a count draws it beyond the axis, labelled, not as a
// number.
func TestAuditHTMLChart(t *testing.T) {
	html := opsOutput(t, "html")
	start := strings.Index(html, "<svg")
	end := strings.Index(html, "</svg>")
	if start < 0 || end < start {
		t.Fatal("no chart")
	}
	svg := html[start:end]
	ticks := regexp.MustCompile(`text-anchor="middle">([^<]*)<`).FindAllStringSubmatch(svg, -1)
	if len(ticks) < 2 {
		t.Fatalf("%d axis ticks", len(ticks))
	}
	for _, m := range ticks {
		if !regexp.MustCompile(`^[0-9]+$`).MatchString(m[1]) {
			t.Errorf("axis tick %q is not a number", m[1])
		}
	}
	if !strings.Contains(svg, ">not a count</text>") || !strings.Contains(svg, `font-weight="600">?</text>`) {
		t.Error("the chain 2 × ? draws no '?' beyond the axis")
	}
}

// TestAuditHTMLChromium opens a 600-site HTML report in headless Chromium
// (see audit_chromium_test.go): it must log no console error, fetch nothing,
// keep the risk column in view at 1400 px, keep its header in view when
// scrolled, sort and filter, and load quickly. The screenshot is kept in
// $RETRYLINT_ARTIFACTS when set, else in the test's temporary directory,
// whose path is logged. Without chromium the test is skipped, unless
// RETRYLINT_E2E=1 (CI) makes it required.
func TestAuditHTMLChromium(t *testing.T) {
	browser := findChromium(t)
	dir := genSites(t, 600)
	out := auditRun(t, dir, 0, "-format", "html", "./...")
	if regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:|//)`).MatchString(out) {
		t.Error("the page references a remote resource")
	}
	artifacts := os.Getenv("RETRYLINT_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(artifacts, "audit.html")
	if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	b := startChromium(t, browser)
	// A blank page first: it warms the browser up, and its load time in
	// the same browser, under the same machine load, is the baseline.
	blank := filepath.Join(t.TempDir(), "blank.html")
	if err := os.WriteFile(blank, []byte("<!DOCTYPE html><html lang=en><title>blank</title><p>blank</p></html>"), 0o644); err != nil {
		t.Fatal(err)
	}
	b.open(t, "file://"+blank, 1400, 900)
	base := b.open(t, "file://"+blank, 1400, 900)
	res := b.open(t, "file://"+page, 1400, 900)
	t.Logf("load of the 600-site report: %.0f ms to the load event (navigation timing; %.0f ms wall from navigate to load); a blank page: %.0f ms; %d bytes of HTML",
		res.loadMS, res.wallMS, base.loadMS, len(out))
	m := res.metrics
	t.Logf("the renderer's time so far (cumulative over the pages): script %.0f ms, layout %.0f ms, style %.0f ms, tasks %.0f ms; %v nodes",
		1000*m["ScriptDuration"], 1000*m["LayoutDuration"], 1000*m["RecalcStyleDuration"], 1000*m["TaskDuration"], m["Nodes"])
	for _, e := range res.console {
		t.Errorf("console: %s", e)
	}
	for _, u := range res.requests {
		if u != "file://"+page {
			t.Errorf("the page fetched %s", u)
		}
	}
	// Generous: the measurement is logged above; 1 s is the goal, which
	// the page meets on an idle machine (0.4 to 0.9 s here with a load
	// average of 13 on 2 cores, once 3.9 s).
	if res.loadMS > 10000 {
		t.Errorf("the page took %.0f ms to load, far beyond the 1 s goal", res.loadMS)
	}
	checks := b.eval(t, `(function () {
  var t = document.getElementById("sites");
  var rows = t.tBodies[0].rows;
  var th = t.tHead.rows[0].cells;
  var r = {rows: rows.length, riskRight: th[0].getBoundingClientRect().right, riskText: th[0].textContent,
    scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth};
  // Without the last resort of breaking inside a word, every cell fits:
  // its text breaks at punctuation and between words only.
  var st = document.createElement("style");
  st.textContent = "table.sites td { overflow-wrap: normal !important; }";
  document.head.appendChild(st);
  var over = [], cells = t.querySelectorAll("tbody td");
  for (var i = 0; i < cells.length; i++) if (cells[i].scrollWidth > cells[i].clientWidth + 1) over.push(cells[i].textContent);
  r.overflowing = over.length; r.overflow0 = over[0] || "";
  st.remove();
  window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY + 3000);
  r.stickyTop = th[0].getBoundingClientRect().top;
  window.scrollTo(0, 0);
  th[1].click();
  var ps = [];
  for (var i = 0; i < rows.length; i++) ps.push(rows[i].cells[1].textContent.trim());
  r.sortedByPos = ps.every(function (p, i) { return i === 0 || ps[i - 1] <= p; });
  th[0].click();
  var ks = [];
  for (var i = 0; i < rows.length; i++) ks.push(parseFloat(rows[i].cells[0].getAttribute("data-k")));
  r.sortedByRisk = ks.every(function (k, i) { return i === 0 || ks[i - 1] >= k; });
  r.firstRisk = rows[0].cells[0].textContent;
  var sel = document.querySelector("select[name=dep]");
  sel.value = sel.options[1].value;
  sel.dispatchEvent(new Event("change", {bubbles: true}));
  var shown = 0, right = 0;
  for (var i = 0; i < rows.length; i++) {
    if (!rows[i].hidden) shown++;
    if (rows[i].getAttribute("data-deps").split("\t").indexOf(sel.value) >= 0) right++;
  }
  r.filtered = shown; r.filterWant = right; r.shownText = document.getElementById("shown").textContent;
  var kind = document.querySelector("select[name=bound]");
  kind.value = "unbounded"; sel.value = "";
  kind.dispatchEvent(new Event("change", {bubbles: true}));
  var ub = 0;
  for (var i = 0; i < rows.length; i++) if (!rows[i].hidden) { ub++; if (rows[i].getAttribute("data-bound") !== "unbounded") ub = -1e9; }
  r.unbounded = ub;
  var links = t.querySelectorAll("tbody a[href]");
  r.links = links.length; r.link0 = links[0].getAttribute("href");
  return JSON.stringify(r);
})()`)
	var c struct {
		Rows                      int
		RiskRight                 float64
		RiskText                  string
		ScrollWidth, InnerWidth   float64
		StickyTop                 float64
		SortedByPos, SortedByRisk bool
		FirstRisk                 string
		Filtered, FilterWant      int
		ShownText                 string
		Unbounded                 int
		Overflowing               int
		Overflow0                 string
		Links                     int
		Link0                     string
	}
	if err := json.Unmarshal([]byte(checks), &c); err != nil {
		t.Fatalf("%v: %s", err, checks)
	}
	t.Logf("page checks: %s", checks)
	if c.Rows != 600 {
		t.Errorf("%d rows in the sites table, want 600", c.Rows)
	}
	if c.RiskText != "calls" || c.RiskRight > 1400 || c.ScrollWidth > c.InnerWidth {
		t.Errorf("at 1400 px: the risk column %q ends at %.0f px, the page is %.0f px wide in a %.0f px window", c.RiskText, c.RiskRight, c.ScrollWidth, c.InnerWidth)
	}
	if c.StickyTop < -1 || c.StickyTop > 2 {
		t.Errorf("scrolled down the table, its header is at %.0f px, want it stuck at the top", c.StickyTop)
	}
	if !c.SortedByPos || !c.SortedByRisk || c.FirstRisk != "unbounded" {
		t.Errorf("sorting: by position %v, by risk %v (first %q)", c.SortedByPos, c.SortedByRisk, c.FirstRisk)
	}
	if c.Filtered == 0 || c.Filtered != c.FilterWant || c.Filtered == 600 || !strings.HasPrefix(c.ShownText, fmt.Sprintf("%d of 600", c.Filtered)) {
		t.Errorf("the dependency filter shows %d rows (%q), want the %d of that dependency", c.Filtered, c.ShownText, c.FilterWant)
	}
	if c.Overflowing != 0 {
		t.Errorf("%d cells of the sites table need a break inside a word at 1400 px, the first %q", c.Overflowing, c.Overflow0)
	}
	if c.Unbounded <= 0 {
		t.Errorf("the bound filter: %d unbounded rows shown", c.Unbounded)
	}
	if c.Links != 600 || !regexp.MustCompile(`^file:///SRCROOT/p[0-9]/p\.go#L[0-9]+$`).MatchString(c.Link0) {
		t.Errorf("%d links, the first %q; want one per site to its file and line", c.Links, c.Link0)
	}
	// The top of the page, and the sites table scrolled into view.
	for _, shot := range []struct{ file, scroll string }{
		{"audit.png", `window.scrollTo(0, 0); ""`},
		{"audit-sites.png", `document.querySelector("select[name=dep]").value = ""; document.querySelector("select[name=bound]").value = ""; document.getElementById("filters").dispatchEvent(new Event("change")); document.getElementById("sites").scrollIntoView(); window.scrollBy(0, 200); ""`},
	} {
		b.eval(t, shot.scroll)
		png := b.screenshot(t)
		path := filepath.Join(artifacts, shot.file)
		if err := os.WriteFile(path, png, 0o644); err != nil {
			t.Fatal(err)
		}
		if len(png) < 20000 {
			t.Errorf("screenshot %s is nearly empty (%d bytes)", path, len(png))
		}
		t.Logf("screenshot: %s", path)
	}
}

// TestAuditREADME: the summary docs/audit.md shows is the ops fixture's.
func TestAuditREADME(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "..", "docs", "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(opsOutput(t, "text"), "\n")
	head := strings.Join(lines[:7], "")
	if !strings.Contains(string(readme), "```\n"+head+"```\n") {
		t.Errorf("the audit summary of docs/audit.md is not the ops fixture's; it is:\n%s", head)
	}
}

// TestAuditPackageOverVariant: a site of a non-test file is listed as its
// package sees it, not as the test variant does (here a test file assigns
// the budget field another ratio, which makes the variant's ratio
// assumed), whatever the order the analysis finishes in.
func TestAuditPackageOverVariant(t *testing.T) {
	budgetDir, err := filepath.Abs(filepath.Join("..", "..", "budget"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, text := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n\nrequire github.com/retrylint/retrylint/budget v0.0.0\n\nreplace github.com/retrylint/retrylint/budget => " + budgetDir + "\n",
		"m.go": `package m

import (
	"context"

	"github.com/retrylint/retrylint/budget"
)

type Dep struct{}

func (d *Dep) Call(ctx context.Context) error { return nil }

type C struct {
	dep *Dep
	b   *budget.Budget
}

func New() *C { return &C{dep: &Dep{}, b: budget.New(budget.Ratio(0.2))} }

func (c *C) Get(ctx context.Context) error {
	var err error
	c.b.OnRequest()
	for i := 0; i < 5; i++ {
		if err = c.dep.Call(ctx); err == nil {
			return nil
		}
		if !c.b.TryRetry() {
			return err
		}
	}
	return err
}
`,
		"m_test.go": `package m

import (
	"testing"

	"github.com/retrylint/retrylint/budget"
)

func TestGet(t *testing.T) {
	c := New()
	c.b = budget.New(budget.Ratio(0.5))
	_ = c.Get(t.Context())
}
`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 {
		out := auditRun(t, dir, 0, "-format", "csv", "-p=false", "./...")
		delete(auditCache, dir+"\x00-format\x00csv\x00-p=false\x00./...")
		if !strings.Contains(out, "budget c.b.TryRetry, ratio 0.2") {
			t.Fatalf("the site's budget is not the package's ratio 0.2:\n%s", out)
		}
	}
}

// TestAuditDirectives: a //nolint's trailing comment is its reason; a
// //lint:ignore without a reason silences nothing, so its site counts.
func TestAuditDirectives(t *testing.T) {
	src := strings.Replace(lookalikes, "func (s *S) A(ctx context.Context) error {\n\tvar err error\n\tfor i := 0; i < 3; i++ {", "func (s *S) A(ctx context.Context) error {\n\tvar err error\n\tfor i := 0; i < 3; i++ { //nolint:retrylint // bounded by the deploy", 1)
	src = strings.Replace(src, "func (s *S) B(ctx context.Context) error {\n\tvar err error\n", "func (s *S) B(ctx context.Context) error {\n\tvar err error\n\t//lint:ignore fixedattempts\n", 1)
	if strings.Count(src, "//nolint") != 1 || strings.Count(src, "//lint:ignore") != 1 {
		t.Fatal("the directives were not inserted")
	}
	dir := module(t, map[string]string{"m.go": src})
	rep := parseReport(t, auditRun(t, dir, 0, "-format", "json", "./..."))
	status := map[string]string{}
	for _, s := range rep.Sites {
		reason := ""
		if s.Suppressed != nil {
			reason = s.Suppressed.Reason
		}
		status[s.Function] += s.Status + ":" + reason + " "
	}
	if status["m.(*S).A"] != "suppressed:bounded by the deploy " || status["m.(*S).B"] != "unbudgeted: " {
		t.Errorf("statuses %v; want A suppressed with its reason, B counted (a lint:ignore without a reason silences nothing)", status)
	}
}
