// Command retrylint reports retry code that turns a slow dependency into an
// outage: retries with no budget, budgets shared across dependencies, fresh
// timeouts that discard the caller's deadline, retried POSTs with no
// idempotency key, nested retries, waits without jitter, waits that
// cancellation cannot interrupt, and request bodies sent only once.
//
// Usage:
//
//	retrylint [flags] packages        lint (see retrylint help)
//	go vet -vettool=$(command -v retrylint) [flags] packages
//	retrylint audit [flags] packages  report retry sites and nested retries
//	retrylint help [pass|audit]       documentation of the passes and flags
//	retrylint -version                the version this binary was built from
//	retrylint                         analyze a small built-in example
//
// The lint mode accepts the flags of x/tools' multichecker: -json, -fix,
// -diff, -test, -c, one -<pass> flag per pass to select passes, and
// -<pass>.<flag> for each pass's settings; the shared retry-site analysis's
// settings are -retrysite.<flag>. -sarif writes SARIF 2.1.0; -baseline and
// -write-baseline report only findings a baseline file does not hold. In a
// Go workspace (go.work), a directory pattern such as ./... covers every
// workspace module below the directory; a pattern that matches no package
// is an error that names it. Output is sorted by position, then pass, then
// message, and file names are relative to the current directory (absolute
// in -json). The exit status is that of go vet: 0 when nothing is
// reported, 1 for errors (packages that do not load), 2 for a bad flag, 3
// when diagnostics are reported (0 with -json or -sarif).
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
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
		vet()
		return
	}
	os.Exit(lintMain(args))
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

// vet runs the go vet -vettool protocol: multichecker dispatches to
// unitchecker. The drivers register flags only for the analyzers they are
// given; the shared analyses' settings are lifted here as -<name>.<flag>,
// and -V=full prints the version from the build information.
func vet() {
	all := passes.All()
	for _, a := range shared {
		a.Flags.VisitAll(func(f *flag.Flag) {
			flag.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	flag.Var(vetVersionFlag{}, "V", "print version and exit")
	multichecker.Main(append(all, suppress.Check(all, names(all)))...)
}

// lintMain parses the lint mode's command line and runs it.
func lintMain(args []string) int {
	all := passes.All()
	fs := flag.NewFlagSet("retrylint", flag.ContinueOnError)
	lf := registerLintFlags(fs, all, shared)
	fs.SetOutput(io.Discard) // errors are printed below, on one line
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(os.Stderr, fs, all)
			return 0
		}
		fmt.Fprintf(os.Stderr, "retrylint: %v\nrun 'retrylint -h' for usage\n", err)
		return 2
	}
	fs.SetOutput(os.Stderr)
	if lf.version {
		fmt.Println(versionLine())
		return 0
	}
	rest := fs.Args()
	if len(rest) > 0 && rest[0] == "help" {
		return help(os.Stdout, fs, all, rest[1:])
	}
	if len(rest) == 0 {
		fmt.Fprintln(os.Stderr, "retrylint: no packages given (retrylint ./... analyzes the module here)\nrun 'retrylint -h' for usage")
		return 2
	}
	if err := lf.check(); err != nil {
		fmt.Fprintf(os.Stderr, "retrylint: %v\nrun 'retrylint -h' for usage\n", err)
		return 2
	}
	return lint(lf, all, rest)
}

const header = `retrylint reports retry code that turns a slow dependency into an outage.

Usage:
	retrylint [flags] packages
	go vet -vettool=$(command -v retrylint) [flags] packages
	retrylint audit [flags] packages
	retrylint help [pass|audit]
	retrylint -version
`

// summaries lists the passes and the audit, one line each.
func summaries(w io.Writer, all []*analysis.Analyzer) {
	fmt.Fprintf(w, "\nPasses:\n")
	for _, a := range all {
		summary, _, _ := strings.Cut(a.Doc, "\n")
		fmt.Fprintf(w, "\t%-15s %s\n", a.Name, summary)
	}
	check := suppress.Check(all, names(all))
	summary, _, _ := strings.Cut(check.Doc, "\n")
	fmt.Fprintf(w, "\nRun with the passes:\n\t%-15s %s\n", check.Name, summary)
	fmt.Fprintf(w, "\nCommands:\n\t%-15s %s\n", "audit", auditLine)
}

// auditLine is the audit's line in the usage and help.
const auditLine = "report every retry site, its budget, and the nested retries that multiply"

func usage(w io.Writer, fs *flag.FlagSet, all []*analysis.Analyzer) {
	fmt.Fprint(w, header)
	summaries(w, all)
	fmt.Fprintf(w, "\nRun 'retrylint help <name>' for the documentation of a pass, of directives, or of audit.\n\nFlags:\n")
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// help prints the documentation of the named passes (and of the audit),
// or the list of all, and returns the exit status.
func help(w io.Writer, fs *flag.FlagSet, all []*analysis.Analyzer, names []string) int {
	if len(names) == 0 {
		usage(w, fs, all)
		return 0
	}
	for _, name := range names {
		if name == "audit" {
			// The audit's own -h is its documentation; it writes to
			// stderr, which is the help's output while it runs.
			stderr := os.Stderr
			if f, ok := w.(*os.File); ok {
				os.Stderr = f
			}
			audit([]string{"-h"})
			os.Stderr = stderr
			continue
		}
		a := find(all, name)
		if a == nil {
			fmt.Fprintf(os.Stderr, "retrylint: no pass named %q (run 'retrylint help' for the list)\n", name)
			return 2
		}
		fmt.Fprintf(w, "%s: %s\n", a.Name, a.Doc)
		// A flag the pass's documentation does not show is listed here,
		// as -h lists it.
		extra := flag.NewFlagSet(a.Name, flag.ContinueOnError)
		a.Flags.VisitAll(func(f *flag.Flag) {
			if !strings.Contains(a.Doc, "-"+a.Name+"."+f.Name) {
				extra.Var(f.Value, a.Name+"."+f.Name, f.Usage)
			}
		})
		n := 0
		extra.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintf(w, "\nFlags:\n")
			extra.SetOutput(w)
			extra.PrintDefaults()
		}
	}
	return 0
}

// names returns the names of the analyzers.
func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

// find returns the pass, shared analysis or check named name, or nil.
func find(all []*analysis.Analyzer, name string) *analysis.Analyzer {
	for _, a := range append(append(append([]*analysis.Analyzer{}, all...), shared...), suppress.Check(all, names(all))) {
		if a.Name == name {
			return a
		}
	}
	return nil
}
