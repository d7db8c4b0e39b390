package main

import (
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/build"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/fingerprint"
)

// auditSchemaURL names the JSON schema of the audit report: the raw file
// in the repository, which serves the schema itself (not a page about it).
const auditSchemaURL = "https://raw.githubusercontent.com/retrylint/retrylint/main/cmd/retrylint/audit.schema.json"

// calls phrases a multiplier before "calls per request".
func calls(m *auditMult) string { return toAmp(m).Phrase() + " calls per request" }

// summaryLine is the report's first line: what was analyzed and counted.
func summaryLine(rep *auditReport) string {
	s := rep.Summary
	var parts []string
	parts = append(parts, fmt.Sprintf("%d unbudgeted", s.Unbudgeted), fmt.Sprintf("%d budgeted", s.Budgeted))
	if s.Exempt > 0 {
		parts = append(parts, fmt.Sprintf("%d exempt", s.Exempt))
	}
	if s.Suppressed > 0 {
		parts = append(parts, fmt.Sprintf("%d suppressed", s.Suppressed))
	}
	if rep.Baseline != "" {
		parts = append(parts, fmt.Sprintf("%d in the baseline", s.InBaseline))
	}
	return fmt.Sprintf("%s, %s (%s), %s", plural(rep.Packages, "package"), plural(s.Sites, "retry site"), strings.Join(parts, ", "), plural(s.Chains, "nesting chain"))
}

// headline is one named line of the summary: "worst site", and its text.
type headline struct{ Label, Text string }

// headlines name the worst site, chain and dependency, the unbounded
// sites, the test files' sites and the packages not analyzed. Every
// format shows them.
func headlines(rep *auditReport) []headline {
	s := rep.Summary
	var out []headline
	if w := s.WorstSite; w != nil {
		out = append(out, headline{"worst site", fmt.Sprintf("%s to %s from %s at %s", calls(w.Total), w.Dependency, w.Function, short(w.Pos))})
	} else {
		out = append(out, headline{"worst site", "none: no retry site counts"})
	}
	if c := s.WorstChain; c != nil {
		dep := ""
		if c.Deepest != "" {
			dep = " at " + c.Deepest
		}
		out = append(out, headline{"worst chain", fmt.Sprintf("%s%s: %s, from %s", calls(c.Product), dep, chainText(*c, " → "), short(c.Pos))})
	} else {
		out = append(out, headline{"worst chain", "none: no retry site reaches another"})
	}
	if d := s.WorstDependency; d != nil {
		out = append(out, headline{"worst dependency", fmt.Sprintf("%s, up to %s (%s; worst at %s)", d.Name, calls(d.Worst), plural(d.Sites, "retry site"), short(d.Pos))})
	}
	out = append(out, rep.serviceHeadlines()...)
	if n := len(s.UnboundedSites); n > 0 {
		var where []string
		for i, u := range s.UnboundedSites {
			if i == 5 {
				where = append(where, fmt.Sprintf("and %d more", n-5))
				break
			}
			where = append(where, fmt.Sprintf("%s (%s)", short(u.Pos), u.Function))
		}
		out = append(out, headline{"unbounded", plural(n, "site") + ": " + strings.Join(where, ", ")})
	} else {
		out = append(out, headline{"unbounded", "none"})
	}
	if s.TimeBounded > 0 || s.UnknownCount > 0 {
		out = append(out, headline{"not a count", fmt.Sprintf("%s bounded only by time, %s with a count that is not known", plural(s.TimeBounded, "site"), plural(s.UnknownCount, "site"))})
	}
	if s.TestSites > 0 {
		out = append(out, headline{"test files", fmt.Sprintf("%s, %s, listed apart and not counted", plural(s.TestSites, "retry site"), plural(s.TestChains, "chain"))})
	}
	if n := len(rep.NotAnalyzed); n > 0 {
		var names []string
		for _, na := range rep.NotAnalyzed {
			names = append(names, na.Package)
		}
		if len(names) > 3 {
			names = append(names[:3], fmt.Sprintf("and %d more", n-3))
		}
		out = append(out, headline{"not analyzed", plural(n, "package") + ": " + strings.Join(names, ", ")})
	}
	return out
}

