package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/retrylint/retrylint/internal/driver"
)

// lintFlags are the flags of the lint mode, compatible with x/tools'
// multichecker.
type lintFlags struct {
	json, fix, diff, tests bool
	sarif                  bool
	context                int
	debug                  string
	cpuprofile, memprofile string
	enable                 map[*analysis.Analyzer]*triState
}

// triState is a pass selection flag: unset, true or false.
type triState int

const (
	unset triState = iota
	setTrue
	setFalse
)

func (t *triState) String() string {
	switch *t {
	case setTrue:
		return "true"
	case setFalse:
		return "false"
	}
	return "unset"
}

func (t *triState) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "1", "t":
		*t = setTrue
	case "false", "0", "f":
		*t = setFalse
	default:
		return fmt.Errorf("want true or false, not %q", s)
	}
	return nil
}

func (t *triState) IsBoolFlag() bool { return true }

// registerLintFlags registers, on fs, the driver's flags, one selection
// flag per pass, each pass's own flags as -<pass>.<flag>, and the shared
// analyses' flags.
func registerLintFlags(fs *flag.FlagSet, passes, shared []*analysis.Analyzer) *lintFlags {
	lf := &lintFlags{enable: map[*analysis.Analyzer]*triState{}}
	fs.BoolVar(&lf.json, "json", false, "emit JSON output")
	fs.BoolVar(&lf.sarif, "sarif", false, "emit SARIF 2.1.0 output (for GitHub code scanning)")
	fs.BoolVar(&lf.fix, "fix", false, "apply all suggested fixes")
	fs.BoolVar(&lf.diff, "diff", false, "with -fix, do not write files but print the fixes as unified diffs")
	fs.BoolVar(&lf.tests, "test", true, "analyze test files too")
	fs.IntVar(&lf.context, "c", -1, "display offending line with this many lines of context")
	fs.StringVar(&lf.debug, "debug", "", "debug flags: t (timing), p (sequential)")
	fs.StringVar(&lf.cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&lf.memprofile, "memprofile", "", "write a memory profile to this file")
	for _, a := range passes {
		t := new(triState)
		lf.enable[a] = t
		fs.Var(t, a.Name, "enable "+a.Name+" analysis")
	}
	for _, a := range append(append([]*analysis.Analyzer{}, passes...), shared...) {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	return lf
}

// selected returns the passes to run: those set true if any is, else all
// but those set false.
func (lf *lintFlags) selected(passes []*analysis.Analyzer) []*analysis.Analyzer {
	anyTrue := false
	for _, t := range lf.enable {
		anyTrue = anyTrue || *t == setTrue
	}
	var out []*analysis.Analyzer
	for _, a := range passes {
		t := *lf.enable[a]
		if anyTrue && t == setTrue || !anyTrue && t != setFalse {
			out = append(out, a)
		}
	}
	return out
}

// lint runs the lint mode and returns its exit status: 0 clean, 1 an
// error (packages that failed to load, a failed fix), 3 diagnostics.
func lint(lf *lintFlags, passes []*analysis.Analyzer, patterns []string) int {
	if lf.cpuprofile != "" {
		f, err := os.Create(lf.cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "retrylint:", err)
			return 1
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if lf.memprofile != "" {
		defer func() {
			f, err := os.Create(lf.memprofile)
			if err == nil {
				pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	analyzers := lf.selected(passes)
	if len(analyzers) == 0 {
		return 0 // every pass switched off, as multichecker does
	}
	start := time.Now()
	pkgs, err := driver.Load("", patterns, lf.tests)
	loaded := time.Now()
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
	}
	exit := 0
	if driver.PrintErrors(pkgs) > 0 {
		exit = 1
	}
	graph, err := driver.Analyze(analyzers, pkgs, strings.Contains(lf.debug, "p"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
	}
	if strings.Contains(lf.debug, "t") {
		fmt.Fprintf(os.Stderr, "load and type-check: %.3fs; analysis: %.3fs\n", loaded.Sub(start).Seconds(), time.Since(loaded).Seconds())
		printTiming(graph)
	}
	switch {
	case lf.fix:
		changed, skipped, err := driver.Fixes(graph, lf.diff, os.Stdout)
		if err != nil {
			fmt.Fprintln(os.Stderr, "retrylint:", err)
			return 1
		}
		if skipped > 0 {
			fmt.Fprintf(os.Stderr, "retrylint: %d fixes skipped because they overlap others; run again to apply them\n", skipped)
		}
		if !lf.diff && changed > 0 {
			fmt.Fprintf(os.Stderr, "retrylint: fixed %d files\n", changed)
		}
		return exit
	case lf.json:
		if err := graph.PrintJSON(os.Stdout); err != nil {
			return 1
		}
		return exit
	case lf.sarif:
		if err := writeSARIF(os.Stdout, graph, passes); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint:", err)
			return 1
		}
		return exit
	}
	if err := graph.PrintText(os.Stderr, lf.context); err != nil {
		return 1
	}
	diags, failed := 0, false
	for act := range graph.All() {
		if act.Err != nil {
			failed = true
		} else if act.IsRoot {
			diags += len(act.Diagnostics)
		}
	}
	switch {
	case failed || exit == 1:
		return 1
	case diags > 0:
		return 3
	}
	return 0
}

func printTiming(g *checker.Graph) {
	type row struct {
		name string
		d    float64
	}
	byAnalyzer := map[string]float64{}
	for act := range g.All() {
		byAnalyzer[act.Analyzer.Name] += act.Duration.Seconds()
	}
	var rows []row
	for n, d := range byAnalyzer {
		rows = append(rows, row{n, d})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].d > rows[j].d })
	for _, r := range rows {
		fmt.Fprintf(os.Stderr, "%8.3fs\t%s\n", r.d, r.name)
	}
}
