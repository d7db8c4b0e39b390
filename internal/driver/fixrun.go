package driver

import (
	"bytes"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
)

// MaxFixRounds is how many rounds of fixes -fix applies at most. A round
// applies every fix that overlaps none taken before it; the passes' fixes
// of one site edit disjoint parts of it, so one round is the rule, and a
// second one takes the fixes a first one had to leave out, on the code as
// the first left it.
const MaxFixRounds = 3

// A FixRun applies the suggested fixes of a run of the analyzers, in
// rounds, checking before each write that the packages still build.
type FixRun struct {
	Dir  string    // file names in messages are relative to it
	Diff bool      // write unified diffs to W instead of changing files
	W    io.Writer // where the diffs go

	// Check returns the errors of the packages analyzed, loaded with
	// overlay in place of their files, that the fixes introduced; nil
	// when they build.
	Check func(overlay map[string][]byte) ([]string, error)

	// Reanalyze analyzes the packages again, from the files as the last
	// round wrote them.
	Reanalyze func() ([]*Finding, error)

	// Trace, when not nil, gets a line per round: what it applied and
	// which fixes it left out, with the fix each overlaps.
	Trace io.Writer
}

// FixResult says what a FixRun did.
type FixResult struct {
	Fixed     int        // findings whose fix was applied (or, with Diff, is in the diff)
	Files     int        // files changed
	NoFix     int        // findings with no suggested fix
	Overlaps  int        // fixes left out after the last round: they overlap another
	Remaining []*Finding // the findings left, with their positions before the last round
	// lines maps, for each file the last round changed, the 1-based number
	// of each of its old lines that is still there to its new one.
	lines map[string]map[int]int
}

// Move returns where the line of a position of a finding left is in the
// file as the fixes left it (the position itself when the file did not
// change or the line was rewritten).
func (r FixResult) Move(p token.Position) token.Position {
	if m, ok := r.lines[p.Filename]; ok {
		if n, ok := m[p.Line]; ok {
			p.Line = n
		}
	}
	return p
}

// Summary returns the line that tells the user what -fix did: "fixed 3
// findings in 2 files; 1 finding has no automatic fix". With diff, the
// fixes were shown, not written.
func (r FixResult) Summary(diff bool) string {
	verb := "fixed"
	if diff {
		verb = "the diff fixes"
	}
	s := fmt.Sprintf("%s %s in %s", verb, count(r.Fixed, "finding", "findings"), count(r.Files, "file", "files"))
	switch n := r.NoFix; n {
	case 0:
	case 1:
		s += "; 1 finding has no automatic fix"
	default:
		s += fmt.Sprintf("; %d findings have no automatic fix", n)
	}
	switch n := r.Overlaps; n {
	case 0:
	case 1:
		s += "; 1 fix was left out: it overlaps another fix of the same code"
	default:
		s += fmt.Sprintf("; %d fixes were left out: each overlaps another fix of the same code", n)
	}
	return s
}

func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Run applies the fixes of the findings. Each round plans the fixes
// (PlanFixes), computes the new files, has Check type-check the packages
// with them and, when they build, writes them all or none (WriteChanges).
// When a round had to leave fixes out because they overlap others, the
// packages are analyzed again and the next round applies what is left,
// up to MaxFixRounds. With Diff, one round is shown and nothing written.
//
// When the fixed packages do not build, nothing of that round is written,
// and the error names the compiler's first error and the fix that causes
// it: the first fix, nearest to the error, without which the error goes.
func (r *FixRun) Run(fs []*Finding) (FixResult, error) {
	var res FixResult
	written := map[string]bool{}
	for round := 1; ; round++ {
		plan := PlanFixes(fs)
		unchanged := "no file was changed"
		if round > 1 {
			unchanged = "the files of the rounds before were written, this round's were not"
		}
		changes, err := plan.Apply(r.Dir, nil)
		if err != nil {
			return res, fmt.Errorf("%v; %s", err, unchanged)
		}
		if len(changes) > 0 && r.Check != nil {
			errs, err := r.Check(overlayOf(changes))
			if err != nil {
				return res, fmt.Errorf("checking the fixed packages: %v; %s", err, unchanged)
			}
			if len(errs) > 0 {
				return res, fmt.Errorf("the fixed code does not build, so %s: %s", unchanged, r.blame(plan, errs))
			}
		}
		if r.Trace != nil {
			fmt.Fprintf(r.Trace, "fix round %d: %d fixes applied, %d left out\n", round, len(plan.Applied), len(plan.Overlaps))
			for _, o := range plan.Overlaps {
				fmt.Fprintf(r.Trace, "\t%s at %s overlaps %s at %s\n", o.Finding.Analyzer.Name, relPosn(r.Dir, o.Finding.Posn), o.With.Analyzer.Name, relPosn(r.Dir, o.With.Posn))
			}
		}
		res.lines = LineMap(changes)
		res.Fixed += len(plan.Applied)
		for _, c := range changes {
			written[c.Name] = true
		}
		res.Files = len(written)
		last := r.Diff || len(plan.Overlaps) == 0 || len(changes) == 0 || round == MaxFixRounds || r.Reanalyze == nil
		if r.Diff {
			WriteDiff(r.W, changes, r.Dir)
		} else if err := WriteChanges(changes, r.Dir); err != nil {
			if round > 1 {
				return res, fmt.Errorf("%v (the files of the rounds before were written)", err)
			}
			return res, err
		}
		if last {
			res.NoFix = len(plan.NoFix)
			res.Overlaps = len(plan.Overlaps)
			res.Remaining = append([]*Finding(nil), plan.NoFix...)
			for _, o := range plan.Overlaps {
				res.Remaining = append(res.Remaining, o.Finding)
			}
			slices.SortStableFunc(res.Remaining, compare)
			return res, nil
		}
		if fs, err = r.Reanalyze(); err != nil {
			return res, fmt.Errorf("analyzing the fixed packages again: %v (the fixes of round %d were written)", err, round)
		}
	}
}

