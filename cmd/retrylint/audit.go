package main

import (
	"flag"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/fingerprint"
	"github.com/retrylint/retrylint/internal/flagx"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/services"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/passes/nestedretry"
)

const auditUsage = `retrylint audit writes a report of every retry site of the packages, its
attempt bound, backoff, budget and dependency, every chain of nested retries
with the product of their attempts, the dependencies worst first, and a
summary that names the worst site, the worst chain and the worst dependency.

Usage:
	retrylint audit [flags] packages

Sites and chains are listed worst first: unbounded retries, then retries
bounded only by time, then the largest number of calls per request. Sites
in test files are listed in a section of their own and counted apart.
A site silenced for fixedattempts or nestedretry by a directive
(//nolint:retrylint, //lint:ignore fixedattempts reason) is listed as
suppressed, with its reason, and not counted.

With the binaries of a monorepo in the run (main packages that register gRPC,
connect, Twirp or HTTP handlers), the report follows a request from one
binary into the next: the service graph, one link per call site that crosses
a boundary, the worst end-to-end chain, the calls per request entering the
system that each dependency receives, and the rollout order that budgets the
deepest hop first (see docs/audit.md); -services=false audits each process
alone.

Formats (-format, a comma-separated list): text (tables, the default), json
(see cmd/retrylint/audit.schema.json), sarif (SARIF 2.1.0, for GitHub code
scanning), markdown (a pull-request comment, within GitHub's 65,536
characters), html (a self-contained page with sortable and filterable
tables and the worst chains drawn as a chart), csv (one row per site). With
one format the report goes to stdout or to -o FILE; with several, -o DIR
writes audit.txt, audit.json, audit.sarif, audit.md, audit.html and
audit.csv there, or one -o per format gives each its file, in order.

Thresholds: -max-amplification N fails when a site or chain, or an
end-to-end chain across services, can send more than N calls per request to
one dependency; an unbounded retry exceeds every
limit. A number of calls that is not known (a count from configuration, a
retry bounded only by time) cannot be compared: when the part that is known
already exceeds N, it fails; otherwise it counts against -max-unknown, which
allows none when -max-amplification is given and it is not. Sites in test
files, suppressed and exempt sites, and sites recorded in the -baseline file
are not counted.

Exit status: 0 when the report is written and no threshold is exceeded; 3
when a threshold is exceeded; 1 when the audit could not run or some
packages did not load (the report then covers the others and names them);
2 for bad flags.

Flags:
`

// auditFormats lists the formats with the file name each gets in an
// output directory.
var auditFormats = []struct{ name, file string }{
	{"text", "audit.txt"},
	{"json", "audit.json"},
	{"sarif", "audit.sarif"},
	{"markdown", "audit.md"},
	{"html", "audit.html"},
	{"csv", "audit.csv"},
}

// optInt is an int flag that knows whether it was set.
type optInt struct {
	n   int
	set bool
}

func (o *optInt) String() string {
	if !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *optInt) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return fmt.Errorf("want a number of sites, 0 or more")
	}
	o.n, o.set = n, true
	return nil
}

// auditFlags are the audit command's settings.
type auditFlags struct {
	formats       []string
	outputs       []string
	tests         bool
	maxAmp        float64
	maxUnknown    optInt
	maxUnbudgeted int
	progress      string
	chartChains   int
	mdSites       int
	sequential    bool
	pkgs          []string
	linkTemplate  string
	baseline      string
	writeBaseline string
	services      bool
}

// auditOut is one report to write: a format and where.
type auditOut struct {
	format string
	path   string // "" for stdout
	f      *os.File
}

// audit runs the audit command and returns its exit status.
func audit(args []string) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	af := new(auditFlags)
	fs.Var(&flagx.List{Names: &af.formats, Repeat: true}, "format", "report formats, comma-separated: text, json, sarif, markdown, html, csv (default text)")
	fs.Var(&flagx.List{Names: &af.outputs, Repeat: true, Whole: true}, "o", "write the report to this file (several formats: to this directory, or give one -o per format)")
	fs.BoolVar(&af.tests, "test", true, "analyze test files too (their sites are listed apart and not counted)")
	fs.Float64Var(&af.maxAmp, "max-amplification", 0, "exit 3 when a site or chain can send more than this many calls per request to one dependency (0: no limit)")
	fs.Var(&af.maxUnknown, "max-unknown", "exit 3 when more sites than this have a number of calls that cannot be compared with -max-amplification (default: 0 with -max-amplification, else no limit)")
	fs.IntVar(&af.maxUnbudgeted, "max-unbudgeted", -1, "exit 3 when more retry sites than this have no budget (-1: no limit)")
	fs.StringVar(&af.progress, "progress", "auto", "progress on stderr: auto (when stderr is a terminal), always or never")
	fs.IntVar(&af.chartChains, "chart", 15, "chains drawn in the html chart")
	fs.IntVar(&af.mdSites, "markdown-sites", 50, "sites listed in the markdown report, worst first (the rest are counted)")
	fs.BoolVar(&af.sequential, "p", false, "analyze packages sequentially")
	fs.Var(&flagx.List{Names: &af.pkgs, Repeat: true}, "pkg", "list only sites of packages matching this pattern (import path, ... as a wildcard; may be repeated); all packages are still analyzed")
	fs.StringVar(&af.linkTemplate, "link-template", "", "link each site to this URL in the html and markdown reports: {file} (relative to the working directory), {line} and {column} are replaced, e.g. https://github.com/org/repo/blob/main/{file}#L{line}")
	fs.StringVar(&af.baseline, "baseline", "", "do not count sites recorded in this file (written by -write-baseline) against the thresholds; they are listed as known")
	fs.StringVar(&af.writeBaseline, "write-baseline", "", "record the sites listed in this file, for -baseline, and skip the thresholds")
	fs.BoolVar(&af.services, "services", true, "link the calls between the binaries of the run (gRPC, connect, Twirp, HTTP) and report the service graph; false: each process alone")
	for _, a := range shared {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
	fs.SetOutput(os.Stderr)
	fs.Usage = func() {
		fmt.Fprint(os.Stderr, auditUsage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "retrylint audit: no packages given; run 'retrylint audit -h' for usage")
		return 2
	}
	if af.chartChains < 0 || af.mdSites < 0 {
		fmt.Fprintln(os.Stderr, "retrylint audit: -chart and -markdown-sites want 0 or more")
		return 2
	}
	if af.maxAmp < 0 {
		fmt.Fprintln(os.Stderr, "retrylint audit: -max-amplification wants a number of calls, 0 or more")
		return 2
	}
	if err := checkLinkTemplate(af.linkTemplate); err != nil {
		fmt.Fprintln(os.Stderr, "retrylint audit:", err)
		return 2
	}
	outs, err := auditOutputs(af)
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint audit:", err)
		return 2
	}
	var known map[string]bool
	if af.baseline != "" {
		if known, err = readAuditBaseline(af.baseline); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint audit:", err)
			return 1
		}
	}
	// Open every output before the analysis: a bad path fails at once.
	for _, o := range outs {
		if o.path == "" {
			continue
		}
		if o.f, err = os.Create(o.path); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint audit:", err)
			closeOutputs(outs)
			return 1
		}
	}
	defer closeOutputs(outs)
	var baseOut *os.File
	if af.writeBaseline != "" {
		if baseOut, err = os.Create(af.writeBaseline); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint audit:", err)
			return 1
		}
		defer baseOut.Close()
	}
	prog := newProgress(af.progress)
	rep, status := runAudit(af, fs.Args(), known, prog)
	if rep == nil {
		return status
	}
	for _, o := range outs {
		w := io.Writer(os.Stdout)
		if o.f != nil {
			w = o.f
		}
		if err := writeAudit(w, o.format, rep, af); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint audit:", err)
			return 1
		}
	}
	if baseOut != nil {
		if err := writeAuditBaseline(baseOut, rep); err != nil {
			fmt.Fprintln(os.Stderr, "retrylint audit:", err)
			return 1
		}
		return status
	}
	if t := checkThresholds(af, rep); t != 0 && status == 0 {
		status = t
	}
	if t := checkServiceThreshold(af, rep); t != 0 && status == 0 {
		status = t
	}
	return status
}

