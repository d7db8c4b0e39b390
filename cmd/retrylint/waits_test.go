package main_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The sleep and delay helpers live in one package, the retries in
// another: both drivers must carry blindsleep's and nojitter's facts
// across.
const delaysPkg = `package delays

import (
	"math/rand/v2"
	"time"
)

// Nap sleeps blind.
func Nap(d time.Duration) { time.Sleep(d) }

// Backoff has no random term.
func Backoff(attempt int) time.Duration { return 100 * time.Millisecond << attempt }

// Jittered has one.
func Jittered(attempt int) time.Duration { return rand.N(Backoff(attempt) + 1) }
`

const svcPkg = `package svc

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"

	"example.com/m/delays"
)

type Client struct {
	hc  *http.Client
	url string
}

func (c *Client) Send(ctx context.Context) error { return nil }

func (c *Client) napping(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx); err == nil {
			return nil
		}
		delays.Nap(delays.Jittered(i))
	}
	return errors.New("gave up")
}

func (c *Client) steady(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delays.Backoff(i)):
		}
	}
	return errors.New("gave up")
}

func (c *Client) upload(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url, bytes.NewReader(b))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delays.Jittered(i)):
		}
	}
	return errors.New("gave up")
}
`

// TestWaitPasses runs the three passes on their own, in the lint mode and
// through go vet, where the facts of package delays travel as files.
func TestWaitPasses(t *testing.T) {
	dir := module(t, map[string]string{"delays/delays.go": delaysPkg, "svc/svc.go": svcPkg})
	for _, tc := range []struct {
		pass string
		want string // the one finding, file:line:col: message prefix
	}{
		{"blindsleep", "svc/svc.go:25:3: retry loop waits in Nap, which sleeps without watching ctx"},
		{"nojitter", "svc/svc.go:38:10: retry waits grow with the attempt but have no random term"},
		{"reusedbody", "svc/svc.go:45:14: req is built once with a body and sent on every attempt of the retry loop"},
	} {
		_, stderr, code := run(t, dir, "-"+tc.pass, "./...")
		lines := findingLines(stderr)
		if code != 3 || len(lines) != 1 || !strings.HasPrefix(lines[0], tc.want) {
			t.Errorf("retrylint -%s: exit %d, want 3 and one finding %q; stderr:\n%s", tc.pass, code, tc.want, stderr)
		}
		cmd := exec.Command("go", "vet", "-vettool="+retrylint, "-"+tc.pass, "./...")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off")
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), tc.want) {
			t.Errorf("go vet -%s: no %q in\n%s", tc.pass, tc.want, out)
		}
	}
	// All passes at once: the three findings, and none of the other
	// passes' beyond the loops' budgets.
	_, stderr, _ := run(t, dir, "-fixedattempts=false", "./...")
	if n := len(findingLines(stderr)); n != 3 {
		t.Errorf("-fixedattempts=false: %d findings, want 3:\n%s", n, stderr)
	}
}

// findingLines returns the lines of output that are findings, not related
// information (whose message starts with a tab).
func findingLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.Contains(l, ".go:") && !strings.Contains(l, ": \t") {
			out = append(out, l)
		}
	}
	return out
}

// TestWaitPassesDocumented wants the three passes in -h, retrylint help
// <pass> and the SARIF rules.
func TestWaitPassesDocumented(t *testing.T) {
	dir := module(t, map[string]string{"delays/delays.go": delaysPkg, "svc/svc.go": svcPkg})
	_, usage, _ := run(t, dir, "-h")
	out, _, code := run(t, dir, "-sarif", "./...")
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Rules []struct {
						ID               string `json:"id"`
						HelpURI          string `json:"helpUri"`
						ShortDescription struct {
							Text string `json:"text"`
						} `json:"shortDescription"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil || code != 0 {
		t.Fatalf("-sarif: exit %d, %v", code, err)
	}
	rules := map[string]string{}
	for _, r := range log.Runs[0].Tool.Driver.Rules {
		if strings.HasSuffix(r.HelpURI, "/passes/"+r.ID) {
			rules[r.ID] = r.ShortDescription.Text
		}
	}
	results := map[string]int{}
	for _, r := range log.Runs[0].Results {
		results[r.RuleID]++
	}
	for _, pass := range []string{"nojitter", "blindsleep", "reusedbody"} {
		if !regexp.MustCompile(`(?m)^\t` + pass + ` +report `).MatchString(usage) {
			t.Errorf("-h does not list %s:\n%s", pass, usage)
		}
		if !regexp.MustCompile(`(?m)^  -` + pass + `\b`).MatchString(usage) {
			t.Errorf("-h has no -%s flag", pass)
		}
		help, _, code := run(t, dir, "help", pass)
		if code != 0 || !strings.HasPrefix(help, pass+": report ") || !strings.Contains(help, "Not reported") {
			t.Errorf("help %s: exit %d:\n%s", pass, code, help)
		}
		if rules[pass] == "" || results[pass] != 1 {
			t.Errorf("SARIF: rule %s %q, %d results; want a rule with its help URI and 1 result", pass, rules[pass], results[pass])
		}
	}
}
