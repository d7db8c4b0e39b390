package reusedbody_test

import (
	"testing"

	"github.com/retrylint/retrylint/internal/rltest"
	"github.com/retrylint/retrylint/passes/reusedbody"
)

const fuzzSeed = "package p\n\nimport (\n\t\"bytes\"\n\t\"errors\"\n\t\"net/http\"\n)\n\nfunc f(hc *http.Client, url string, b []byte) error {\n\trd := bytes.NewReader(b)\n\treq, err := http.NewRequest(\"POST\", url, rd)\n\tif err != nil {\n\t\treturn err\n\t}\n\treq.Header.Set(\"A\", \"b\")\n\tfor i := 0; i < 3; i++ {\n\t\tresp, err := hc.Do(req.WithContext(req.Context()))\n\t\tif err == nil {\n\t\t\treturn resp.Body.Close()\n\t\t}\n\t}\n\treturn errors.New(\"gave up\")\n}\n"

// FuzzReusedbody runs the pass over whole files; it must never panic.
func FuzzReusedbody(f *testing.F) {
	rltest.FuzzWholeFiles(f, reusedbody.Analyzer, fuzzSeed)
}