func closeOutputs(outs []*auditOut) {
	for _, o := range outs {
		if o.f != nil {
			o.f.Close()
			o.f = nil
		}
	}
}

// auditOutputs works out the reports to write from -format and -o.
func auditOutputs(af *auditFlags) ([]*auditOut, error) {
	formats := af.formats
	if len(formats) == 0 {
		formats = []string{"text"}
	}
	seen := map[string]bool{}
	var outs []*auditOut
	for _, f := range formats {
		if f == "md" {
			f = "markdown"
		}
		known := false
		for _, k := range auditFormats {
			known = known || k.name == f
		}
		if !known {
			return nil, fmt.Errorf("unknown format %q (want text, json, sarif, markdown, html or csv)", f)
		}
		if seen[f] {
			return nil, fmt.Errorf("format %s given twice", f)
		}
		seen[f] = true
		outs = append(outs, &auditOut{format: f})
	}
	paths := af.outputs
	switch {
	case len(paths) == 0:
		if len(outs) > 1 {
			return nil, fmt.Errorf("%d formats need -o DIR or one -o per format", len(outs))
		}
	case len(paths) == len(outs):
		for i, p := range paths {
			outs[i].path = p
		}
	case len(paths) == 1:
		dir := paths[0]
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		for _, o := range outs {
			for _, k := range auditFormats {
				if k.name == o.format {
					o.path = filepath.Join(dir, k.file)
				}
			}
		}
	default:
		return nil, fmt.Errorf("%d -o for %d formats: give one -o per format, or one directory", len(paths), len(outs))
	}
	return outs, nil
}

func writeAudit(w io.Writer, format string, rep *auditReport, af *auditFlags) error {
	switch format {
	case "text":
		return writeAuditText(w, rep)
	case "json":
		return writeAuditJSON(w, rep)
	case "sarif":
		return writeAuditSARIF(w, rep)
	case "markdown":
		return writeAuditMarkdown(w, rep, af.mdSites, mdLimit)
	case "html":
		return writeAuditHTML(w, rep, af.chartChains)
	case "csv":
		return writeAuditCSV(w, rep)
	}
	return fmt.Errorf("unknown format %q", format)
}

// counted returns the sites the thresholds judge: listed, outside test
// files, neither suppressed nor exempt, and not in the baseline.
func (rep *auditReport) counted() []*auditSite {
	var out []*auditSite
	for _, s := range rep.Sites {
		if (s.Status == statusUnbudgeted || s.Status == statusBudgeted) && !s.Baseline {
			out = append(out, s)
		}
	}
	return out
}

