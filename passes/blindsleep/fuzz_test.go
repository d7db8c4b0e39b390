package blindsleep_test

import (
	"testing"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/blindsleep"
)

const fuzzSeed = "package p\n\nimport (\n\t\"context\"\n\t\"time\"\n)\n\ntype C struct{}\n\nfunc (C) Get(ctx context.Context) error { return nil }\n\nfunc nap(d time.Duration) { time.Sleep(d) }\n\nfunc f(ctx context.Context, c C) error {\n\tfor i := 0; i < 3; i++ {\n\t\tif err := c.Get(ctx); err == nil {\n\t\t\treturn nil\n\t\t}\n\t\tselect {\n\t\tcase <-time.After(time.Second):\n\t\t}\n\t\t<-time.After(time.Second)\n\t\tnap(time.Second)\n\t\ttime.Sleep(time.Second)\n\t}\n\treturn nil\n}\n"

// FuzzBlindsleep runs the pass over whole files; it must never panic.
func FuzzBlindsleep(f *testing.F) {
	rltest.FuzzWholeFiles(f, blindsleep.Analyzer, fuzzSeed)
}
