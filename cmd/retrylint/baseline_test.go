package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const baselined = `package p

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

func (c *Client) poll(ctx context.Context) error {
	for i := 0; i < 5; i++ {
		if err := c.Get(ctx); err == nil {
			return nil
		}
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

// sarifFingerprints returns the lines and fingerprints of -sarif's results.
func sarifFingerprints(t *testing.T, dir string, args ...string) map[int]string {
	t.Helper()
	out, stderr, code := run(t, dir, append([]string{"-sarif"}, args...)...)
	if code != 0 {
		t.Fatalf("-sarif: exit %d, stderr:\n%s", code, stderr)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						Region struct{ StartLine int }
					}
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	got := map[int]string{}
	for _, r := range log.Runs[0].Results {
		got[r.Locations[0].PhysicalLocation.Region.StartLine] = r.PartialFingerprints["retrylint/v2"]
	}
	return got
}

// TestBaseline records the findings of a package, edits it as people do
// (lines added above, a comment and spacing on the reported line, a new
// loop, a pasted copy, a loop removed) and checks what -baseline reports.
func TestBaseline(t *testing.T) {
	dir := module(t, map[string]string{"p/p.go": baselined})
	file := filepath.Join(dir, "p", "p.go")
	base := filepath.Join(dir, "retrylint-baseline.json")
	edit := func(old, new string) {
		t.Helper()
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), old) {
			t.Fatalf("p.go has no %q", old)
		}
		if err := os.WriteFile(file, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fpBefore := sarifFingerprints(t, dir, "./...")
	if len(fpBefore) != 2 {
		t.Fatalf("want 2 SARIF results, got %v", fpBefore)
	}

	stdout, stderr, code := run(t, dir, "-write-baseline", base, "./...")
	if code != 0 || stdout != "" || stderr != "retrylint: recorded 2 findings in "+base+"\n" {
		t.Fatalf("-write-baseline: exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Findings []struct{ Fingerprint, Pass, File, Function, Message string }
	}
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatal(err)
	}
	if len(b.Findings) != 2 || b.Findings[0].Function != "(*Client).poll" || b.Findings[1].Function != "get" ||
		b.Findings[0].File != "example.com/m/p/p.go" || b.Findings[0].Pass != "fixedattempts" || strings.Contains(string(data), `"line"`) {
		t.Errorf("baseline file:\n%s", data)
	}
	// The baseline's keys are the SARIF fingerprints.
	for _, fp := range fpBefore {
		if !strings.Contains(string(data), `"fingerprint": "`+fp+`"`) {
			t.Errorf("SARIF fingerprint %s is not in the baseline:\n%s", fp, data)
		}
	}

	_, stderr, code = run(t, dir, "-baseline", base, "./...")
	if code != 0 || stderr != "retrylint: 2 findings left out, as "+base+" holds them\n" {
		t.Errorf("-baseline, unchanged code: exit %d, stderr:\n%s", code, stderr)
	}

	// Lines above, a comment and spacing on the reported line, a change
	// elsewhere in the function: the same findings.
	edit("type Client struct{}", "// Client is a client.\n//\n// It gets.\ntype Client struct{}\n\nfunc helper() int { return 1 }\n")
	edit("\tfor i := 0; i < 3; i++ {", "\tfor i := 0;  i < 3; i++ { // three tries")
	edit("return errors.New(\"gave up\")\n}\n\nfunc (c *Client) poll", "return errors.New(\"gave up after 3\")\n}\n\nfunc (c *Client) poll")
	fpAfter := sarifFingerprints(t, dir, "./...")
	if len(fpAfter) != 2 {
		t.Fatalf("after the edits: %v", fpAfter)
	}
	for line, fp := range fpBefore {
		if fpAfter[line] == fp {
			t.Errorf("the finding of line %d is still on line %d: the edit did not move it", line, line)
		}
		found := false
		for _, fp2 := range fpAfter {
			found = found || fp2 == fp
		}
		if !found {
			t.Errorf("fingerprint %s (line %d) changed with edits above it and on its line: %v", fp, line, fpAfter)
		}
	}
	_, stderr, code = run(t, dir, "-baseline", base, "./...")
	if code != 0 || strings.Contains(stderr, "retry loop") {
		t.Errorf("-baseline after edits above: exit %d, stderr:\n%s", code, stderr)
	}

	// A new loop, and a copy of get's loop pasted below it: both new.
	edit("func get(ctx context.Context, c *Client) error {\n", `func fresh(ctx context.Context, c *Client) error {
	for i := 0; i < 4; i++ {
		if err := c.Get(ctx); err == nil {
			return nil
		}
	}
	return nil
}