// checkThresholds returns 3, with a line on stderr for each, when the
// report exceeds a threshold flag.
func checkThresholds(af *auditFlags, rep *auditReport) int {
	status := 0
	sites := rep.counted()
	limit := strings.TrimSuffix(strconv.FormatFloat(af.maxAmp, 'f', -1, 64), ".0")
	maxUnknown := -1
	if af.maxUnknown.set {
		maxUnknown = af.maxUnknown.n
	} else if af.maxAmp > 0 {
		maxUnknown = 0
	}
	var over, unknown []*auditSite
	for _, s := range sites {
		switch {
		case af.maxAmp > 0 && s.total.Exceeds(af.maxAmp):
			over = append(over, s)
		case !s.total.Comparable():
			unknown = append(unknown, s)
		}
	}
	if len(over) > 0 {
		s := over[0] // sites are worst first
		fmt.Fprintf(os.Stderr, "retrylint audit: %s at %s can send %s calls per request to %s, more than -max-amplification %s (%s over the limit)\n",
			s.Function, s.Pos, s.total.Phrase(), depOrOne(s), limit, plural(len(over), "site"))
		status = 3
	}
	if maxUnknown >= 0 && len(unknown) > maxUnknown {
		s := unknown[0]
		why := "its number of calls is not known"
		if s.total.Kind == amplify.TimeBounded {
			why = "it retries until a deadline, so its number of calls is not a count"
		}
		fmt.Fprintf(os.Stderr, "retrylint audit: %s cannot be compared with a limit, more than -max-unknown %d allows; the first, %s at %s, sends %s calls per request: %s\n",
			plural(len(unknown), "site"), maxUnknown, s.Function, s.Pos, s.total.Phrase(), why)
		status = 3
	}
	if af.maxUnbudgeted >= 0 {
		n := 0
		for _, s := range sites {
			if s.Status == statusUnbudgeted {
				n++
			}
		}
		if n > af.maxUnbudgeted {
			fmt.Fprintf(os.Stderr, "retrylint audit: %s no budget, more than -max-unbudgeted %d\n", plural(n, "retry site has", "retry sites have"), af.maxUnbudgeted)
			status = 3
		}
	}
	return status
}

func depOrOne(s *auditSite) string {
	if s.Deepest != "" {
		return s.Deepest
	}
	return "one dependency"
}

// plural gives "1 site", "2 sites"; with two forms, the second is the
// plural: plural(n, "site has", "sites have").
func plural(n int, forms ...string) string {
	one, many := forms[0], forms[0]+"s"
	if len(forms) > 1 {
		many = forms[1]
	}
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// runAudit loads and analyzes the packages once and builds the report.
// It returns a nil report and the exit status when nothing could be
// analyzed; packages that do not load are named in the report, and the
// status is then 1.
func runAudit(af *auditFlags, patterns []string, known map[string]bool, prog *progress) (*auditReport, int) {
	start := time.Now()
	prog.phase("listing packages")
	var pkgs []*packages.Package
	var err error
	if prog.on {
		var loading atomic.Bool
		pkgs, err = driver.Load("", patterns, af.tests, func(loaded, total int) {
			prog.count.Store(int64(loaded))
			prog.total.Store(int64(total))
			if loading.CompareAndSwap(false, true) {
				prog.phase("loading")
			}
		})
	} else {
		pkgs, err = driver.Load("", patterns, af.tests)
	}
	if err != nil {
		prog.done()
		fmt.Fprintln(os.Stderr, "retrylint audit:", err)
		return nil, 1
	}
	prog.done()
	status := 0
	notLoaded := map[*packages.Package]bool{}
	if driver.PrintErrors(pkgs) > 0 {
		status = 1
		for _, p := range pkgs {
			if len(p.Errors) > 0 {
				notLoaded[p] = true
			}
		}
	}
	prog.count.Store(0)
	prog.total.Store(int64(len(pkgs)))
	prog.phase("analyzing")
	amp := af.ampAnalyzer()
	tick := &analysis.Analyzer{
		Name:     "progress",
		Doc:      "count analyzed packages",
		Requires: []*analysis.Analyzer{amp},
		Run: func(*analysis.Pass) (any, error) {
			prog.count.Add(1)
			return nil, nil
		},
	}
	roots := []*analysis.Analyzer{amp, tick}
	if af.services {
		roots = append(roots, services.Analyzer) // its results, for the service graph
	}
	graph, err := driver.Analyze(roots, pkgs, af.sequential)
	prog.done()
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint audit:", err)
		return nil, 1
	}
	rep, failed := buildReport(graph, pkgs, notLoaded, af, known)
	if failed > 0 {
		status = 1
	}
	if n := len(rep.NotAnalyzed); n > 0 {
		var names []string
		for _, na := range rep.NotAnalyzed {
			names = append(names, na.Package)
		}
		if len(names) > 5 {
			names = append(names[:5], "…")
		}
		fmt.Fprintf(os.Stderr, "retrylint audit: %s not analyzed (%s); the report covers the other %d\n",
			plural(n, "package was", "packages were"), strings.Join(names, ", "), rep.Packages)
	}
	prog.finish(rep, time.Since(start))
	return rep, status
}

// auditReport is the audit's result, in the shape of its JSON form
// (cmd/retrylint/audit.schema.json).
type auditReport struct {
	Schema       string         `json:"$schema,omitempty"`
	Version      int            `json:"version"`
	Tool         string         `json:"tool"`
	Packages     int            `json:"packages"`
	NotAnalyzed  []notAnalyzed  `json:"not_analyzed"`
	Filter       []string       `json:"filter,omitempty"`
	Baseline     string         `json:"baseline,omitempty"`
	Summary      auditSummary   `json:"summary"`
	Dependencies []*auditDep    `json:"dependencies"`
	Sites        []*auditSite   `json:"sites"`
	Chains       []auditChain   `json:"chains"`
	Tests        auditTestFiles `json:"tests"`
	// The service graph (audit_services.go): the binaries of the run,
	// the calls between them, the worst end-to-end chain, the calls per
	// request each dependency receives, and the rollout order.
	Services     []auditService     `json:"services"`
	Links        []auditLink        `json:"links"`
	ServiceChain *auditServiceChain `json:"service_chain"`
	ServiceDeps  []auditServiceDep  `json:"service_dependencies"`
	Rollout      []auditRolloutStep `json:"rollout"`
	root         string
	link         string
}

// auditTestFiles is the section of sites and chains in test files.
type auditTestFiles struct {
	Sites  []*auditSite `json:"sites"`
	Chains []auditChain `json:"chains"`
}

type notAnalyzed struct {
	Package string `json:"package"`
	Reason  string `json:"reason"`
}

