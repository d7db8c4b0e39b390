package fixedattempts_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/fixedattempts"
)

// FuzzFixedattempts runs the pass over whole files: it must never panic
// on a file that type-checks (with standard imports only). The seeds are the
// testdata files that import nothing else.
func FuzzFixedattempts(f *testing.F) {
	filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && !strings.Contains(string(data), "\"github.com/") && !strings.Contains(string(data), "\"google.golang.org/") && !strings.Contains(string(data), "\"k8s.io/") && !strings.Contains(string(data), "\"golang.org/x/") {
			f.Add(string(data))
		}
		return nil
	})
	f.Add("package p\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\ntype C struct{}\n\nfunc (C) Get(ctx context.Context) error { return nil }\n\nfunc f(ctx context.Context, c C) error {\n\tfor i := 0; i < 3; i++ {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn nil\n}\n")
	f.Fuzz(func(t *testing.T, src string) {
		_, err := rltest.RunOnSource(src, fixedattempts.Analyzer)
		if err != nil && !errors.Is(err, rltest.ErrNotWellTyped) {
			t.Fatalf("analysis error: %v\n%s", err, src)
		}
	})
}
