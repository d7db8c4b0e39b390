package retrysite_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/rltest"
)

const fuzzHeader = `package p

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) (string, error) { return "", nil }
func (c *Client) Put(ctx context.Context) error           { return nil }

var (
	_ = errors.New
	_ = time.Sleep
)

func f(ctx context.Context, c *Client, op func() error, n int) (string, error) {
`

// FuzzSites runs the retry-site finder over arbitrary function bodies: it
// must never panic, and every site it returns must be well formed (show
// fails the analysis on a site that breaks an invariant of checkSite: its
// kind and its Loop agree, its positions lie inside its node, a count
// bound has a number or an expression).
func FuzzSites(f *testing.F) {
	f.Add("for i := 0; i < 3; i++ { if v, err := c.Get(ctx); err == nil { return v, nil }; time.Sleep(time.Second) }; return \"\", nil")
	f.Add("for { if err := op(); err != nil { continue }; break }; return \"\", nil")
	f.Add("var err error; for err != nil { err = c.Put(ctx) }; return \"\", err")
	f.Add("L: for range n { switch { case c.Put(ctx) == nil: break L } }; return \"\", nil")
	f.Add("for i := 0; ; i++ { select { case <-ctx.Done(): return \"\", ctx.Err(); default: }; if c.Put(ctx) == nil || i > 3 { goto done } }; done: return \"\", nil")
	// Seed with the bodies of the testdata's functions too.
	for _, dir := range []string{"loops", "guards"} {
		data, err := os.ReadFile(filepath.Join("testdata", "src", dir, dir+".go"))
		if err == nil {
			for _, chunk := range strings.Split(string(data), "\nfunc ") {
				if i := strings.Index(chunk, "{\n"); i >= 0 {
					f.Add(strings.TrimSuffix(strings.TrimSpace(chunk[i+2:]), "}"))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, body string) {
		src := fuzzHeader + body + "\n}\n"
		_, err := rltest.RunOnSource(src, retrysite.Analyzer, show)
		if errors.Is(err, rltest.ErrNotWellTyped) {
			return
		}
		if err != nil {
			t.Fatalf("analysis error: %v\n%s", err, src)
		}
	})
}