func get(ctx context.Context, c *Client) error {
`)
	edit("\treturn errors.New(\"gave up after 3\")", "\tfor i := 0; i < 3; i++ {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t}\n\treturn errors.New(\"gave up after 3\")")
	_, stderr, code = run(t, dir, "-baseline", base, "./...")
	if code != 3 || strings.Count(stderr, "retry loop makes up to 4 attempts") != 1 || strings.Count(stderr, "retry loop makes up to 3 attempts") != 1 ||
		strings.Count(stderr, "attempts with no retry budget") != 2 || !strings.HasSuffix(stderr, "retrylint: 2 findings left out, as "+base+" holds them\n") {
		t.Errorf("-baseline with two new loops: exit %d, want 3 and the two new ones; stderr:\n%s", code, stderr)
	}
	// The copy is the second of its kind in get: the one reported is the
	// pasted one, below the original.
	lines := strings.Split(readFile(t, file), "\n")
	pasted := 0
	for i, l := range lines {
		if l == "\tfor i := 0; i < 3; i++ {" {
			pasted = i + 1
		}
	}
	if !strings.Contains(stderr, "p.go:"+strconv.Itoa(pasted)+":2: retry loop makes up to 3 attempts") {
		t.Errorf("want the pasted loop (line %d) reported; stderr:\n%s", pasted, stderr)
	}
	// -json and -sarif leave the recorded findings out too.
	out, _, _ := run(t, dir, "-json", "-baseline", base, "./...")
	if strings.Count(out, `"posn"`) != 2+2*2 { // two findings, each with its attempt and why it has no fix
		t.Errorf("-json -baseline:\n%s", out)
	}
	if fps := sarifFingerprints(t, dir, "-baseline", base, "./..."); len(fps) != 2 {
		t.Errorf("-sarif -baseline: %v", fps)
	}

	// poll's loop fixed: its entry is stale.
	edit("\tfor i := 0; i < 5; i++ {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t}\n", "\tif err := c.Get(ctx); err == nil {\n\t\treturn nil\n\t}\n")
	_, stderr, _ = run(t, dir, "-baseline", base, "./...")
	if !strings.HasSuffix(stderr, "retrylint: 1 finding left out, as "+base+" holds it; 1 of its entries matches nothing now (run -write-baseline to drop it)\n") {
		t.Errorf("-baseline with a fixed finding: stderr:\n%s", stderr)
	}

	// Bad baselines and flags.
	if _, stderr, code := run(t, dir, "-baseline", filepath.Join(dir, "nosuch.json"), "./..."); code != 1 || !strings.HasPrefix(stderr, "retrylint: -baseline: open ") {
		t.Errorf("missing baseline: exit %d, stderr:\n%s", code, stderr)
	}
	os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"findings": 3}`), 0o644)
	if _, stderr, code := run(t, dir, "-baseline", filepath.Join(dir, "bad.json"), "./..."); code != 1 || !strings.Contains(stderr, "not a retrylint baseline") {
		t.Errorf("malformed baseline: exit %d, stderr:\n%s", code, stderr)
	}
	if _, stderr, code := run(t, dir, "-write-baseline", base, "-json", "./..."); code != 2 || !strings.Contains(stderr, "-write-baseline writes the baseline and nothing else") {
		t.Errorf("-write-baseline -json: exit %d, stderr:\n%s", code, stderr)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestBaselineREADME checks that the baseline entry the README shows is
// what -write-baseline writes for the shop module of analysistest.
func TestBaselineREADME(t *testing.T) {
	readme := readFile(t, "../../README.md")
	start := strings.Index(readme, "    {\n      \"fingerprint\": ")
	if start < 0 {
		t.Fatal("README.md shows no baseline entry")
	}
	entry := readme[start : start+strings.Index(readme[start:], "\n    }")+len("\n    }")]
	dir := t.TempDir()
	repo, _ := filepath.Abs("../..")
	copyTree(t, filepath.Join(repo, "analysistest", "testdata", "shop"), dir)
	gomod := strings.Replace(readFile(t, filepath.Join(dir, "go.mod")), "=> ../../../budget", "=> "+filepath.Join(repo, "budget"), 1)
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomod), 0o644)
	base := filepath.Join(dir, "b.json")
	if _, stderr, code := run(t, dir, "-write-baseline", base, "./..."); code != 0 {
		t.Fatalf("-write-baseline: exit %d, stderr:\n%s", code, stderr)
	}
	if got := readFile(t, base); !strings.Contains(got, entry) {
		t.Errorf("the README's entry\n%s\nis not in what -write-baseline wrote for the shop:\n%s", entry, got)
	}
}

// copyTree copies the regular files below from to to.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.Walk(from, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}