type auditSummary struct {
	Sites           int          `json:"sites"`
	Unbudgeted      int          `json:"unbudgeted"`
	Budgeted        int          `json:"budgeted"`
	Exempt          int          `json:"exempt"`
	Suppressed      int          `json:"suppressed"`
	InBaseline      int          `json:"in_baseline"`
	Chains          int          `json:"chains"`
	Reported        int          `json:"nested_reported"`
	Unbounded       int          `json:"unbounded"`
	TimeBounded     int          `json:"time_bounded"`
	UnknownCount    int          `json:"unknown_count"`
	TestSites       int          `json:"test_sites"`
	TestChains      int          `json:"test_chains"`
	WorstSite       *auditRef    `json:"worst_site"`
	WorstChain      *auditChain  `json:"worst_chain"`
	WorstDependency *auditDepRef `json:"worst_dependency"`
	UnboundedSites  []auditRef   `json:"unbounded_sites"`
}

// auditRef names a site: where, what, and its calls per request.
type auditRef struct {
	Pos        string     `json:"pos"`
	Function   string     `json:"function"`
	Dependency string     `json:"dependency"`
	Total      *auditMult `json:"total"`
}

type auditDepRef struct {
	Name  string     `json:"name"`
	Worst *auditMult `json:"worst"`
	Sites int        `json:"sites"`
	Pos   string     `json:"pos"`
}

type auditMult struct {
	Kind    string  `json:"kind"`
	Value   float64 `json:"value"`
	Open    bool    `json:"open,omitempty"`
	Assumed bool    `json:"assumed,omitempty"`
	Text    string  `json:"text"`
}

func toMult(m amplify.Mult) *auditMult {
	v, _ := roundFloat(m.Value)
	return &auditMult{Kind: m.Kind.String(), Value: v, Open: m.Open, Assumed: m.Assumed, Text: m.String()}
}

// roundFloat rounds to 4 decimals, for stable output.
func roundFloat(v float64) (float64, bool) {
	r := float64(int64(v*10000+0.5)) / 10000
	return r, r == v
}

type auditBound struct {
	Kind string `json:"kind"`
	N    int    `json:"n,omitempty"`
	Expr string `json:"expr,omitempty"`
	Note string `json:"note,omitempty"`
	Text string `json:"text"`
}

type auditBackoff struct {
	Delay  string `json:"delay"`
	Jitter bool   `json:"jitter"`
}

type auditBudget struct {
	Guard string     `json:"guard"`
	Kind  string     `json:"kind"`
	Note  string     `json:"note"`
	Mult  *auditMult `json:"factor"`
}

type auditDepID struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

type auditSuppression struct {
	Directive string `json:"directive"`
	Reason    string `json:"reason"`
}

// Site statuses.
const (
	statusUnbudgeted = "unbudgeted"
	statusBudgeted   = "budgeted"
	statusExempt     = "exempt"
	statusSuppressed = "suppressed"
)

type auditSite struct {
	Pos          string            `json:"pos"`
	File         string            `json:"file"`
	Line         int               `json:"line"`
	Column       int               `json:"column"`
	Package      string            `json:"package"`
	Function     string            `json:"function"`
	Kind         string            `json:"kind"`
	API          string            `json:"api,omitempty"`
	Bound        auditBound        `json:"bound"`
	Backoff      auditBackoff      `json:"backoff"`
	Budget       *auditBudget      `json:"budget"`
	Status       string            `json:"status"`
	Dependency   string            `json:"dependency"`
	Dependencies []auditDepID      `json:"dependencies"`
	Deepest      string            `json:"deepest_dependency"`
	Exempt       string            `json:"exempt,omitempty"`
	Suppressed   *auditSuppression `json:"suppressed,omitempty"`
	Baseline     bool              `json:"in_baseline,omitempty"`
	Test         bool              `json:"test"`
	Config       bool              `json:"configures_client,omitempty"`
	Factor       *auditMult        `json:"factor"`
	Reaches      *auditMult        `json:"reaches"`
	Total        *auditMult        `json:"total"`
	Nested       bool              `json:"nested"`
	Reported     bool              `json:"nested_reported"`
	Fingerprint  string            `json:"fingerprint"`
	Steps        []amplify.Step    `json:"-"`
	total        amplify.Mult
	amp          *amplify.SiteAmp
	deps         []retrysite.Dep
	head         string // the site's source text from its position on, for its fingerprint
	fileKey      string // its file for the fingerprint: module path and path inside the module
}

type auditStep struct {
	Function   string     `json:"function"`
	Pos        string     `json:"pos"`
	Site       string     `json:"site"`
	Bound      string     `json:"bound"`
	Factor     *auditMult `json:"factor"`
	Budget     string     `json:"budget,omitempty"`
	Deadline   bool       `json:"knows_deadline"`
	Dependency string     `json:"dependency,omitempty"`
}

type auditChain struct {
	Pos           string      `json:"pos"`
	Function      string      `json:"function"`
	Product       *auditMult  `json:"product"`
	Deepest       string      `json:"deepest_dependency"`
	DeadlineOwner string      `json:"deadline_owner"`
	Reported      bool        `json:"nested_reported"`
	Message       string      `json:"message"`
	Fingerprint   string      `json:"fingerprint"`
	Steps         []auditStep `json:"steps"`
	site          *auditSite
}

// auditDep is one dependency with the retry sites that target it.
type auditDep struct {
	Name       string     `json:"name"`
	Kind       string     `json:"kind"`
	Sites      int        `json:"sites"`
	Unbudgeted int        `json:"unbudgeted"`
	Share      float64    `json:"unbudgeted_share"`
	Worst      *auditMult `json:"worst"`
	WorstPos   string     `json:"worst_pos"`
	WorstBound auditBound `json:"worst_bound"`
	BoundPos   string     `json:"worst_bound_pos"`
	WorstChain *auditRef  `json:"worst_chain"`
	key        string
	worst      amplify.Mult
	bound      amplify.Mult
	first      string // the first site's position, to order equals
}

