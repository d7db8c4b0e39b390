// Command retrylint reports retry code that turns a slow dependency into an
// outage: retries with no budget, budgets shared across dependencies, fresh
// timeouts that discard the caller's deadline, and retried POSTs with no
// idempotency key.
//
// Usage:
//
//	retrylint [flags] packages      lint (see retrylint help)
//	go vet -vettool=$(command -v retrylint) [flags] packages
//	retrylint help [pass]           documentation of the passes and flags
//	retrylint audit [flags] packages  report retry sites and nested retries
//	retrylint                       analyze a small built-in example
//
// The lint mode accepts the flags of x/tools' multichecker: -json, -fix,
// -diff, -test, -c, one -<pass> flag per pass to select passes, and
// -<pass>.<flag> for each pass's settings; the shared retry-site analysis's
// settings are -retrysite.<flag>. -sarif writes SARIF 2.1.0. In a Go
// workspace (go.work), a directory pattern such as ./... covers every
// workspace module below the directory; a pattern that matches no package
// is an error that names it. The exit status
// is that of go vet: 0 when nothing is reported, 1 for errors (packages that
// do not load, bad flags), 3 when diagnostics are reported (0 with -json or
// -sarif).
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/passes"
)

// shared lists the analyses every pass requires whose settings the command
// exposes as -<name>.<flag>.
var shared = []*analysis.Analyzer{retrysite.Analyzer}

func main() {
	args := os.Args[1:]
	if len(args) == 0 {
		os.Exit(demo())
	}
	if args[0] == "audit" {
		os.Exit(audit(args[1:]))
	}
	if vetMode(args) {
		// go vet -vettool: multichecker dispatches to unitchecker. The
		// drivers register flags only for the passes they are given; the
		// shared analyses' settings are lifted here as -<name>.<flag>.
		for _, a := range shared {
			a.Flags.VisitAll(func(f *flag.Flag) {
				flag.Var(f.Value, a.Name+"."+f.Name, f.Usage)
			})
		}
		multichecker.Main(passes.All()...)
		return
	}
	all := passes.All()
	fs := flag.CommandLine
	fs.Usage = func() { usage(all) }
	lf := registerLintFlags(fs, all, shared)
	fs.Parse(args) // exits 2 on a bad flag, as go vet does
	rest := fs.Args()
	if len(rest) > 0 && rest[0] == "help" {
		help(all, rest[1:])
		return
	}
	if len(rest) == 0 {
		fmt.Fprintln(os.Stderr, "retrylint: no packages given")
		usage(all)
		os.Exit(1)
	}
	os.Exit(lint(lf, all, rest))
}

// vetMode reports whether the go command runs retrylint as a vet tool:
// it asks for the version and the flags, then passes a .cfg file.
func vetMode(args []string) bool {
	for _, a := range args {
		if a == "-V=full" || a == "-V" || a == "-flags" || a == "--flags" {
			return true
		}
	}
	return strings.HasSuffix(args[len(args)-1], ".cfg")
}

func usage(all []*analysis.Analyzer) {
	fmt.Fprintf(os.Stderr, `retrylint reports retry code that turns a slow dependency into an outage.

Usage:
	retrylint [flags] packages
	go vet -vettool=$(command -v retrylint) [flags] packages
	retrylint help [pass]

Passes:
`)
	for _, a := range all {
		summary, _, _ := strings.Cut(a.Doc, "\n")
		fmt.Fprintf(os.Stderr, "\t%-15s %s\n", a.Name, summary)
	}
	fmt.Fprintf(os.Stderr, "\nFlags:\n")
	flag.CommandLine.PrintDefaults()
}

// help prints the documentation of the named passes, or of all.
func help(all []*analysis.Analyzer, names []string) {
	if len(names) == 0 {
		flag.CommandLine.SetOutput(os.Stdout)
		fmt.Println("retrylint reports retry code that turns a slow dependency into an outage.\n\nPasses:")
		for _, a := range all {
			summary, _, _ := strings.Cut(a.Doc, "\n")
			fmt.Printf("\t%-15s %s\n", a.Name, summary)
		}
		fmt.Println("\nRun 'retrylint help <pass>' for a pass's documentation and flags.\n\nFlags:")
		flag.CommandLine.PrintDefaults()
		return
	}
	for _, name := range names {
		found := false
		for _, a := range append(append([]*analysis.Analyzer{}, all...), shared...) {
			if a.Name != name {
				continue
			}
			found = true
			fmt.Printf("%s: %s\n", a.Name, a.Doc)
			a.Flags.VisitAll(func(f *flag.Flag) {
				fmt.Printf("  -%s.%s\n    \t%s (default %q)\n", a.Name, f.Name, f.Usage, f.DefValue)
			})
		}
		if !found {
			fmt.Fprintf(os.Stderr, "retrylint: no pass named %q\n", name)
			os.Exit(1)
		}
	}
}
