package nojitter_test

import (
	"testing"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/nojitter"
)

const fuzzSeed = "package p\n\nimport (\n\t\"context\"\n\t\"math/rand/v2\"\n\t\"time\"\n)\n\ntype C struct{ d time.Duration }\n\nfunc (C) Get(ctx context.Context) error { return nil }\n\nfunc backoff(i int) time.Duration { return time.Duration(1<<i) * time.Millisecond }\n\nfunc jitter(d time.Duration) time.Duration { return rand.N(d) }\n\nfunc f(ctx context.Context, c C) error {\n\td := c.d\n\tfor i := 0; i < 3; i++ {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\ttime.Sleep(min(backoff(i), d))\n\t\td *= 2\n\t\tc.d = c.d + d\n\t\t<-time.After(jitter(c.d))\n\t}\n\treturn nil\n}\n"

// FuzzNojitter runs the pass over whole files; it must never panic.
func FuzzNojitter(f *testing.F) {
	rltest.FuzzWholeFiles(f, nojitter.Analyzer, fuzzSeed)
}
