package reusedbody_test

import (
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/rltest"
)

// TestFixBehaviour compiles the fixed behave.go (its golden) with a test
// that fakes its dependency, and runs it: the fix must pass it, and the
// original must fail it, or the test shows nothing.
func TestFixBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test in a scratch module")
	}
	test := rltest.ReadTestdata(t, "behave/upload_test.go.txt")
	fixed := rltest.ReadTestdata(t, "src/fix/behave.go.golden")
	orig := rltest.ReadTestdata(t, "src/fix/behave.go")
	if out, ok := rltest.GoTest(t, "1.22", map[string]string{"behave.go": fixed, "upload_test.go": test}); !ok {
		t.Errorf("the fixed code fails:\n%s", out)
	}
	out, ok := rltest.GoTest(t, "1.22", map[string]string{"behave.go": orig, "upload_test.go": test})
	if ok || !strings.Contains(out, "--- FAIL: TestFullBodyEachAttempt") {
		t.Errorf("the original code does not fail TestFullBodyEachAttempt:\n%s", out)
	}
}
