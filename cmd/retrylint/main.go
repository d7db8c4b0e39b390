// Command retrylint reports retry code that turns a slow dependency into an
// outage: retries with no budget, budgets shared across dependencies, fresh
// timeouts that discard the caller's deadline, and retried POSTs with no
// idempotency key.
//
// Usage:
//
//	retrylint [flags] packages      lint, like go vet (see retrylint help)
//	go vet -vettool=$(command -v retrylint) [flags] packages
//	retrylint                       analyze a small built-in example
//
// The lint mode accepts the flags of x/tools' multichecker: -json, -fix,
// -diff, -test, -c, one -<pass> flag per pass to select passes, and
// -<pass>.<flag> for each pass's settings; the shared retry-site analysis's
// settings are -retrysite.<flag>. The exit status is that of go vet: 0 when
// nothing is reported, 1 for errors (packages that do not load, bad flags),
// 3 when diagnostics are reported.
package main

import (
	"flag"
	"os"

	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/passes"
)

func main() {
	if len(os.Args) == 1 {
		os.Exit(demo())
	}
	// The drivers register flags only for the passes they are given; the
	// shared analysis's settings are lifted here as -retrysite.<flag>.
	retrysite.Analyzer.Flags.VisitAll(func(f *flag.Flag) {
		flag.Var(f.Value, retrysite.Analyzer.Name+"."+f.Name, f.Usage)
	})
	multichecker.Main(passes.All()...)
}
