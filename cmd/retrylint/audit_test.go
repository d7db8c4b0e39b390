package main_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
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

// auditOutputs caches one run per format over the fixture.
var auditOutputs = map[string]string{}

func auditOutput(t *testing.T, format string) string {
	t.Helper()
	if out, ok := auditOutputs[format]; ok {
		return out
	}
	dir := shopDir(t)
	stdout, stderr, code := run(t, dir, "audit", "-format", format, "./...")
	if code != 0 {
		t.Fatalf("audit -format %s: exit %d\n%s", format, code, stderr)
	}
	if stderr != "" {
		t.Errorf("audit -format %s: stderr is not a terminal, want no output there, got:\n%s", format, stderr)
	}
	// The SARIF names the working directory as its source root.
	out := strings.ReplaceAll(stdout, "file://"+filepath.ToSlash(dir)+"/", "file:///SRCROOT/")
	auditOutputs[format] = out
	return out
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
	} {
		t.Run(f.format, func(t *testing.T) { golden(t, f.file, auditOutput(t, f.format)) })
	}
}

// TestAuditNumbers checks the reference points of the design in the JSON
// report: 27 (3 per layer), 64 (4 per layer), 1.33 (a 10% budget per hop).
func TestAuditNumbers(t *testing.T) {
	var rep struct {
		Summary struct {
			Sites, Unbudgeted, Chains int
			Worst                     struct{ Function string } `json:"worst_chain"`
		}
		Chains []struct {
			Function string
			Product  struct{ Text string }
			Steps    []struct{ Function string }
		}
	}
	if err := json.Unmarshal([]byte(auditOutput(t, "json")), &rep); err != nil {
		t.Fatal(err)
	}
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
	if rep.Summary.Worst.Function != "gateway.(*Server).Handle4" {
		t.Errorf("worst chain from %q, want gateway.(*Server).Handle4", rep.Summary.Worst.Function)
	}
}

