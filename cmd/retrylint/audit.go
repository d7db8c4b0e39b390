package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/driver"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/passes/nestedretry"
)

const auditUsage = `retrylint audit writes a report of every retry site of the packages, its
attempt bound, backoff, budget and dependency, every chain of nested retries
with the product of their attempts, and a summary.

Usage:
	retrylint audit [flags] packages

The exit status is 0 unless the packages fail to load or a threshold flag
is exceeded; then it is 1, with a line on stderr saying why.

Formats (-format): text (a table, the default), json (see
cmd/retrylint/audit.schema.json), sarif (SARIF 2.1.0, for GitHub code
scanning), markdown (for a pull-request comment), html (a self-contained
page with the worst chains drawn as a chart).

Flags:
`

// auditFlags are the audit command's settings.
type auditFlags struct {
	format          string
	output          string
	tests           bool
	maxAmp          float64
	maxUnbudgeted   int
	progress        string
	chartChains     int
	sequential      bool
	siteFlagsPrefix string
}

// audit runs the audit command and returns its exit status.
func audit(args []string) int {
	fs := flag.NewFlagSet("audit", flag.ContinueOnError)
	af := &auditFlags{}
	fs.StringVar(&af.format, "format", "text", "report format: text, json, sarif, markdown or html")
	fs.StringVar(&af.output, "o", "", "write the report to this file instead of stdout")
	fs.BoolVar(&af.tests, "test", true, "analyze test files too")
	fs.Float64Var(&af.maxAmp, "max-amplification", 0, "exit 1 when a site or chain can send more than this many calls per request to one dependency (time-bounded and unbounded retries exceed any limit; 0: no limit)")
	fs.IntVar(&af.maxUnbudgeted, "max-unbudgeted", -1, "exit 1 when more retry sites than this have no budget (-1: no limit)")
	fs.StringVar(&af.progress, "progress", "auto", "progress on stderr: auto (when stderr is a terminal), always or never")
	fs.IntVar(&af.chartChains, "chart", 15, "chains drawn in the html chart")
	fs.BoolVar(&af.sequential, "p", false, "analyze packages sequentially")
	for _, a := range shared {
		a.Flags.VisitAll(func(f *flag.Flag) {
			fs.Var(f.Value, a.Name+"."+f.Name, f.Usage)
		})
	}
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
	switch af.format {
	case "text", "json", "sarif", "markdown", "md", "html":
	default:
		fmt.Fprintf(os.Stderr, "retrylint audit: unknown format %q (want text, json, sarif, markdown or html)\n", af.format)
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "retrylint audit: no packages given")
		fs.Usage()
		return 1
	}
	prog := newProgress(af.progress)
	rep, status := runAudit(af, fs.Args(), prog)
	if rep == nil {
		return status
	}
	out := io.Writer(os.Stdout)
	if af.output != "" {
		f, err := os.Create(af.output)
		if err != nil {
			fmt.Fprintln(os.Stderr, "retrylint audit:", err)
			return 1
		}
		defer f.Close()
		out = f
	}
	var err error
	switch af.format {
	case "text":
		err = writeAuditText(out, rep)
	case "json":
		err = writeAuditJSON(out, rep)
	case "sarif":
		err = writeAuditSARIF(out, rep)
	case "markdown", "md":
		err = writeAuditMarkdown(out, rep)
	case "html":
		err = writeAuditHTML(out, rep, af.chartChains)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint audit:", err)
		return 1
	}
	return max(status, checkThresholds(af, rep))
}

// checkThresholds returns 1, with a line on stderr, when the report exceeds
// a threshold flag.
func checkThresholds(af *auditFlags, rep *auditReport) int {
	status := 0
	if af.maxAmp > 0 {
		for _, s := range rep.worstFirst() {
			if s.total.Exceeds(af.maxAmp) {
				fmt.Fprintf(os.Stderr, "retrylint audit: %s at %s can send %s calls per request to one dependency, more than -max-amplification %s\n",
					s.Function, s.Pos, s.total.Phrase(), strings.TrimSuffix(fmt.Sprint(af.maxAmp), ".0"))
				status = 1
				break
			}
		}
	}
	if af.maxUnbudgeted >= 0 && rep.Summary.Unbudgeted > af.maxUnbudgeted {
		fmt.Fprintf(os.Stderr, "retrylint audit: %d retry sites have no budget, more than -max-unbudgeted %d\n", rep.Summary.Unbudgeted, af.maxUnbudgeted)
		status = 1
	}
	return status
}

