package nonidempotent_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/nonidempotent"
)

const fuzzHeader = `package p

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"net/http"
	"strconv"
	"time"
)

var (
	_ = bytes.NewReader
	_ = errors.New
	_ = rand.Text
	_ = strconv.Itoa
	_ = time.Sleep
)

type client struct {
	hc   *http.Client
	base string
}

func (c *client) send(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *client) f(ctx context.Context, body []byte, key string, op func() error, n int) error {
`

// FuzzNonIdempotent runs the pass over arbitrary function bodies: it must
// never panic, and its fixes must stay within the file.
func FuzzNonIdempotent(f *testing.F) {
	f.Add("for i := 0; i < 3; i++ { req, _ := http.NewRequest(\"POST\", c.base, nil); if c.send(req) == nil { return nil }; time.Sleep(time.Second) }; return nil")
	f.Add("req, _ := http.NewRequest(http.MethodPatch, c.base, nil); for { if err := c.send(req.WithContext(ctx)); err != nil { continue }; break }; return nil")
	f.Add("for range n { resp, err := http.Post(c.base, \"text/plain\", bytes.NewReader(body)); if err == nil { return resp.Body.Close() } }; return nil")
	f.Add("for i := 0; i < 3; i++ { k := rand.Text(); req, _ := http.NewRequest(\"POST\", c.base, nil); req.Header.Set(\"Idempotency-Key\", k); if c.send(req) == nil { return nil } }; return nil")
	// Seed with the bodies of the testdata's functions too.
	for _, dir := range []string{"loops", "perattempt", "negative", "fixhoist", "fixpost"} {
		data, err := os.ReadFile(filepath.Join("testdata", "src", dir, dir+".go"))
		if err != nil {
			continue
		}
		for _, chunk := range strings.Split(string(data), "\nfunc ") {
			if i := strings.Index(chunk, "{\n"); i >= 0 {
				f.Add(strings.TrimSuffix(strings.TrimSpace(chunk[i+2:]), "}"))
			}
		}
	}
	f.Fuzz(func(t *testing.T, body string) {
		src := fuzzHeader + body + "\n}\n"
		diags, err := rltest.RunOnSource(src, nonidempotent.Analyzer)
		if errors.Is(err, rltest.ErrNotWellTyped) {
			return
		}
		if err != nil {
			t.Fatalf("analysis error: %v\n%s", err, src)
		}
		for _, d := range diags {
			checkEdits(t, d, len(src))
		}
	})
}

func checkEdits(t *testing.T, d analysis.Diagnostic, size int) {
	for _, fix := range d.SuggestedFixes {
		for _, e := range fix.TextEdits {
			// RunOnSource parses one file at base 1.
			if e.Pos < 1 || e.End < e.Pos || int(e.End) > size+1 {
				t.Fatalf("%s: edit [%d,%d) outside the file", d.Message, e.Pos, e.End)
			}
		}
	}
}
