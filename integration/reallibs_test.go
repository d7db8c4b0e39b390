package integration_test

import (
	"fmt"
	"os"
	"path/filepath"
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

// TestFixRealLibraries applies fixedattempts' hook fixes to a module that
// uses the real go-retry, retry-go v5 and k8s client-go retry (from the Go
// module proxy), not
// the stubs and fakes of the passes' tests, and runs the fixed code
// against a dependency that always fails: each fixed call still returns
// the dependency's error (retry-go's list of the attempts' errors), makes
// between 1 and about 1.1 attempts per call instead of 3 or more, and is
// no longer reported; the module builds and passes go vet.
func TestFixRealLibraries(t *testing.T) {
	e2e(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"go.mod": "module example.com/reallibs\n\ngo 1.26.0\n\n" +
			"require (\n\tgithub.com/avast/retry-go/v5 v5.1.1\n\tgithub.com/retrylint/retrylint/budget v0.0.0\n\tgithub.com/sethvargo/go-retry v0.5.0\n\tk8s.io/apimachinery v0.37.2\n\tk8s.io/client-go v0.37.2\n)\n\n" +
			"replace github.com/retrylint/retrylint/budget => " + filepath.Join(repoRoot, "budget") + "\n",
		"svc/svc.go": `package svc

import (
	"context"
	"time"

	retry5 "github.com/avast/retry-go/v5"
	"github.com/retrylint/retrylint/budget"
	"github.com/sethvargo/go-retry"
	"k8s.io/apimachinery/pkg/util/wait"
	k8sretry "k8s.io/client-go/util/retry"
)

var _ = budget.New

// Dep is a dependency.
type Dep interface{ Call(ctx context.Context) error }

type Service struct{ users, prices, orders, ledger, nodes Dep }

func (s *Service) User(ctx context.Context) error {
	return retry.Do(ctx, retry.WithMaxRetries(2, retry.NewConstant(time.Microsecond)), func(ctx context.Context) error {
		return retry.RetryableError(s.users.Call(ctx))
	})
}

func (s *Service) Price(ctx context.Context) error {
	return retry.Constant(ctx, time.Microsecond, func(ctx context.Context) error {
		return retry.RetryableError(s.prices.Call(ctx))
	})
}

func (s *Service) Order(ctx context.Context) error {
	return retry5.New(retry5.Attempts(3), retry5.Delay(time.Microsecond), retry5.DelayType(retry5.FixedDelay), retry5.LastErrorOnly(true)).Do(func() error { return s.orders.Call(ctx) })
}

func (s *Service) Settle(ctx context.Context) error {
	return retry5.New(retry5.Attempts(3), retry5.Delay(time.Microsecond), retry5.DelayType(retry5.FixedDelay)).Do(func() error { return s.ledger.Call(ctx) })
}

func (s *Service) Node(ctx context.Context) error {
	return k8sretry.OnError(wait.Backoff{Steps: 3, Duration: time.Microsecond}, func(err error) bool { return true }, func() error { return s.nodes.Call(ctx) })
}
`,
	})
	behave := `package svc

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"testing"
	"time"
)

var errDown = errors.New("dependency down")

type down struct{ calls int }

func (d *down) Call(ctx context.Context) error { d.calls++; return errDown }

func TestRetrylintBehave(t *testing.T) {
	cases := []struct {
		name string
		run  func(d *down) error
		want string // the error, or, fixed, a refusal's
	}{
		{"User", func(d *down) error { return (&Service{users: d}).User(context.Background()) }, "^dependency down$"},
		{"Price", func(d *down) error {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
			defer cancel()
			return (&Service{prices: d}).Price(ctx)
		}, "^(dependency down|context deadline exceeded)$"},
		{"Order", func(d *down) error { return (&Service{orders: d}).Order(context.Background()) }, "^dependency down$"},
		{"Settle", func(d *down) error { return (&Service{ledger: d}).Settle(context.Background()) }, "^All attempts fail:(\n#\\d: dependency down)+$"},
		{"Node", func(d *down) error { return (&Service{nodes: d}).Node(context.Background()) }, "^dependency down$"},
	}
	for _, c := range cases {
		d := &down{}
		for i := 0; i < CALLS; i++ {
			if err := c.run(d); err == nil || !regexp.MustCompile(c.want).MatchString(err.Error()) {
				t.Fatalf("%s: call %d: %v, want %s", c.name, i, err, c.want)
			}
		}
		fmt.Printf("retrylint-behave %s: %d %d\n", c.name, d.calls, CALLS)
	}
}
`
	attempts := func(when string) map[string]float64 {
		file := filepath.Join(dir, "svc", "retrylint_behave_test.go")
		if err := os.WriteFile(file, []byte(strings.ReplaceAll(behave, "CALLS", itoa(behaveCalls))), 0o644); err != nil {
			t.Fatal(err)
		}
		defer os.Remove(file)
		r := run(t, dir, goEnv, "go", "test", "-count=1", "-run", "^TestRetrylintBehave$", "-v", "./svc")
		if r.code != 0 {
			t.Fatalf("the calls %s the fixes: %s", when, r)
		}
		out := map[string]float64{}
		for _, line := range strings.Split(r.stdout, "\n") {
			var name string
			var n, calls int
			if _, err := fmt.Sscanf(strings.TrimSpace(line), "retrylint-behave %s %d %d", &name, &n, &calls); err == nil && calls > 0 {
				out[strings.TrimSuffix(name, ":")] = float64(n) / float64(calls)
			}
		}
		return out
	}
	if r := run(t, dir, goEnv, "go", "mod", "tidy"); r.code != 0 {
		t.Fatalf("go mod tidy: %s", r)
	}
	before := attempts("before")
	found := lintJSON(t, dir, "-fixedattempts", "./...")
	if len(found) != 5 {
		t.Fatalf("fixedattempts on the real libraries: %d diagnostics, want the 5 calls:\n%s", len(found), diagList(found))
	}
	for _, d := range found {
		if !d.fixed {
			t.Errorf("no fix: %s", d)
		}
	}
	if r := run(t, dir, goEnv, retrylint, "-fixedattempts", "-fix", "./..."); r.code != 0 && r.code != 3 {
		t.Fatalf("retrylint -fix: %s", r)
	}
	mustRun(t, dir, "go", "vet", "./...")
	if left := lintJSON(t, dir, "-fixedattempts", "./..."); len(left) != 0 {
		t.Errorf("after the fixes, fixedattempts reports:\n%s", diagList(left))
	}
	after := attempts("after")
	for _, name := range []string{"User", "Price", "Order", "Settle", "Node"} {
		t.Logf("%s: %.3f attempts per call before the fixes, %.3f after", name, before[name], after[name])
		if before[name] < 2 {
			t.Errorf("%s: %.3f attempts per call before the fixes: it does not retry", name, before[name])
		}
		if a := after[name]; a < 1 || a > 1+behaveRatio+behaveSlack {
			t.Errorf("%s: %.3f attempts per call after the fixes, want 1 to %.2f", name, a, 1+behaveRatio+behaveSlack)
		}
	}
}