// reportBound converts a site's attempt bound: a count with neither a
// number nor an expression is "unknown", as the schema requires.
func reportBound(b retrysite.Bound) auditBound {
	out := auditBound{Note: b.Note, Text: amplify.BoundText(b)}
	out.Kind = b.Kind.String()
	switch {
	case b.Kind == retrysite.BoundCount && b.N > 0:
		out.N = b.N
	case b.Kind == retrysite.BoundCount && strings.TrimSpace(b.Expr) != "":
		out.Expr = strings.TrimSpace(b.Expr)
	case b.Kind == retrysite.BoundCount:
		out.Kind = retrysite.BoundUnknown.String()
	}
	return out
}

// boundMult is the factor of a bound alone, without its budget, to rank
// bounds.
func boundMult(b retrysite.Bound) amplify.Mult {
	switch {
	case b.Kind == retrysite.BoundCount && b.N > 0:
		return amplify.Mult{Kind: amplify.Count, Value: float64(b.N)}
	case b.Kind == retrysite.BoundTime:
		return amplify.Mult{Kind: amplify.TimeBounded, Value: 1}
	case b.Kind == retrysite.Unbounded:
		return amplify.Mult{Kind: amplify.Unbounded, Value: 1}
	}
	return amplify.Mult{Kind: amplify.UnknownCount, Value: 1}
}

// suppressingPasses are the passes whose directives silence a site in the
// audit: the one that reports retry sites and the one that reports chains.
var suppressingPasses = []string{"fixedattempts", "nestedretry"}

// buildReport collects the sites from the root actions of the amplify
// analyzer, once per position (a package and its test variant share
// files), and returns the report and the number of actions that failed
// for another reason than a package that did not load.
func buildReport(g *checker.Graph, pkgs []*packages.Package, notLoaded map[*packages.Package]bool, af *auditFlags, known map[string]bool) (*auditReport, int) {
	root, _ := os.Getwd()
	rep := &auditReport{
		Version: 2, Tool: "retrylint", NotAnalyzed: []notAnalyzed{}, Filter: af.pkgs,
		Dependencies: []*auditDep{}, Sites: []*auditSite{}, Chains: []auditChain{},
		Tests: auditTestFiles{Sites: []*auditSite{}, Chains: []auditChain{}},
		root:  root, link: af.linkTemplate, Baseline: af.baseline,
	}
	failed := 0
	seen := map[string]bool{}
	var all []*auditSite
	lines := newLineCache()
	skipped := map[*packages.Package]bool{}
	// A file analyzed in a package and in its test variant is listed from
	// the package itself (the variant sees the test files too): packages
	// first, in the order of their IDs.
	amp := af.ampAnalyzer()
	var acts []*checker.Action
	for act := range g.All() {
		if act.IsRoot && act.Analyzer == amp {
			acts = append(acts, act)
		}
	}
	sort.Slice(acts, func(i, j int) bool {
		a, b := acts[i].Package.ID, acts[j].Package.ID
		if va, vb := strings.Contains(a, " ["), strings.Contains(b, " ["); va != vb {
			return vb
		}
		return a < b
	})
	for _, act := range acts {
		if act.Err != nil {
			skipped[act.Package] = true
			if msg := act.Err.Error(); !notLoaded[act.Package] && !strings.HasPrefix(msg, "failed prerequisites") && !strings.HasPrefix(msg, "analysis skipped due to errors") {
				fmt.Fprintf(os.Stderr, "retrylint audit: %s: %v\n", act.Package, act.Err)
				failed++
			}
			continue
		}
		res, ok := act.Result.(*amplify.Result)
		if !ok || res == nil {
			continue
		}
		var directives *suppress.Directives
		for _, a := range res.Sites {
			if seen[a.Step.Pos] {
				continue
			}
			seen[a.Step.Pos] = true
			s := rep.site(act.Package, a, lines)
			if directives == nil {
				directives = suppress.Parse(act.Package.Fset, act.Package.Syntax)
			}
			for _, pass := range suppressingPasses {
				if d, ok := directives.Lookup(act.Package.Fset, a.Site.Pos, pass); ok {
					text := directiveText(act.Package.Fset, d, lines)
					s.Suppressed = &auditSuppression{Directive: text, Reason: directiveReason(d, text)}
					s.Status = statusSuppressed
					break
				}
			}
			all = append(all, s)
		}
	}
	for _, p := range pkgs {
		switch {
		case isTestMain(p) && (notLoaded[p] || skipped[p]):
			// Generated code only: the package it tests is named.
		case notLoaded[p]:
			rep.NotAnalyzed = append(rep.NotAnalyzed, notAnalyzed{Package: p.ID, Reason: rep.loadReason(p)})
		case skipped[p]:
			rep.NotAnalyzed = append(rep.NotAnalyzed, notAnalyzed{Package: p.ID, Reason: "imports a package that did not load: " + brokenImport(p, notLoaded)})
		default:
			rep.Packages++
		}
	}
	sort.Slice(rep.NotAnalyzed, func(i, j int) bool { return rep.NotAnalyzed[i].Package < rep.NotAnalyzed[j].Package })
	sortByPos(all)
	labelDeps(all)
	assignFingerprints(all)
	var listed []*auditSite
	for _, s := range all {
		if len(af.pkgs) > 0 && !matchesAny(s.Package, af.pkgs) {
			continue
		}
		s.Baseline = known[s.Fingerprint]
		listed = append(listed, s)
	}
	sortByRisk(listed)
	for _, s := range listed {
		c, isChain := rep.chain(s)
		if s.Test {
			rep.Tests.Sites = append(rep.Tests.Sites, s)
			if isChain {
				rep.Tests.Chains = append(rep.Tests.Chains, c)
			}
			continue
		}
		rep.Sites = append(rep.Sites, s)
		if isChain {
			rep.Chains = append(rep.Chains, c)
		}
	}
	rep.Dependencies = dependencies(rep.Sites, rep.Chains)
	rep.summarize()
	rep.buildServices(g, amp)
	return rep, failed
}

