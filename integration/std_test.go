package integration_test

import (
	"testing"
)

// TestStandardLibrary runs every pass over the standard library, test files
// included: real code nobody here wrote, in the shapes the passes look for
// (retry loops in net/http and database/sql, requests, contexts). It must
// load and analyze every package without an analyzer error or a panic.
func TestStandardLibrary(t *testing.T) {
	e2e(t)
	diags := lintJSON(t, repoRoot, "-test=true", "std")
	byPass := map[string]int{}
	for _, d := range diags {
		byPass[d.pass]++
	}
	t.Logf("std with tests: %d diagnostics %v", len(diags), byPass)
}
