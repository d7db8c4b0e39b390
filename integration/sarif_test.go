package integration_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// npmTools returns the directory where .ci/run installs the npm tools of
// integration/tools/package.json.
func npmTools(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("RETRYLINT_E2E_NPM"); dir != "" {
		return dir
	}
	return filepath.Join(cacheDir(t), "npm")
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// validateSARIF checks the SARIF file at path against the SARIF 2.1.0 JSON
// schema (the copy the SARIF SDK's npm package ships) with ajv, and, when
// github is set, against GitHub code scanning's ingestion rules and the
// SARIF SDK's own rules with the SARIF Multitool: every error or warning
// fails the test.
func validateSARIF(t *testing.T, path string, github bool) {
	t.Helper()
	npm := npmTools(t)
	ajv := filepath.Join(npm, "node_modules", ".bin", "ajv")
	schema := filepath.Join(npm, "node_modules", "@microsoft", "sarif-multitool-linux", "sarif-2.1.0.json")
	multitool := filepath.Join(npm, "node_modules", "@microsoft", "sarif-multitool-linux", "Sarif.Multitool")
	need(t, exists(ajv) && exists(schema) && exists(multitool),
		"ajv, the SARIF schema or the SARIF Multitool under %s (install: cp integration/tools/package*.json %s && cd %s && npm ci)", npm, npm, npm)

	// ajv chooses its parser by extension.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(doc, data, 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, npm, nil, ajv, "validate", "--spec=draft2020", "--strict=false", "-c", "ajv-formats", "-s", schema, "-d", doc)
	if r.code != 0 || !strings.Contains(r.stdout+r.stderr, "report.json valid") {
		t.Errorf("SARIF schema check (ajv): %s", r)
	} else {
		t.Logf("ajv: %s", strings.TrimSpace(r.stdout+r.stderr))
	}
	if !github {
		return
	}
	os.Chmod(multitool, 0o755) // npm may skip the package's postinstall
	out := filepath.Join(t.TempDir(), "validation.sarif")
	r = run(t, npm, []string{"DOTNET_CLI_TELEMETRY_OPTOUT=1"}, multitool, "validate", doc, "--rule-kind", "Gh;Sarif", "--output", out, "--log", "ForceOverwrite")
	if r.code != 0 {
		t.Fatalf("SARIF Multitool: %s", r)
	}
	// The Multitool exits 0 whatever it finds: read its findings.
	var findings struct {
		Runs []struct {
			Results []struct {
				RuleID  string
				Level   string
				Message struct {
					Text      string
					Arguments []string
				}
			}
		}
	}
	outData, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(outData, &findings); err != nil {
		t.Fatalf("SARIF Multitool output: %v", err)
	}
	n := 0
	for _, run := range findings.Runs {
		for _, f := range run.Results {
			n++
			if f.Level == "" || f.Level == "warning" || f.Level == "error" {
				t.Errorf("SARIF Multitool %s %s: %v", f.Level, f.RuleID, f.Message.Arguments)
			}
		}
	}
	t.Logf("SARIF Multitool (rule kinds Gh;Sarif): %d findings\n%s", n, strings.TrimSpace(r.stdout))
}

// TestSARIF checks retrylint -sarif on the sample module: the schema,
// GitHub's ingestion rules, and the fields code scanning reads.
func TestSARIF(t *testing.T) {
	e2e(t)
	dir := sampleModule(t)
	r := run(t, dir, goEnv, retrylint, "-sarif", "./...")
	if r.code != 0 {
		t.Fatalf("retrylint -sarif: %s", r)
	}
	path := filepath.Join(t.TempDir(), "retrylint.sarif")
	if err := os.WriteFile(path, []byte(r.stdout), 0o644); err != nil {
		t.Fatal(err)
	}

	type text struct{ Text string }
	var log struct {
		Schema  string `json:"$schema"`
		Version string
		Runs    []struct {
			Tool struct {
				Driver struct {
					Name    string
					Version string
					Rules   []struct {
						ID                                string
						ShortDescription, FullDescription text
						Help                              text
						HelpURI                           string
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   text
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				PartialFingerprints map[string]string
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &log); err != nil {
		t.Fatalf("-sarif output: %v\n%s", err, r.stdout)
	}
	if log.Version != "2.1.0" || log.Schema == "" || len(log.Runs) != 1 {
		t.Fatalf("SARIF header: version %q, $schema %q, %d runs", log.Version, log.Schema, len(log.Runs))
	}
	driver := log.Runs[0].Tool.Driver
	if driver.Name != "retrylint" || driver.Version == "" || len(driver.Rules) == 0 {
		t.Errorf("tool.driver: name %q, version %q, %d rules", driver.Name, driver.Version, len(driver.Rules))
	}
	rules := map[string]int{}
	for i, rule := range driver.Rules {
		rules[rule.ID] = i
		if rule.ID == "" || rule.ShortDescription.Text == "" || rule.FullDescription.Text == "" || rule.Help.Text == "" || !strings.HasPrefix(rule.HelpURI, "https://") {
			t.Errorf("rule %d lacks a field GitHub requires: %+v", i, rule)
		}
	}
	var got []string
	seen := map[string]bool{}
	for _, res := range log.Runs[0].Results {
		if i, ok := rules[res.RuleID]; !ok || i != res.RuleIndex {
			t.Errorf("result with ruleId %q, ruleIndex %d: no such rule", res.RuleID, res.RuleIndex)
		}
		if res.Level != "warning" || res.Message.Text == "" || len(res.Locations) != 1 || len(res.PartialFingerprints) == 0 {
			t.Errorf("result %+v: want level warning, a message, one location, fingerprints", res)
			continue
		}
		for _, fp := range res.PartialFingerprints {
			if seen[fp] {
				t.Errorf("fingerprint %s used twice", fp)
			}
			seen[fp] = true
		}
		loc := res.Locations[0].PhysicalLocation
		reg := loc.Region
		if reg.StartLine < 1 || reg.StartColumn < 1 || reg.EndLine < reg.StartLine || reg.EndLine == reg.StartLine && reg.EndColumn <= reg.StartColumn {
			t.Errorf("result %s: bad region %+v", res.RuleID, reg)
		}
		got = append(got, loc.ArtifactLocation.URI+":"+itoa(reg.StartLine)+":"+itoa(reg.StartColumn)+"-"+itoa(reg.EndLine)+":"+itoa(reg.EndColumn))
	}
	p := filepath.Join(dir, "p", "p.go")
	// Each region is the "for" keyword of a retry loop: columns 2 to 5.
	want := []string{
		"p/p.go:" + itoa(lineAfter(t, p, "func get(")) + ":2-" + itoa(lineAfter(t, p, "func get(")) + ":5",
		"p/p.go:" + itoa(lineAfter(t, p, "func getRationed(")) + ":2-" + itoa(lineAfter(t, p, "func getRationed(")) + ":5",
		"p/p.go:" + itoa(lineAfter(t, p, "func (s *Service) getOrders(")) + ":2-" + itoa(lineAfter(t, p, "func (s *Service) getOrders(")) + ":5",
		"p/p_test.go:" + itoa(lineAfter(t, filepath.Join(dir, "p", "p_test.go"), "var err error")) + ":2-" + itoa(lineAfter(t, filepath.Join(dir, "p", "p_test.go"), "var err error")) + ":5",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("SARIF results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	validateSARIF(t, path, true)
}