// runAudit loads and analyzes the packages once and builds the report.
// It returns a nil report and the exit status when loading fails.
func runAudit(af *auditFlags, patterns []string, prog *progress) (*auditReport, int) {
	start := time.Now()
	prog.phase("loading packages")
	pkgs, err := driver.Load("", patterns, af.tests)
	if err != nil {
		prog.done()
		fmt.Fprintln(os.Stderr, "retrylint audit:", err)
		return nil, 1
	}
	status := 0
	if n := driver.PrintErrors(pkgs); n > 0 {
		prog.done()
		fmt.Fprintf(os.Stderr, "retrylint audit: %d errors loading the packages\n", n)
		return nil, 1
	}
	prog.total.Store(int64(len(pkgs)))
	prog.phase("analyzing")
	tick := &analysis.Analyzer{
		Name:     "progress",
		Doc:      "count analyzed packages",
		Requires: []*analysis.Analyzer{amplify.Analyzer},
		Run: func(*analysis.Pass) (any, error) {
			prog.count.Add(1)
			return nil, nil
		},
	}
	graph, err := driver.Analyze([]*analysis.Analyzer{amplify.Analyzer, tick}, pkgs, af.sequential)
	prog.done()
	if err != nil {
		fmt.Fprintln(os.Stderr, "retrylint audit:", err)
		return nil, 1
	}
	rep, failed := buildReport(graph, len(pkgs))
	if failed > 0 {
		status = 1
	}
	prog.finish(rep, time.Since(start))
	return rep, status
}

// auditReport is the audit's result, in the shape of its JSON form
// (cmd/retrylint/audit.schema.json).
type auditReport struct {
	Schema   string       `json:"$schema,omitempty"`
	Version  int          `json:"version"`
	Tool     string       `json:"tool"`
	Packages int          `json:"packages"`
	Summary  auditSummary `json:"summary"`
	Sites    []*auditSite `json:"sites"`
	Chains   []*auditSite `json:"-"` // sites whose attempts reach nested retries, worst first
	// ChainsOut is Chains in JSON form.
	ChainsOut []auditChain `json:"chains"`
	root      string
}