// overlayOf returns the new texts of the changes by file name.
func overlayOf(changes []FileChange) map[string][]byte {
	m := make(map[string][]byte, len(changes))
	for _, c := range changes {
		m[c.Name] = c.New
	}
	return m
}

// maxBlameChecks bounds the builds blame tries, one per suspected fix.
const maxBlameChecks = 6

// blame describes the first of errs and the fix that causes it: among the
// fixes that edit its file, nearest first, the first without which the
// error goes.
func (r *FixRun) blame(plan *FixPlan, errs []string) string {
	first := errs[0]
	name, line, ok := errorPos(r.Dir, first)
	if !ok {
		return first
	}
	texts := map[string][]byte{}
	lineOf := func(name string, off int) int {
		data, ok := texts[name]
		if !ok {
			data, _ = os.ReadFile(name)
			texts[name] = data
		}
		if off > len(data) {
			off = len(data)
		}
		return 1 + bytes.Count(data[:off], []byte("\n"))
	}
	// The error's line is in the fixed file; the fixes' offsets are in the
	// old one, close enough to order them by distance.
	owners := plan.Owners(name, line, lineOf)
	if len(owners) > maxBlameChecks {
		owners = owners[:maxBlameChecks]
	}
	for _, o := range owners {
		changes, err := plan.Apply(r.Dir, map[int]bool{o: true})
		if err != nil {
			continue
		}
		errs, err := r.Check(overlayOf(changes))
		if err != nil || slices.Contains(errs, first) {
			continue
		}
		f := plan.Applied[o]
		return fmt.Sprintf("%s (from the fix of %s at %s, together with the others)", first, f.Analyzer.Name, relPosn(r.Dir, f.Posn))
	}
	return first
}

// errorPos returns the absolute file name and the line of an error line
// "file:line:col: message" whose file is relative to dir.
func errorPos(dir, msg string) (string, int, bool) {
	pos, _, ok := strings.Cut(msg, ": ")
	if !ok {
		return "", 0, false
	}
	file, rest, ok := splitPos(pos)
	if !ok {
		return "", 0, false
	}
	n, err := strconv.Atoi(strings.Split(strings.TrimPrefix(rest, ":"), ":")[0])
	if err != nil {
		return "", 0, false
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	return file, n, true
}

// BuildErrors loads the packages matching patterns (with their tests if
// tests is set) from dir, with overlay in place of their files, and
// returns the load and type errors of the packages that had none in
// before, the packages as they were loaded for the analysis (see
// LoadErrors for the form of each line).
func BuildErrors(dir string, patterns []string, tests bool, overlay map[string][]byte, before []*packages.Package) ([]string, error) {
	broken := map[string]bool{}
	packages.Visit(before, nil, func(p *packages.Package) {
		if len(p.Errors) > 0 {
			broken[p.ID] = true
		}
	})
	var env goEnv
	if dp := dirPatterns(patterns); len(dp) > 0 {
		var err error
		if env, err = readGoEnv(dir); err != nil {
			return nil, err
		}
	}
	expanded, err := expandWorkspace(dir, patterns, env)
	if err != nil {
		return nil, err
	}
	cfg := &packages.Config{
		Mode:    packages.NeedName | packages.NeedFiles | packages.NeedImports | packages.NeedTypes | packages.NeedSyntax | packages.NeedTypesInfo,
		Tests:   tests,
		Dir:     dir,
		Overlay: overlay,
	}
	pkgs, err := packages.Load(cfg, expanded...)
	if err != nil {
		return nil, err
	}
	var keep []*packages.Package
	for _, p := range pkgs {
		if !broken[p.ID] {
			keep = append(keep, p)
		}
	}
	wd := dir
	if wd == "" {
		wd, _ = os.Getwd()
	}
	return LoadErrors(keep, wd), nil
}