// directiveText is the comment of a directive, as written.
func directiveText(fset *token.FileSet, d *suppress.Directive, lines *lineCache) string {
	p, e := fset.Position(d.Pos), fset.Position(d.End)
	text := lines.line(p.Filename, p.Line)
	if p.Column < 1 || p.Column-1 > len(text) {
		return ""
	}
	end := len(text)
	if e.Line == p.Line && e.Column-1 <= len(text) && e.Column > p.Column {
		end = e.Column - 1
	}
	return strings.TrimSpace(text[p.Column-1 : end])
}

// directiveReason is the reason a directive gives: after the pass names
// of an ignore form, or in the comment after a //nolint ("//nolint:retrylint
// // polled once at start-up").
func directiveReason(d *suppress.Directive, text string) string {
	if d.Reason != "" || d.Form != suppress.NoLint {
		return d.Reason
	}
	if _, after, ok := strings.Cut(strings.TrimPrefix(text, "//"), "//"); ok {
		return strings.TrimSpace(after)
	}
	return ""
}

// brokenImport names a package p imports, directly or not, that did not
// load.
func brokenImport(p *packages.Package, notLoaded map[*packages.Package]bool) string {
	var found string
	seen := map[*packages.Package]bool{}
	var walk func(*packages.Package)
	walk = func(q *packages.Package) {
		if found != "" || seen[q] {
			return
		}
		seen[q] = true
		paths := make([]string, 0, len(q.Imports))
		for path := range q.Imports {
			paths = append(paths, path)
		}
		sort.Strings(paths)
		for _, path := range paths {
			dep := q.Imports[path]
			if notLoaded[dep] || len(dep.Errors) > 0 {
				found = dep.ID
				return
			}
			walk(dep)
		}
	}
	walk(p)
	if found == "" {
		return "?"
	}
	return found
}

// isTestMain reports whether p is the generated main package of a test
// binary ("pkg.test").
func isTestMain(p *packages.Package) bool {
	return p.Name == "main" && strings.HasSuffix(p.ID, ".test")
}

