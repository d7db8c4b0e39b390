package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/passes/fixedattempts"
)

// lintFlags are the flags of the lint mode, compatible with x/tools'
// multichecker.
type lintFlags struct {
	json, fix, diff, tests bool
	sarif, version         bool
	context                int
	debug                  string
	cpuprofile, memprofile string
	baseline, writeBase    string
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
	fs.BoolVar(&lf.diff, "diff", false, "print the fixes -fix would write as a unified diff (for git apply or patch -p1), and write no file")
	fs.BoolVar(&lf.tests, "test", true, "analyze test files too")
	fs.BoolVar(&driver.ModuleFacts, "module-facts", false, "also load the packages of the named packages' modules that they import, for their facts, so that findings match go vet's whatever packages are named")
	fs.IntVar(&lf.context, "c", -1, "display offending line with this many lines of context")
	fs.StringVar(&lf.debug, "debug", "", "debug flags: t (timing), p (sequential), f (each round of -fix)")
	fs.StringVar(&lf.cpuprofile, "cpuprofile", "", "write a CPU profile to this file")
	fs.StringVar(&lf.memprofile, "memprofile", "", "write a memory profile to this file")
	fs.StringVar(&lf.baseline, "baseline", "", "report only the findings this baseline file (written by -write-baseline) does not hold")
	fs.StringVar(&lf.writeBase, "write-baseline", "", "record every current finding in this baseline file, and report nothing")
	fs.BoolVar(&lf.version, "version", false, "print the version this binary was built from, and exit")
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

// check reports flags that cannot go together.
func (lf *lintFlags) check() error {
	if lf.writeBase != "" && (lf.fix || lf.diff || lf.json || lf.sarif || lf.baseline != "") {
		return fmt.Errorf("-write-baseline writes the baseline and nothing else: drop -fix, -json, -sarif and -baseline")
	}
	if lf.json && lf.sarif {
		return fmt.Errorf("-json and -sarif: choose one")
	}
	return nil
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
	var base *driver.Baseline
	if lf.baseline != "" {
		var err error
		if base, err = driver.ReadBaseline(lf.baseline); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint: -baseline:", err)
			return 1
		}
	}
	selected := lf.selected(passes)
	if len(selected) == 0 {
		return 0 // every pass switched off, as multichecker does
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
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
	check := suppress.Check(selected, names(passes))
	analyzers := append(selected, check)
	graph, err := driver.Analyze(analyzers, pkgs, strings.Contains(lf.debug, "p"))
	if lf.memprofile != "" {
		// The heap peaks here: every package and every analysis result is
		// still held.
		writeHeapProfile(lf.memprofile)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		return 1
	}
	if strings.Contains(lf.debug, "t") {
		fmt.Fprintf(os.Stderr, "load and type-check: %.3fs; analysis: %.3fs\n", loaded.Sub(start).Seconds(), time.Since(loaded).Seconds())
		printTiming(graph)
	}
	for _, err := range driver.Errors(graph) {
		fmt.Fprintln(os.Stderr, "retrylint:", err)
		exit = 1
	}
	findings := driver.Findings(graph)
	lines := driver.NewLines()
	if lf.writeBase != "" {
		b := driver.NewBaseline(driver.Unique(findings), lines)
		if err := b.Write(lf.writeBase); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint: -write-baseline:", err)
			return 1
		}
		fmt.Fprintf(os.Stderr, "retrylint: recorded %s in %s\n", plural(len(b.Findings), "finding"), lf.writeBase)
		return exit
	}
	if base != nil {
		var stale int
		before := len(driver.Unique(findings))
		findings, stale = base.Filter(findings, lines)
		if n := before - len(driver.Unique(findings)); n > 0 || stale > 0 {
			// Said after the output, where it is read last.
			them := "them"
			if n == 1 {
				them = "it"
			}
			msg := fmt.Sprintf("retrylint: %s left out, as %s holds %s", plural(n, "finding"), lf.baseline, them)
			switch {
			case stale == 1:
				msg += "; 1 of its entries matches nothing now (run -write-baseline to drop it)"
			case stale > 1:
				msg += fmt.Sprintf("; %d of its entries match nothing now (run -write-baseline to drop them)", stale)
			}
			defer fmt.Fprintln(os.Stderr, msg)
		}
	}
	switch {
	case lf.fix || lf.diff:
		// -diff alone shows the fixes -fix would write.
		run := &driver.FixRun{
			Dir:  cwd,
			Diff: lf.diff,
			W:    os.Stdout,
			Check: func(overlay map[string][]byte) ([]string, error) {
				return driver.BuildErrors("", patterns, lf.tests, overlay, pkgs)
			},
			Reanalyze: func() ([]*driver.Finding, error) {
				again, err := driver.Load("", patterns, lf.tests)
				if err != nil {
					return nil, err
				}
				g, err := driver.Analyze(analyzers, again, strings.Contains(lf.debug, "p"))
				if err != nil {
					return nil, err
				}
				pkgs = again
				fs := driver.Findings(g)
				if base != nil {
					fs, _ = base.Filter(fs, driver.NewLines())
				}
				return fs, nil
			},
		}
		if strings.Contains(lf.debug, "f") {
			run.Trace = os.Stderr
		}
		res, err := run.Run(findings)
		if err != nil {
			fmt.Fprintln(os.Stderr, "retrylint: -fix:", err)
			return 1
		}
		move := res.Move
		if lf.diff {
			move = nil // nothing was written
		}
		if err := driver.PrintTextMoved(os.Stderr, res.Remaining, cwd, lf.context, move); err != nil {
			return 1
		}
		fmt.Fprintln(os.Stderr, "retrylint: "+res.Summary(lf.diff))
		budgetModuleHint(res.Remaining)
		if exit == 0 && len(res.Remaining) > 0 {
			exit = 3 // findings are left, as without -fix
		}
		return exit
	case lf.json:
		if err := driver.PrintJSON(os.Stdout, graph, findings); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint:", err)
			return 1
		}
		return exit
	case lf.sarif:
		if err := writeSARIF(os.Stdout, driver.Unique(findings), append(append([]*analysis.Analyzer{}, passes...), check), cwd, lines); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint:", err)
			return 1
		}
		return exit
	}
	if err := driver.PrintText(os.Stderr, findings, cwd, lf.context); err != nil {
		return 1
	}
	budgetModuleHint(findings)
	switch {
	case exit != 0:
		return exit
	case len(findings) > 0:
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

// writeHeapProfile writes the live heap, after a collection, to file.
func writeHeapProfile(file string) {
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint: -memprofile:", err)
		return
	}
	defer f.Close()
	runtime.GC()
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		fmt.Fprintln(os.Stderr, "retrylint: -memprofile:", err)
	}
}

// budgetModuleHint says once, after the findings, how to get the fixes
// that add a retry budget, when some findings have none because no budget
// is in scope and the budget package may not be imported.
func budgetModuleHint(fs []*driver.Finding) {
	n := 0
	for _, f := range driver.Unique(fs) {
		for _, r := range f.Diag.Related {
			if r.Message == fixedattempts.NoBudgetInScope {
				n++
				break
			}
		}
	}
	if n == 0 {
		return
	}
	fmt.Fprintf(os.Stderr, "retrylint: %s no fix because no retry budget is in scope: go get %s, then run with -fixedattempts.budget-module for fixes that add one\n",
		map[bool]string{true: "1 finding has", false: fmt.Sprint(n) + " findings have"}[n == 1], retryapi.BudgetPath)
}