// modCache is the module cache directory, whose prefix the text formats
// leave out of positions in dependencies' modules.
var modCache = func() string {
	if d := os.Getenv("GOMODCACHE"); d != "" {
		return d
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	if gopath == "" {
		return ""
	}
	return filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
}()

// short shortens a position for reading: a file in the module cache is
// shown from its module path on.
func short(pos string) string {
	if modCache != "" && strings.HasPrefix(pos, modCache+string(filepath.Separator)) {
		return filepath.ToSlash(pos[len(modCache)+1:])
	}
	return pos
}

// chainText renders a chain's steps: "gateway.Handle ×3 → orders.Get ×3".
func chainText(c auditChain, arrow string) string {
	var parts []string
	for _, st := range c.Steps {
		parts = append(parts, fmt.Sprintf("%s ×%s", st.Function, st.Factor.Text))
	}
	return strings.Join(parts, arrow)
}

func budgetText(s *auditSite) string {
	switch s.Status {
	case statusExempt:
		return "exempt: " + s.Exempt
	case statusSuppressed:
		if s.Suppressed.Reason == "" {
			return "suppressed (no reason given)"
		}
		return "suppressed: " + s.Suppressed.Reason
	case statusUnbudgeted:
		return "none"
	}
	return s.Budget.Note
}

// delayNames are the backoff shapes as the reports say them.
var delayNames = map[string]string{
	"none":        "none",
	"fixed":       "fixed",
	"exponential": "exponential",
	"yes":         "unclassified wait",
}

func backoffText(s *auditSite) string {
	t := delayNames[s.Backoff.Delay]
	if t == "" {
		t = s.Backoff.Delay
	}
	if s.Backoff.Jitter {
		t += " + jitter"
	}
	return t
}

func boundText(s *auditSite) string {
	t := s.Bound.Text
	if s.Bound.Note != "" {
		t += " (" + s.Bound.Note + ")"
	}
	if s.Config {
		t += ", per call of the client"
	}
	return t
}

func kindText(s *auditSite) string {
	if s.API != "" {
		return s.Kind + " " + s.API
	}
	return s.Kind
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// shareText gives "3 of 4".
func shareText(d *auditDep) string {
	return fmt.Sprintf("%d of %d", d.Unbudgeted, d.Sites)
}

func depChainText(d *auditDep) string {
	if d.WorstChain == nil {
		return "-"
	}
	return fmt.Sprintf("%s from %s (%s)", d.WorstChain.Total.Text, d.WorstChain.Function, short(d.WorstChain.Pos))
}

// writeAuditText writes the report as text tables, each worst first.
func writeAuditText(w io.Writer, rep *auditReport) error {
	fmt.Fprintf(w, "retrylint audit: %s\n", summaryLine(rep))
	for _, h := range headlines(rep) {
		fmt.Fprintf(w, "%s: %s\n", h.Label, h.Text)
	}
	fmt.Fprintf(w, "\nDEPENDENCIES (worst first: calls per request one can receive)\n")
	if len(rep.Dependencies) == 0 {
		fmt.Fprintln(w, "none")
	} else {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CALLS\tDEPENDENCY\tSITES\tUNBUDGETED\tWORST BOUND\tWORST CHAIN ENDING HERE")
		for _, d := range rep.Dependencies {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", d.Worst.Text, d.Name, d.Sites, shareText(d), d.WorstBound.Text, depChainText(d))
		}
		tw.Flush()
	}
	writeTextServices(w, rep)
	writeTextChains(w, "NESTING CHAINS (calls per request at the deepest dependency, outermost site first)", rep.Chains)
	writeTextSites(w, "RETRY SITES (worst first)", rep.Sites)
	if len(rep.Tests.Sites) > 0 {
		writeTextChains(w, "TEST FILES: NESTING CHAINS (not counted)", rep.Tests.Chains)
		writeTextSites(w, "TEST FILES: RETRY SITES (not counted)", rep.Tests.Sites)
	}
	if len(rep.NotAnalyzed) > 0 {
		fmt.Fprintf(w, "\nNOT ANALYZED\n")
		for _, na := range rep.NotAnalyzed {
			fmt.Fprintf(w, "%s: %s\n", na.Package, na.Reason)
		}
	}
	return nil
}

func writeTextChains(w io.Writer, title string, chains []auditChain) {
	fmt.Fprintf(w, "\n%s\n", title)
	if len(chains) == 0 {
		fmt.Fprintln(w, "none")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CALLS\tPOSITION\tDEEPEST DEPENDENCY\tCHAIN")
	for _, c := range chains {
		mark := ""
		if c.Reported {
			mark = " [nestedretry]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s%s\n", c.Product.Text, short(c.Pos), orDash(c.Deepest), chainText(c, " → "), mark)
	}
	tw.Flush()
}

func writeTextSites(w io.Writer, title string, sites []*auditSite) {
	fmt.Fprintf(w, "\n%s\n", title)
	if len(sites) == 0 {
		fmt.Fprintln(w, "none")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "CALLS\tPOSITION\tDEPENDENCY\tBOUND\tBUDGET\tBACKOFF\tFUNCTION\tKIND")
	for _, s := range sites {
		mark := ""
		if s.Baseline {
			mark = " (in the baseline)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s%s\n", s.Total.Text, short(s.Pos), orDash(s.Dependency), boundText(s), budgetText(s), backoffText(s), s.Function, kindText(s), mark)
	}
	tw.Flush()
}

// writeAuditJSON writes the report as JSON (audit.schema.json).
func writeAuditJSON(w io.Writer, rep *auditReport) error {
	out := *rep
	out.Schema = auditSchemaURL
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(&out)
}

// mdEscape escapes text for a Markdown table cell.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "`", "'", "[", `\[`, "]", `\]`, "\n", " ")
	return r.Replace(s)
}

// mdLimit is GitHub's limit on the length of a comment, in characters.
const mdLimit = 65536

// siteLink returns the link of a position through the link template, or
// "" without one.
func (rep *auditReport) siteLink(pos string) string {
	if rep.link == "" {
		return ""
	}
	file, line, col := splitPos(pos)
	return strings.NewReplacer("{file}", filepath.ToSlash(file), "{line}", strconv.Itoa(line), "{column}", strconv.Itoa(col)).Replace(rep.link)
}

// checkLinkTemplate rejects a template that cannot name a file.
func checkLinkTemplate(t string) error {
	if t != "" && !strings.Contains(t, "{file}") {
		return fmt.Errorf("-link-template %q has no {file}", t)
	}
	return nil
}

func (rep *auditReport) mdPos(pos string) string {
	code := "`" + strings.ReplaceAll(short(pos), "`", "'") + "`"
	if l := rep.siteLink(pos); l != "" {
		return "[" + code + "](" + strings.ReplaceAll(strings.ReplaceAll(l, "(", "%28"), ")", "%29") + ")"
	}
	return code
}

// writeAuditMarkdown writes the report for a pull-request comment: the
// summary, the dependencies, the chains and the worst sites, within limit
// characters; what does not fit is counted in a note.
func writeAuditMarkdown(w io.Writer, rep *auditReport, maxSites, limit int) error {
	var b strings.Builder
	s := rep.Summary
	fmt.Fprintf(&b, "## retrylint audit\n\n%s\n\n", mdEscape(summaryLine(rep)))
	for _, h := range headlines(rep) {
		fmt.Fprintf(&b, "- **%s**: %s\n", h.Label, mdEscape(h.Text))
	}
	b.WriteString("\n")
	// Every part below is cut to what fits; the note at the end says
	// what was left out.
	const reserve = 600 // room for the closing note and tags
	var left []string
	budget := func() int { return limit - reserve - len([]rune(b.String())) }
	rows := func(header string, n int, row func(i int) string, what string) {
		if n == 0 {
			return
		}
		if budget() < len([]rune(header))+1 {
			left = append(left, plural(n, what))
			return
		}
		b.WriteString(header)
		shown := 0
		for i := 0; i < n; i++ {
			r := row(i)
			if len([]rune(r)) > budget() {
				break
			}
			b.WriteString(r)
			shown++
		}
		b.WriteString("\n")
		if shown < n {
			left = append(left, plural(n-shown, what))
		}
	}
	b.WriteString("### Dependencies\n\nCalls per request each dependency can receive when it fails, worst first.\n\n")
	rows("| calls | dependency | retry sites | unbudgeted | worst bound | worst chain ending here |\n|---:|---|---:|---:|---|---|\n", len(rep.Dependencies), func(i int) string {
		d := rep.Dependencies[i]
		ch := "-"
		if d.WorstChain != nil {
			ch = fmt.Sprintf("%s from `%s` %s", mdEscape(d.WorstChain.Total.Text), mdCodeText(d.WorstChain.Function), rep.mdPos(d.WorstChain.Pos))
		}
		return fmt.Sprintf("| **%s** | %s | %d | %s | %s | %s |\n", mdEscape(d.Worst.Text), mdEscape(d.Name), d.Sites, shareText(d), mdEscape(d.WorstBound.Text), ch)
	}, "dependency")
	if len(rep.Dependencies) == 0 {
		b.WriteString("No retry site.\n\n")
	}
	writeMarkdownServices(&b, rep, rows)
	b.WriteString("### Nesting chains\n\n")
	if len(rep.Chains) == 0 {
		b.WriteString("No retry site reaches another.\n\n")
	} else {
		b.WriteString("Calls per request at the deepest dependency when it fails; retry at one layer only.\n\n")
	}
	rows("| calls | where | deepest dependency | chain | knows the deadline |\n|---:|---|---|---|---|\n", len(rep.Chains), func(i int) string {
		c := rep.Chains[i]
		var parts []string
		for _, st := range c.Steps {
			parts = append(parts, fmt.Sprintf("`%s` ×%s", mdCodeText(st.Function), mdEscape(st.Factor.Text)))
		}
		return fmt.Sprintf("| **%s** | %s | %s | %s | %s |\n", mdEscape(c.Product.Text), rep.mdPos(c.Pos), mdEscape(orDash(c.Deepest)), strings.Join(parts, " → "), mdCode(c.DeadlineOwner))
	}, "chain")
	n := min(len(rep.Sites), maxSites)
	if n < len(rep.Sites) {
		left = append(left, plural(len(rep.Sites)-n, "retry site")+" beyond the first "+strconv.Itoa(n))
	}
	if n > 0 {
		fmt.Fprintf(&b, "### Retry sites, worst first\n\n")
	}
	rows("| calls | where | dependency | bound | budget | backoff | function | kind |\n|---:|---|---|---|---|---|---|---|\n", n, func(i int) string {
		st := rep.Sites[i]
		return fmt.Sprintf("| %s | %s | %s | %s | %s | %s | `%s` | %s |\n", mdEscape(st.Total.Text), rep.mdPos(st.Pos), mdEscape(orDash(st.Dependency)), mdEscape(boundText(st)), mdEscape(budgetText(st)), mdEscape(backoffText(st)), mdCodeText(st.Function), mdEscape(kindText(st)))
	}, "retry site")
	if s.TestSites > 0 {
		left = append(left, fmt.Sprintf("%s in test files (not counted)", plural(s.TestSites, "retry site")))
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "_Left out to stay within GitHub's comment limit: %s. The json, html and csv reports list everything._\n", mdEscape(strings.Join(left, "; ")))
	}
	out := b.String()
	if r := []rune(out); len(r) > limit {
		out = string(r[:limit-1]) + "\n" // cannot happen with the reserve; be safe
	}
	_, err := io.WriteString(w, out)
	return err
}

func mdCodeText(s string) string { return strings.ReplaceAll(s, "`", "'") }

func mdCode(s string) string {
	if s == "" {
		return "none"
	}
	return "`" + mdCodeText(s) + "`"
}

// writeAuditCSV writes one row per site, for a spreadsheet: the listed
// sites worst first, then those of test files.
func writeAuditCSV(w io.Writer, rep *auditReport) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"calls", "calls_kind", "calls_value", "status", "test", "position", "file", "line", "column", "package", "function", "kind", "api", "bound", "backoff", "budget", "dependency", "deepest_dependency", "nested", "nested_reported", "in_baseline", "suppressed_reason", "fingerprint"})
	for _, sites := range [][]*auditSite{rep.Sites, rep.Tests.Sites} {
		for _, s := range sites {
			reason := ""
			if s.Suppressed != nil {
				reason = s.Suppressed.Reason
			}
			cw.Write([]string{
				s.Total.Text, s.Total.Kind, strconv.FormatFloat(s.Total.Value, 'f', -1, 64), s.Status, strconv.FormatBool(s.Test),
				s.Pos, s.File, strconv.Itoa(s.Line), strconv.Itoa(s.Column), s.Package, s.Function, s.Kind, s.API,
				boundText(s), backoffText(s), budgetText(s), s.Dependency, s.Deepest,
				strconv.FormatBool(s.Nested), strconv.FormatBool(s.Reported), strconv.FormatBool(s.Baseline), reason, s.Fingerprint,
			})
		}
	}
	cw.Flush()
	return cw.Error()
}