func TestAuditJSONSchema(t *testing.T) {
	schema, err := os.ReadFile("audit.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	errs, err := rltest.ValidateJSON(schema, []byte(auditOutput(t, "json")))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Error(e)
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
	out := auditOutput(t, "sarif")
	errs, err := rltest.ValidateJSON(schema, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Error(e)
	}
	// The validator must reject what the schema forbids.
	bad := strings.Replace(out, `"level": "warning"`, `"level": "high"`, 1)
	if errs, _ := rltest.ValidateJSON(schema, []byte(bad)); len(errs) == 0 {
		t.Error("a SARIF log with level high passed the schema check")
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name  string
					Rules []struct{ ID string }
				}
			}
			Results []struct {
				RuleID    string
				Level     string
				Message   struct{ Text string }
				Locations []json.RawMessage
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
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

func TestAuditThresholds(t *testing.T) {
	dir := shopDir(t)
	_, stderr, code := run(t, dir, "audit", "-max-amplification", "10", "./...")
	if code != 1 || !strings.Contains(stderr, "64 calls per request to one dependency, more than -max-amplification 10") {
		t.Errorf("-max-amplification 10: exit %d, stderr %q; want 1 and the worst chain named", code, stderr)
	}
	_, stderr, code = run(t, dir, "audit", "-max-amplification", "64", "-format", "json", "./...")
	if code != 0 {
		t.Errorf("-max-amplification 64: exit %d, want 0\n%s", code, stderr)
	}
	_, stderr, code = run(t, dir, "audit", "-max-unbudgeted", "2", "./...")
	if code != 1 || !strings.Contains(stderr, "retry sites have no budget, more than -max-unbudgeted 2") {
		t.Errorf("-max-unbudgeted 2: exit %d, stderr %q", code, stderr)
	}
	_, stderr, code = run(t, dir, "audit", "./nosuch/...")
	if code != 1 {
		t.Errorf("a pattern matching nothing: exit %d, want 1\n%s", code, stderr)
	}
	_, _, code = run(t, dir, "audit", "-format", "pdf", "./...")
	if code != 2 {
		t.Errorf("-format pdf: exit %d, want 2", code)
	}
}

// TestAuditProgress checks that progress goes to stderr when asked (as it
// does by default on a terminal), and never into the report.
func TestAuditProgress(t *testing.T) {
	stdout, stderr, code := run(t, shopDir(t), "audit", "-progress", "always", "-format", "json", "./...")
	if code != 0 || !strings.Contains(stderr, "retry sites") || !json.Valid([]byte(stdout)) {
		t.Errorf("exit %d, stderr %q, valid JSON on stdout %v", code, stderr, json.Valid([]byte(stdout)))
	}
}

// TestAuditHTMLChromium opens the HTML report in headless Chromium: it must
// render (a screenshot of some size, the chart in the DOM), log no console
// error and fetch nothing from the network. The screenshot is kept in
// $RETRYLINT_ARTIFACTS when set, else in the test's temporary directory,
// whose path is logged. Without chromium the test is skipped, unless
// RETRYLINT_E2E=1 (CI) makes it required.
func TestAuditHTMLChromium(t *testing.T) {
	browser := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			browser = p
			break
		}
	}
	if browser == "" {
		if os.Getenv("RETRYLINT_E2E") == "1" {
			t.Fatal("RETRYLINT_E2E=1 but no chromium is installed (apt-get install -y chromium)")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium); set RETRYLINT_E2E=1 to require it")
	}
	out := auditOutput(t, "html")
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
	shot := filepath.Join(artifacts, "audit.png")
	netlog := filepath.Join(artifacts, "audit-netlog.json")
	if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	chrome := func(extra ...string) (string, string) {
		args := append([]string{
			"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
			"--disable-component-update", "--no-first-run", "--disable-sync", "--disable-extensions",
			"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
			"--window-size=1200,1400",
		}, extra...)
		args = append(args, "file://"+page)
		cmd := exec.Command(browser, args...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("%s: %v\n%s", browser, err, stderr.String())
			}
		case <-time.After(90 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%s did not finish in 90s\n%s", browser, stderr.String())
		}
		return stdout.String(), stderr.String()
	}
	dom, log1 := chrome("--dump-dom", "--log-net-log="+netlog)
	_, log2 := chrome("--screenshot=" + shot)
	if !strings.Contains(dom, "<svg") || !strings.Contains(dom, "gateway.(*Server).Handle4") {
		t.Errorf("the rendered DOM lacks the chart or the worst chain:\n%.2000s", dom)
	}
	for _, line := range strings.Split(log1+log2, "\n") {
		if strings.Contains(line, "CONSOLE") || strings.Contains(line, "Content Security Policy") || strings.Contains(line, "Refused to") {
			t.Errorf("console: %s", line)
		}
	}
	// The page must fetch nothing: every request a document initiated
	// (the browser's own background requests have no initiator) is for
	// the page itself.
	data, err := os.ReadFile(netlog)
	if err != nil {
		t.Fatalf("no net log: %v", err)
	}
	urls, err := pageRequests(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range urls {
		if !strings.HasPrefix(u, "file://") && !strings.HasPrefix(u, "data:") {
			t.Errorf("the page fetched %s", u)
		}
	}
	fi, err := os.Stat(shot)
	if err != nil || fi.Size() < 20000 {
		t.Fatalf("screenshot %s missing or nearly empty (%v)", shot, err)
	}
	t.Logf("screenshot: %s", shot)
}

// pageRequests returns the URLs of the requests a document initiated, from
// a Chromium net log (--log-net-log).
func pageRequests(netlog []byte) ([]string, error) {
	var log struct {
		Constants struct {
			LogEventTypes map[string]int `json:"logEventTypes"`
		} `json:"constants"`
		Events []struct {
			Type   int             `json:"type"`
			Params json.RawMessage `json:"params"`
		} `json:"events"`
	}
	if err := json.Unmarshal(netlog, &log); err != nil {
		return nil, fmt.Errorf("net log: %v", err)
	}
	start, ok := log.Constants.LogEventTypes["URL_REQUEST_START_JOB"]
	if !ok {
		return nil, fmt.Errorf("net log has no URL_REQUEST_START_JOB event type")
	}
	var urls []string
	for _, e := range log.Events {
		if e.Type != start || e.Params == nil {
			continue
		}
		var p struct{ URL, Initiator string }
		if err := json.Unmarshal(e.Params, &p); err != nil {
			return nil, err
		}
		if p.Initiator != "" && p.Initiator != "not an origin" {
			urls = append(urls, p.URL)
		}
	}
	return urls, nil
}
