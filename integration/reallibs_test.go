package integration_test

import (
	"strings"
	"testing"
)

// TestNojitterRealLibraries runs nojitter on a module that uses the real
// go-retry and go-retryablehttp (from the Go module proxy), not the stubs
// of the passes' tests: a go-retry backoff not wrapped in WithJitter and a
// go-retryablehttp client left with DefaultBackoff are reported, and their
// look-alikes (a jittered backoff, a client whose Backoff is set to a
// jittered one) are not.
func TestNojitterRealLibraries(t *testing.T) {
	e2e(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/reallibs\n\ngo 1.26.0\n\n" +
			"require (\n\tgithub.com/hashicorp/go-retryablehttp v0.7.8\n\tgithub.com/sethvargo/go-retry v0.5.0\n)\n",
		"svc/svc.go": `package svc

import (
	"context"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
	"github.com/sethvargo/go-retry"
)

func Plain(ctx context.Context, f func(context.Context) error) error {
	b := retry.WithMaxRetries(3, retry.NewExponential(100*time.Millisecond))
	return retry.Do(ctx, b, func(ctx context.Context) error { return retry.RetryableError(f(ctx)) })
}

func Jittered(ctx context.Context, f func(context.Context) error) error {
	b := retry.WithMaxRetries(3, retry.WithJitter(50*time.Millisecond, retry.NewExponential(100*time.Millisecond)))
	return retry.Do(ctx, b, func(ctx context.Context) error { return retry.RetryableError(f(ctx)) })
}

func DefaultClient() *http.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	return c.StandardClient()
}

func JitterClient() *http.Client {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.Backoff = retryablehttp.LinearJitterBackoff
	return c.StandardClient()
}
`,
	})
	if r := run(t, dir, goEnv, "go", "mod", "tidy"); r.code != 0 {
		t.Fatalf("go mod tidy: %s", r)
	}
	var got []string
	for _, d := range lintJSON(t, dir, "-nojitter", "./...") {
		got = append(got, d.file+":"+itoa(d.line)+": "+d.message)
	}
	want := []string{
		"svc/svc.go:13: retry.NewExponential backs off without jitter",
		"svc/svc.go:23: retryablehttp.NewClient backs off with DefaultBackoff, which has no jitter",
	}
	if len(got) != len(want) {
		t.Fatalf("nojitter on the real libraries: %d diagnostics, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("nojitter on the real libraries: %s, want %s…", got[i], want[i])
		}
	}
}