// Audit SARIF rules.
const (
	ruleChain = "retry-chain"
	ruleSite  = "retry-site"
)

// auditSarifResult is a SARIF result with what the audit adds: in-source
// suppressions and the state against a baseline.
type auditSarifResult struct {
	sarifResult
	Suppressions  []sarifSuppression `json:"suppressions,omitempty"`
	BaselineState string             `json:"baselineState,omitempty"`
}

type sarifSuppression struct {
	Kind          string `json:"kind"`
	Justification string `json:"justification,omitempty"`
}

type auditSarifRun struct {
	Tool               sarifTool                   `json:"tool"`
	Results            []auditSarifResult          `json:"results"`
	OriginalURIBaseIDs map[string]sarifArtifactLoc `json:"originalUriBaseIds,omitempty"`
	ColumnKind         string                      `json:"columnKind"`
}

type auditSarifLog struct {
	Schema  string          `json:"$schema"`
	Version string          `json:"version"`
	Runs    []auditSarifRun `json:"runs"`
}

// writeAuditSARIF writes the report as SARIF 2.1.0: one result per nesting
// chain (warning when nestedretry reports it, note otherwise) and one per
// retry site (warning when no budget guards it, note otherwise; note in
// test files), with the inner sites of a chain as related locations. Each
// result's fingerprint is the site's line-independent key.
func writeAuditSARIF(w io.Writer, rep *auditReport) error {
	version, semver := toolVersion()
	run := auditSarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            "retrylint",
			Version:         version,
			SemanticVersion: semver,
			InformationURI:  "https://github.com/retrylint/retrylint",
			Rules: append([]sarifRule{
				{
					ID:                   ruleChain,
					Name:                 "NestedRetryChain",
					ShortDescription:     sarifText{"retries nest across layers and multiply"},
					FullDescription:      sarifText{"A retry site whose attempts reach other retry sites: the attempt counts multiply at the deepest dependency (3 × 3 × 3 = 27 calls per request). Retry at one layer only, the one that knows the request's deadline, or guard every layer with a retry budget."},
					Help:                 sarifText{"Retry at one layer only (the one that knows the request's deadline) and let the others fail fast, or guard each layer's retries with a per-dependency retry budget."},
					HelpURI:              "https://pkg.go.dev/github.com/retrylint/retrylint/passes/nestedretry",
					DefaultConfiguration: map[string]string{"level": "warning"},
				},
				{
					ID:                   ruleSite,
					Name:                 "RetrySite",
					ShortDescription:     sarifText{"a retry site, its bound and its budget"},
					FullDescription:      sarifText{"A place where one operation can be attempted more than once, with its attempt bound, backoff, budget and dependency. Sites without a retry budget multiply the load on a failing dependency by their attempt bound."},
					Help:                 sarifText{"Guard each retry with a per-dependency retry budget."},
					HelpURI:              "https://pkg.go.dev/github.com/retrylint/retrylint/passes/fixedattempts",
					DefaultConfiguration: map[string]string{"level": "note"},
				},
			}, rep.serviceRules()...),
		}},
		Results:            []auditSarifResult{},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{"SRCROOT": {URI: "file://" + filepath.ToSlash(rep.root) + "/"}},
		ColumnKind:         "utf16CodeUnits",
	}
	lines := newLineCache()
	for _, chains := range [][]auditChain{rep.Chains, rep.Tests.Chains} {
		for _, c := range chains {
			level := "note"
			if c.Reported && !c.site.Test {
				level = "warning"
			}
			res := rep.sarifResult(ruleChain, 0, level, c.Message, c.Pos, c.Fingerprint, c.site, lines)
			for i, st := range c.Steps[1:] {
				loc := rep.sarifPos(st.Pos, lines)
				id := i + 1
				loc.ID = &id
				loc.Message = &sarifText{fmt.Sprintf("%s retries here (×%s)", st.Function, st.Factor.Text)}
				res.RelatedLocations = append(res.RelatedLocations, loc)
			}
			run.Results = append(run.Results, res)
		}
	}
	for _, sites := range [][]*auditSite{rep.Sites, rep.Tests.Sites} {
		for _, s := range sites {
			level := "note"
			if s.Status == statusUnbudgeted && !s.Test {
				level = "warning"
			}
			msg := fmt.Sprintf("%s in %s: %s, backoff %s, budget %s, dependency %s: up to %s", siteLabel(s), s.Function, boundText(s), backoffText(s), budgetText(s), orDash(s.Dependency), calls(s.Total))
			run.Results = append(run.Results, rep.sarifResult(ruleSite, 1, level, msg, s.Pos, s.Fingerprint, s, lines))
		}
	}
	run.Results = append(run.Results, rep.sarifServices(2, lines)...)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(auditSarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []auditSarifRun{run},
	})
}