type auditSummary struct {
	Sites      int         `json:"sites"`
	Unbudgeted int         `json:"unbudgeted"`
	Budgeted   int         `json:"budgeted"`
	Exempt     int         `json:"exempt"`
	Chains     int         `json:"chains"`
	Reported   int         `json:"nested_reported"`
	Worst      *auditChain `json:"worst_chain"`
	WorstSite  *auditMult  `json:"worst_site_total"`
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

type auditSite struct {
	Pos        string         `json:"pos"`
	File       string         `json:"file"`
	Line       int            `json:"line"`
	Column     int            `json:"column"`
	Package    string         `json:"package"`
	Function   string         `json:"function"`
	Kind       string         `json:"kind"`
	API        string         `json:"api,omitempty"`
	Bound      auditBound     `json:"bound"`
	Backoff    auditBackoff   `json:"backoff"`
	Budget     *auditBudget   `json:"budget"`
	Dependency string         `json:"dependency"`
	Exempt     string         `json:"exempt,omitempty"`
	Config     bool           `json:"configures_client,omitempty"`
	Factor     *auditMult     `json:"factor"`
	Reaches    *auditMult     `json:"reaches"`
	Total      *auditMult     `json:"total"`
	Nested     bool           `json:"nested"`
	Reported   bool           `json:"nested_reported"`
	Steps      []amplify.Step `json:"-"`
	total      amplify.Mult
	amp        *amplify.SiteAmp
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
	DeadlineOwner string      `json:"deadline_owner"`
	Reported      bool        `json:"nested_reported"`
	Message       string      `json:"message"`
	Steps         []auditStep `json:"steps"`
}

var guardKinds = map[retrysite.GuardKind]string{
	retrysite.GuardMethod:  "method",
	retrysite.GuardLimiter: "limiter",
	retrysite.GuardBreaker: "breaker",
	retrysite.GuardFunc:    "func",
	retrysite.GuardNative:  "native",
	retrysite.GuardHelper:  "helper",
}

var boundKinds = map[retrysite.BoundKind]string{
	retrysite.BoundUnknown: "unknown",
	retrysite.BoundCount:   "count",
	retrysite.BoundTime:    "time",
	retrysite.Unbounded:    "unbounded",
}

// buildReport collects the sites from the root actions of the amplify
// analyzer, once per position (a package and its test variant share
// files), and returns the report and the number of failed actions.
func buildReport(g *checker.Graph, npkgs int) (*auditReport, int) {
	root, _ := os.Getwd()
	rep := &auditReport{Version: 1, Tool: "retrylint", Packages: npkgs, Sites: []*auditSite{}, ChainsOut: []auditChain{}, root: root}
	failed := 0
	seen := map[string]bool{}
	for act := range g.All() {
		if act.Err != nil {
			if act.IsRoot {
				fmt.Fprintf(os.Stderr, "retrylint audit: %s: %v\n", act, act.Err)
				failed++
			}
			continue
		}
		if !act.IsRoot || act.Analyzer != amplify.Analyzer {
			continue
		}
		res, ok := act.Result.(*amplify.Result)
		if !ok || res == nil {
			continue
		}
		for _, a := range res.Sites {
			if seen[a.Step.Pos] {
				continue
			}
			seen[a.Step.Pos] = true
			rep.Sites = append(rep.Sites, rep.site(act.Package.PkgPath, a))
		}
	}
	sort.Slice(rep.Sites, func(i, j int) bool {
		a, b := rep.Sites[i], rep.Sites[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	sum := &rep.Summary
	var worstSite *auditSite
	for _, s := range rep.Sites {
		sum.Sites++
		switch {
		case s.Exempt != "":
			sum.Exempt++
		case s.Budget != nil:
			sum.Budgeted++
		default:
			sum.Unbudgeted++
		}
		if s.Nested && !s.amp.Config && s.Exempt == "" && s.total.Worse(s.amp.Step.Factor) {
			rep.Chains = append(rep.Chains, s)
		}
		if worstSite == nil || s.total.Worse(worstSite.total) {
			worstSite = s
		}
	}
	if worstSite != nil {
		sum.WorstSite = worstSite.Total
	}
	sort.SliceStable(rep.Chains, func(i, j int) bool {
		return rep.Chains[i].total.Worse(rep.Chains[j].total)
	})
	for _, s := range rep.Chains {
		c := rep.chain(s)
		if c.Reported {
			sum.Reported++
		}
		rep.ChainsOut = append(rep.ChainsOut, c)
	}
	sum.Chains = len(rep.Chains)
	if len(rep.ChainsOut) > 0 {
		w := rep.ChainsOut[0]
		sum.Worst = &w
	}
	return rep, failed
}

// rel makes a position relative to the working directory when it lies
// below it.
func (rep *auditReport) rel(pos string) string {
	if r, err := filepath.Rel(rep.root, pos); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return pos
}

func (rep *auditReport) site(pkg string, a *amplify.SiteAmp) *auditSite {
	s := a.Site
	file, line, col, _ := amplify.ParsePos(a.Step.Pos)
	relFile := rep.rel(file)
	out := &auditSite{
		Pos:        fmt.Sprintf("%s:%d:%d", relFile, line, col),
		File:       relFile,
		Line:       line,
		Column:     col,
		Package:    strings.TrimSuffix(pkg, "_test"),
		Function:   a.Step.Func,
		Kind:       s.Kind.String(),
		API:        s.API,
		Bound:      auditBound{Kind: boundKinds[s.Bound.Kind], N: s.Bound.N, Expr: s.Bound.Expr, Note: s.Bound.Note, Text: s.Bound.String()},
		Backoff:    auditBackoff{Delay: s.Backoff.Delay.String(), Jitter: s.Backoff.Jitter},
		Dependency: a.Step.Dep,
		Exempt:     s.Exempt,
		Config:     a.Config,
		Factor:     toMult(a.Step.Factor),
		Reaches:    toMult(a.Inner),
		Total:      toMult(a.Total),
		Nested:     a.Nested(),
		Reported:   nestedretry.Reportable(a),
		Steps:      a.Chain,
		total:      a.Total,
		amp:        a,
	}
	if out.Function == "" {
		out.Function = "(package level)"
	}
	if s.Guard != nil {
		out.Budget = &auditBudget{Guard: s.Guard.Desc, Kind: guardKinds[s.Guard.Kind], Note: a.Step.Budget, Mult: toMult(a.Step.Factor)}
	}
	return out
}

func (rep *auditReport) chain(s *auditSite) auditChain {
	c := auditChain{
		Pos:           s.Pos,
		Function:      s.Function,
		Product:       s.Total,
		DeadlineOwner: nestedretry.DeadlineOwner(s.Steps),
		Reported:      s.Reported,
		Message:       nestedretry.Message(s.amp),
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
	return c
}

// worstFirst returns the sites, the worst total first.
func (rep *auditReport) worstFirst() []*auditSite {
	out := append([]*auditSite(nil), rep.Sites...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].total.Worse(out[j].total) })
	return out
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
}

func newProgress(mode string) *progress {
	p := &progress{}
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

func (p *progress) draw() {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("retrylint audit: %s… %.1fs", p.what, time.Since(p.start).Seconds())
	if n := p.total.Load(); n > 0 && p.what == "analyzing" {
		line = fmt.Sprintf("retrylint audit: analyzing %d/%d packages… %.1fs", p.count.Load(), n, time.Since(p.start).Seconds())
	}
	fmt.Fprintf(os.Stderr, "\r\033[K%s", line)
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
		fmt.Fprint(os.Stderr, "\r\033[K")
	}
}

func (p *progress) finish(rep *auditReport, d time.Duration) {
	if !p.on {
		return
	}
	fmt.Fprintf(os.Stderr, "retrylint audit: %d packages, %d retry sites, %d chains in %.1fs\n", rep.Packages, rep.Summary.Sites, rep.Summary.Chains, d.Seconds())
}