// loadReason is the first error of a package that did not load, on one
// line: a syntax or type error with its position (relative to the working
// directory) when there is one.
func (rep *auditReport) loadReason(p *packages.Package) string {
	for _, e := range p.Errors {
		if e.Kind != packages.ListError && e.Pos != "" && e.Pos != "-" {
			return rep.rel(e.Pos) + ": " + firstLine(e.Msg)
		}
	}
	msg := p.Errors[0].Msg
	if lines := strings.Split(msg, "\n"); len(lines) > 1 && strings.HasPrefix(lines[0], "# ") {
		msg = lines[1] // "# pkg" then the error
	}
	return rep.rel(firstLine(msg))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// matchesAny reports whether an import path matches one of the patterns,
// where "..." matches any string ("./..." and "..." match everything).
func matchesAny(path string, patterns []string) bool {
	for _, p := range patterns {
		if p == "./..." || p == "..." || matchPattern(p, path) {
			return true
		}
	}
	return false
}

func matchPattern(pattern, path string) bool {
	if !strings.Contains(pattern, "...") {
		return pattern == path
	}
	parts := strings.Split(pattern, "...")
	if !strings.HasPrefix(path, parts[0]) {
		// "x/..." also matches "x" itself, as the go command does.
		return strings.HasSuffix(pattern, "/...") && len(parts) == 2 && path == strings.TrimSuffix(parts[0], "/")
	}
	rest := path[len(parts[0]):]
	for i, part := range parts[1:] {
		last := i == len(parts)-2
		if last {
			return strings.HasSuffix(rest, part)
		}
		j := strings.Index(rest, part)
		if j < 0 {
			return false
		}
		rest = rest[j+len(part):]
	}
	return true
}

func sortByPos(sites []*auditSite) {
	sort.SliceStable(sites, func(i, j int) bool {
		a, b := sites[i], sites[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
}

// statusRank orders sites that count before those that do not.
func statusRank(s *auditSite) int {
	switch s.Status {
	case statusUnbudgeted, statusBudgeted:
		return 0
	}
	return 1
}

// sortByRisk orders sites worst first: sites that count before suppressed
// and exempt ones, then by calls per request (unbounded, time-bounded,
// the largest product), then by their own factor, then by position.
func sortByRisk(sites []*auditSite) {
	sort.SliceStable(sites, func(i, j int) bool {
		a, b := sites[i], sites[j]
		if ra, rb := statusRank(a), statusRank(b); ra != rb {
			return ra < rb
		}
		if a.total.Worse(b.total) {
			return true
		}
		if b.total.Worse(a.total) {
			return false
		}
		// Alike at the deepest dependency: the site whose own retries
		// are worse first (an unbounded loop before a budgeted caller).
		return a.amp.Step.Factor.Worse(b.amp.Step.Factor)
	})
}

// rel makes a position relative to the working directory when it lies
// below it.
func (rep *auditReport) rel(pos string) string {
	if r, err := filepath.Rel(rep.root, pos); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return pos
}

func (rep *auditReport) site(p *packages.Package, a *amplify.SiteAmp, lines *lineCache) *auditSite {
	pkg := p.PkgPath
	s := a.Site
	file, line, col, _ := amplify.ParsePos(a.Step.Pos)
	relFile := rep.rel(file)
	out := &auditSite{
		Pos:          fmt.Sprintf("%s:%d:%d", relFile, line, col),
		File:         relFile,
		Line:         line,
		Column:       col,
		Package:      strings.TrimSuffix(pkg, "_test"),
		Function:     a.Step.Func,
		Kind:         s.Kind.String(),
		API:          s.API,
		Bound:        reportBound(s.Bound),
		Backoff:      auditBackoff{Delay: s.Backoff.Delay.String(), Jitter: s.Backoff.Jitter},
		Status:       statusUnbudgeted,
		Dependency:   a.Step.Dep,
		Dependencies: []auditDepID{},
		Exempt:       s.Exempt,
		Test:         strings.HasSuffix(file, "_test.go"),
		Config:       a.Config,
		Factor:       toMult(a.Step.Factor),
		Reaches:      toMult(a.Inner),
		Total:        toMult(a.Total),
		Nested:       a.Nested(),
		Reported:     nestedretry.Reportable(a),
		Steps:        a.Chain,
		total:        a.Total,
		amp:          a,
		deps:         a.Step.Deps,
	}
	if len(out.deps) == 0 && a.Passed {
		out.deps = []retrysite.Dep{callersDep}
	}
	if out.Function == "" {
		out.Function = "(package level)"
	}
	switch {
	case s.Exempt != "":
		out.Status = statusExempt
	case s.Guard != nil:
		out.Status = statusBudgeted
		out.Budget = &auditBudget{Guard: s.Guard.Desc, Kind: s.Guard.Kind.String(), Note: a.Step.Budget, Mult: toMult(a.Step.Factor)}
	}
	text := lines.line(file, line)
	if col-1 <= len(text) && col >= 1 {
		text = text[col-1:]
	}
	out.head = text
	out.fileKey = filepath.Base(file)
	if m := p.Module; m != nil {
		out.fileKey = fingerprint.File(m.Path, m.Dir, file)
	}
	return out
}

// callersDep stands for what a retry helper reaches: each caller's
// dependency (amplify.SiteAmp.Passed).
var callersDep = retrysite.Dep{Key: "callers:", Name: "(each caller's)"}

// depKind names the kind of a dependency for the report.
func depKind(d retrysite.Dep) string {
	switch d.Key {
	case "":
		return "unknown"
	case callersDep.Key:
		return "callers"
	}
	return d.Kind.String()
}

// labelDeps names the dependencies of the sites and of the steps of
// their chains for the report, and fills in the sites' dependency
// fields. A name is the dependency's short one ("inventory") unless
// dependencies of other keys share it; then each of them is named by
// what qualifies it ("orders.Service.inventory"), or by its whole key
// when even that is shared.
func labelDeps(sites []*auditSite) {
	var labels retrysite.Labels
	note := func(d retrysite.Dep) {
		if d.Key != callersDep.Key {
			labels.Add(d)
		}
	}
	for _, s := range sites {
		for _, d := range s.deps {
			note(d)
		}
		for _, st := range s.Steps {
			for _, d := range st.Deps {
				note(d)
			}
		}
	}
	label := func(deps []retrysite.Dep) ([]retrysite.Dep, string) {
		out := make([]retrysite.Dep, len(deps))
		names := make([]string, len(deps))
		for i, d := range deps {
			if d.Key != callersDep.Key {
				d.Name = labels.Name(d)
			}
			out[i], names[i] = d, d.Name
		}
		return out, strings.Join(names, ", ")
	}
	for _, s := range sites {
		s.deps, s.Dependency = label(s.deps)
		s.Dependencies = []auditDepID{}
		for _, d := range s.deps {
			s.Dependencies = append(s.Dependencies, auditDepID{Name: d.Name, Kind: depKind(d)})
		}
		steps := make([]amplify.Step, len(s.Steps))
		for i, st := range s.Steps {
			st.Deps, st.Dep = label(st.Deps)
			steps[i] = st
		}
		s.Steps = steps
		if n := len(steps); n > 1 {
			s.Deepest = steps[n-1].Dep
		} else {
			s.Deepest = s.Dependency
		}
	}
}

// chain returns the chain of a site whose attempts reach nested retries
// with a product above its own factor.
func (rep *auditReport) chain(s *auditSite) (auditChain, bool) {
	if !s.Nested || s.Config || s.Status == statusExempt || s.Status == statusSuppressed || !s.amp.Inner.Interesting() {
		return auditChain{}, false
	}
	c := auditChain{
		Pos:           s.Pos,
		Function:      s.Function,
		Product:       s.Total,
		Deepest:       s.Deepest,
		DeadlineOwner: nestedretry.DeadlineOwner(s.Steps),
		Reported:      s.Reported,
		Message:       nestedretry.Message(s.amp),
		Fingerprint:   chainFingerprint(s),
		site:          s,
	}
	for _, st := range s.Steps {
		file, line, col, _ := amplify.ParsePos(st.Pos)
		c.Steps = append(c.Steps, auditStep{
			Function:   st.Func,
			Pos:        fmt.Sprintf("%s:%d:%d", rep.rel(file), line, col),
			Site:       st.Site,
			Bound:      st.Bound,
			Factor:     toMult(st.Factor),
			Budget:     st.Budget,
			Deadline:   st.Deadline,
			Dependency: st.Dep,
		})
	}
	return c, true
}

// dependencies groups the sites by the dependencies their attempts target
// (sites whose dependency is not known are one group, "(unknown)"), with
// the worst chain that ends at each.
func dependencies(sites []*auditSite, chains []auditChain) []*auditDep {
	byKey := map[string]*auditDep{}
	var out []*auditDep
	get := func(d retrysite.Dep, pos string) *auditDep {
		if dep, ok := byKey[d.Key]; ok {
			return dep
		}
		name, kind := d.Name, depKind(d)
		if d.Key == "" {
			name = "(unknown)"
		}
		dep := &auditDep{Name: name, Kind: kind, key: d.Key, first: pos, worst: amplify.One(), Worst: toMult(amplify.One())}
		byKey[d.Key] = dep
		out = append(out, dep)
		return dep
	}
	for _, s := range sites {
		if s.Status == statusExempt || s.Status == statusSuppressed {
			continue
		}
		deps := s.deps
		if len(deps) == 0 {
			deps = []retrysite.Dep{{}}
		}
		for _, d := range deps {
			dep := get(d, s.Pos)
			dep.Sites++
			if s.Status == statusUnbudgeted {
				dep.Unbudgeted++
			}
			f := s.amp.Step.Factor
			if dep.Sites == 1 || f.Worse(dep.worst) {
				dep.worst, dep.Worst, dep.WorstPos = f, toMult(f), s.Pos
			}
			if b := boundMult(s.amp.Site.Bound); dep.Sites == 1 || b.Worse(dep.bound) {
				dep.bound, dep.WorstBound, dep.BoundPos = b, s.Bound, s.Pos
			}
		}
	}
	for _, c := range chains {
		steps := c.site.Steps
		last := steps[len(steps)-1]
		deps := last.Deps
		if len(deps) == 0 {
			deps = []retrysite.Dep{{}}
		}
		for _, d := range deps {
			dep := get(d, c.Pos)
			if dep.WorstChain == nil {
				// chains come worst first
				dep.WorstChain = &auditRef{Pos: c.Pos, Function: c.Function, Dependency: c.Deepest, Total: c.Product}
			}
			if m := c.site.total; m.Worse(dep.worst) {
				dep.worst, dep.Worst, dep.WorstPos = m, toMult(m), c.Pos
			}
		}
	}
	for _, dep := range out {
		if dep.Sites > 0 {
			dep.Share, _ = roundFloat(float64(dep.Unbudgeted) / float64(dep.Sites))
		}
		if dep.WorstBound.Kind == "" {
			dep.WorstBound = auditBound{Kind: "unknown", Text: "unknown"}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.worst.Worse(b.worst) {
			return true
		}
		if b.worst.Worse(a.worst) {
			return false
		}
		if a.Unbudgeted != b.Unbudgeted {
			return a.Unbudgeted > b.Unbudgeted
		}
		if a.Name != b.Name {
			return a.Name < b.Name
		}
		return a.first < b.first
	})
	return out
}

// summarize counts the sites and names the worst of each kind.
func (rep *auditReport) summarize() {
	sum := &rep.Summary
	sum.UnboundedSites = []auditRef{}
	for _, s := range rep.Sites {
		sum.Sites++
		switch s.Status {
		case statusExempt:
			sum.Exempt++
			continue
		case statusSuppressed:
			sum.Suppressed++
			continue
		case statusBudgeted:
			sum.Budgeted++
		default:
			sum.Unbudgeted++
		}
		if s.Baseline {
			sum.InBaseline++
		}
		switch s.amp.Step.Factor.Kind {
		case amplify.Unbounded:
			sum.Unbounded++
			sum.UnboundedSites = append(sum.UnboundedSites, ref(s))
		case amplify.TimeBounded:
			sum.TimeBounded++
		case amplify.UnknownCount:
			sum.UnknownCount++
		}
		if sum.WorstSite == nil {
			r := ref(s) // sites are worst first
			sum.WorstSite = &r
		}
	}
	for _, c := range rep.Chains {
		if c.Reported {
			sum.Reported++
		}
	}
	sum.Chains = len(rep.Chains)
	if len(rep.Chains) > 0 {
		w := rep.Chains[0]
		sum.WorstChain = &w
	}
	sum.TestSites = len(rep.Tests.Sites)
	sum.TestChains = len(rep.Tests.Chains)
	for _, d := range rep.Dependencies {
		if d.key == "" || d.key == callersDep.Key {
			continue // "(unknown)" and "(each caller's)" are no dependency to name
		}
		sum.WorstDependency = &auditDepRef{Name: d.Name, Worst: d.Worst, Sites: d.Sites, Pos: d.WorstPos}
		break
	}
}

func ref(s *auditSite) auditRef {
	return auditRef{Pos: s.Pos, Function: s.Function, Dependency: depOrOne(s), Total: s.Total}
}

// progress writes what the audit is doing to stderr when it is a
// terminal (or when asked to).
type progress struct {
	on           bool
	mu           sync.Mutex
	what         string
	start        time.Time
	count, total atomic.Int64
	stop         chan struct{}
	stopped      chan struct{}
	out          io.Writer
}

func newProgress(mode string) *progress {
	p := &progress{out: os.Stderr}
	switch mode {
	case "always":
		p.on = true
	case "never":
	default:
		if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.on = true
		}
	}
	return p
}

// phase starts showing a phase, refreshed a few times a second.
func (p *progress) phase(what string) {
	if !p.on {
		return
	}
	p.done()
	p.mu.Lock()
	p.what, p.start = what, time.Now()
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	stop, stopped := p.stop, p.stopped
	p.mu.Unlock()
	go func() {
		defer close(stopped)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			p.draw()
			select {
			case <-stop:
				return
			case <-t.C:
			}
		}
	}()
}

// line is the progress line of the current phase.
func (p *progress) line() string {
	secs := time.Since(p.start).Seconds()
	n, total := p.count.Load(), p.total.Load()
	switch {
	case p.what == "loading" && total > 0 && n == 0:
		return fmt.Sprintf("retrylint audit: loading %s: compiling dependencies… %.1fs", plural(int(total), "package"), secs)
	case p.what == "loading" && total > 0:
		return fmt.Sprintf("retrylint audit: loading packages: %d/%d parsed… %.1fs", n, total, secs)
	case p.what == "analyzing" && total > 0:
		return fmt.Sprintf("retrylint audit: analyzing packages: %d/%d… %.1fs", n, total, secs)
	}
	return fmt.Sprintf("retrylint audit: %s… %.1fs", p.what, secs)
}

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(p.out, "\r\033[K%s", p.line())
}

// done stops the current phase and clears its line.
func (p *progress) done() {
	if !p.on {
		return
	}
	p.mu.Lock()
	stop, stopped := p.stop, p.stopped
	p.stop = nil
	p.mu.Unlock()
	if stop != nil {
		close(stop)
		<-stopped
		fmt.Fprint(p.out, "\r\033[K")
	}
}

func (p *progress) finish(rep *auditReport, d time.Duration) {
	if !p.on {
		return
	}
	fmt.Fprintf(p.out, "retrylint audit: %s, %s, %s in %.1fs\n", plural(rep.Packages, "package"),
		plural(rep.Summary.Sites, "retry site"), plural(rep.Summary.Chains, "chain"), d.Seconds())
}