func siteLabel(s *auditSite) string {
	if s.API != "" {
		return s.Kind + " " + s.API
	}
	return "retry " + s.Kind
}

func (rep *auditReport) sarifResult(rule string, index int, level, msg, pos, fingerprint string, s *auditSite, lines *lineCache) auditSarifResult {
	res := auditSarifResult{sarifResult: sarifResult{
		RuleID:              rule,
		RuleIndex:           index,
		Level:               level,
		Message:             sarifText{msg},
		Locations:           []sarifLocation{rep.sarifPos(pos, lines)},
		PartialFingerprints: map[string]string{"retrylint/v2": fingerprint},
	}}
	if s.Suppressed != nil {
		res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: s.Suppressed.Reason}}
	}
	if rep.Baseline != "" {
		res.BaselineState = "new"
		if s.Baseline {
			res.BaselineState = "unchanged"
		}
	}
	return res
}

// sarifPos converts a report position (relative to the working directory
// when below it) to a SARIF location.
func (rep *auditReport) sarifPos(pos string, lines *lineCache) sarifLocation {
	file, line, col := splitPos(pos)
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(rep.root, file)
	}
	uri, base := filepath.ToSlash(file), "SRCROOT"
	if filepath.IsAbs(file) {
		uri, base = "file://"+filepath.ToSlash(file), ""
	}
	text := lines.line(abs, line)
	c := utf16Column(text, col)
	return sarifLocation{PhysicalLocation: sarifPhysical{
		ArtifactLocation: sarifArtifactLoc{URI: uri, URIBaseID: base},
		Region:           sarifRegion{StartLine: max(line, 1), StartColumn: c, EndLine: max(line, 1), EndColumn: c},
	}}
}

// splitPos splits "file:line:col".
func splitPos(pos string) (string, int, int) {
	var line, col int
	i := strings.LastIndexByte(pos, ':')
	j := strings.LastIndexByte(pos[:max(i, 0)], ':')
	if i < 0 || j < 0 {
		return pos, 1, 1
	}
	fmt.Sscan(pos[j+1:i], &line)
	fmt.Sscan(pos[i+1:], &col)
	return pos[:j], line, col
}

// A site's fingerprint identifies it across edits that move it: the key
// of package fingerprint (the one of the lint mode's SARIF and baseline)
// of its rule, its file (module path and path inside the module), its
// function, what retries (kind and API, as the message) and the tokens of
// the site's source from its position to the end of that line, with the
// line number left out; sites that agree on all of it are told apart by
// their order in the file (":1", ":2"). A chain's fingerprint adds the
// functions along it to its outermost site's.
func assignFingerprints(sites []*auditSite) {
	count := fingerprint.Counter{}
	for _, s := range sites { // in position order
		key := fingerprint.Finding{Rule: ruleSite, File: s.fileKey, Func: s.Function, Message: strings.TrimSpace(s.Kind + " " + s.API), Site: s.head}.Key()
		s.Fingerprint = count.Next(key)
	}
}

func chainFingerprint(s *auditSite) string {
	parts := []string{ruleChain, s.Fingerprint}
	for _, st := range s.Steps {
		parts = append(parts, st.Func, st.Site)
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// auditBaseline is the file -write-baseline writes and -baseline reads:
// the fingerprints of the sites listed when it was written, with their
// positions then for a reader.
type auditBaseline struct {
	Version int                 `json:"version"`
	Tool    string              `json:"tool"`
	Sites   []auditBaselineSite `json:"sites"`
}

type auditBaselineSite struct {
	Fingerprint string `json:"fingerprint"`
	Pos         string `json:"pos"`
	Function    string `json:"function"`
}

const auditBaselineTool = "retrylint audit"

func writeAuditBaseline(w io.Writer, rep *auditReport) error {
	b := auditBaseline{Version: 1, Tool: auditBaselineTool, Sites: []auditBaselineSite{}}
	for _, sites := range [][]*auditSite{rep.Sites, rep.Tests.Sites} {
		for _, s := range sites {
			b.Sites = append(b.Sites, auditBaselineSite{Fingerprint: s.Fingerprint, Pos: s.Pos, Function: s.Function})
		}
	}
	sort.Slice(b.Sites, func(i, j int) bool { return b.Sites[i].Fingerprint < b.Sites[j].Fingerprint })
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(b)
}

func readAuditBaseline(path string) (map[string]bool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("baseline: %v", err)
	}
	var b auditBaseline
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("baseline %s: not a baseline written by retrylint audit -write-baseline: %v", path, err)
	}
	if b.Tool != auditBaselineTool || b.Version != 1 {
		return nil, fmt.Errorf("baseline %s: not a baseline written by retrylint audit -write-baseline (tool %q, version %d)", path, b.Tool, b.Version)
	}
	known := map[string]bool{}
	for _, s := range b.Sites {
		known[s.Fingerprint] = true
	}
	return known, nil
}

// toAmp converts a report multiplier back for drawing and phrasing.
func toAmp(m *auditMult) amplify.Mult {
	k := amplify.Count
	switch m.Kind {
	case amplify.UnknownCount.String():
		k = amplify.UnknownCount
	case amplify.TimeBounded.String():
		k = amplify.TimeBounded
	case amplify.Unbounded.String():
		k = amplify.Unbounded
	}
	return amplify.Mult{Kind: k, Value: m.Value, Open: m.Open, Assumed: m.Assumed}
}
