package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/build"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
)

// auditSchemaURL names the JSON schema of the audit report.
const auditSchemaURL = "https://github.com/retrylint/retrylint/blob/main/cmd/retrylint/audit.schema.json"

// summaryLine is the report's one-line summary.
func summaryLine(rep *auditReport) string {
	s := rep.Summary
	line := fmt.Sprintf("%d packages, %d retry sites (%d unbudgeted, %d budgeted, %d exempt), %d nesting chains",
		rep.Packages, s.Sites, s.Unbudgeted, s.Budgeted, s.Exempt, s.Chains)
	if s.Worst != nil {
		line += fmt.Sprintf("; worst chain: %s calls per request from %s (%s)", toAmp(s.Worst.Product).Phrase(), s.Worst.Function, short(s.Worst.Pos))
	}
	return line
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
	switch {
	case s.Exempt != "":
		return "exempt"
	case s.Budget == nil:
		return "none"
	}
	return s.Budget.Note
}

func backoffText(s *auditSite) string {
	if s.Kind == "helper" {
		return "in the helper"
	}
	t := s.Backoff.Delay
	if s.Backoff.Jitter {
		t += "+jitter"
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

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// writeAuditText writes the report as text tables.
func writeAuditText(w io.Writer, rep *auditReport) error {
	fmt.Fprintf(w, "retrylint audit: %s\n", summaryLine(rep))
	fmt.Fprintf(w, "\nNESTING CHAINS (calls per request at the deepest dependency, outermost site first)\n")
	if len(rep.ChainsOut) == 0 {
		fmt.Fprintln(w, "none")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range rep.ChainsOut {
		mark := ""
		if c.Reported {
			mark = " [nestedretry]"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s%s\n", c.Product.Text, short(c.Pos), chainText(c, " → "), mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nRETRY SITES\n")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "POSITION\tFUNCTION\tKIND\tBOUND\tBACKOFF\tBUDGET\tDEPENDENCY\tTOTAL")
	for _, s := range rep.Sites {
		kind := s.Kind
		if s.API != "" {
			kind += " " + s.API
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", short(s.Pos), s.Function, kind, boundText(s), backoffText(s), budgetText(s), orDash(s.Dependency), s.Total.Text)
	}
	return tw.Flush()
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
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "`", "'")
	return r.Replace(s)
}

// writeAuditMarkdown writes the report for a pull-request comment.
func writeAuditMarkdown(w io.Writer, rep *auditReport) error {
	s := rep.Summary
	fmt.Fprintf(w, "## retrylint audit\n\n")
	fmt.Fprintf(w, "| packages | retry sites | unbudgeted | budgeted | exempt | nesting chains | worst chain |\n|---:|---:|---:|---:|---:|---:|---|\n")
	worst := "none"
	if s.Worst != nil {
		worst = fmt.Sprintf("**%s** calls per request from `%s`", mdEscape(toAmp(s.Worst.Product).Phrase()), s.Worst.Function)
	}
	fmt.Fprintf(w, "| %d | %d | %d | %d | %d | %d | %s |\n\n", rep.Packages, s.Sites, s.Unbudgeted, s.Budgeted, s.Exempt, s.Chains, worst)
	fmt.Fprintf(w, "### Nesting chains\n\n")
	if len(rep.ChainsOut) == 0 {
		fmt.Fprintf(w, "No retry site reaches another.\n\n")
	} else {
		fmt.Fprintf(w, "Calls per request at the deepest dependency when it fails; retry at one layer only.\n\n")
		fmt.Fprintf(w, "| calls | where | chain | knows the deadline |\n|---:|---|---|---|\n")
		for _, c := range rep.ChainsOut {
			var parts []string
			for _, st := range c.Steps {
				parts = append(parts, fmt.Sprintf("`%s` ×%s", st.Function, mdEscape(st.Factor.Text)))
			}
			fmt.Fprintf(w, "| **%s** | `%s` | %s | %s |\n", mdEscape(c.Product.Text), short(c.Pos), strings.Join(parts, " → "), mdCode(c.DeadlineOwner))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "<details><summary>%d retry sites</summary>\n\n", len(rep.Sites))
	fmt.Fprintf(w, "| where | function | kind | bound | backoff | budget | dependency | calls |\n|---|---|---|---|---|---|---|---:|\n")
	for _, st := range rep.Sites {
		kind := st.Kind
		if st.API != "" {
			kind += " " + st.API
		}
		fmt.Fprintf(w, "| `%s` | `%s` | %s | %s | %s | %s | %s | %s |\n", short(st.Pos), st.Function, mdEscape(kind), mdEscape(boundText(st)), backoffText(st), mdEscape(budgetText(st)), mdEscape(orDash(st.Dependency)), mdEscape(st.Total.Text))
	}
	fmt.Fprintf(w, "\n</details>\n")
	return nil
}

func mdCode(s string) string {
	if s == "" {
		return "none"
	}
	return "`" + s + "`"
}

// Audit SARIF rules.
const (
	ruleChain = "retry-chain"
	ruleSite  = "retry-site"
)

// writeAuditSARIF writes the report as SARIF 2.1.0: one result per nesting
// chain (warning when nestedretry reports it, note otherwise) and one per
// retry site (warning when no budget guards it, note otherwise), with the
// inner sites of a chain as related locations.
func writeAuditSARIF(w io.Writer, rep *auditReport) error {
	version, semver := toolVersion()
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            "retrylint",
			Version:         version,
			SemanticVersion: semver,
			InformationURI:  "https://github.com/retrylint/retrylint",
			Rules: []sarifRule{
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
			},
		}},
		Results:            []sarifResult{},
		OriginalURIBaseIDs: map[string]sarifArtifactLoc{"SRCROOT": {URI: "file://" + filepath.ToSlash(rep.root) + "/"}},
		ColumnKind:         "utf16CodeUnits",
	}
	lines := newLineCache()
	for _, c := range rep.ChainsOut {
		level := "note"
		if c.Reported {
			level = "warning"
		}
		res := rep.sarifResult(ruleChain, 0, level, c.Message, c.Pos, lines)
		for i, st := range c.Steps[1:] {
			loc := rep.sarifPos(st.Pos, lines)
			id := i + 1
			loc.ID = &id
			loc.Message = &sarifText{fmt.Sprintf("%s retries here (×%s)", st.Function, st.Factor.Text)}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		run.Results = append(run.Results, res)
	}
	for _, s := range rep.Sites {
		level := "note"
		if s.Budget == nil && s.Exempt == "" {
			level = "warning"
		}
		msg := fmt.Sprintf("%s: %s, backoff %s, budget %s, dependency %s: up to %s calls per request", siteLabel(s), boundText(s), backoffText(s), budgetText(s), orDash(s.Dependency), s.Total.Text)
		run.Results = append(run.Results, rep.sarifResult(ruleSite, 1, level, msg, s.Pos, lines))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{run},
	})
}

func siteLabel(s *auditSite) string {
	if s.API != "" {
		return s.Kind + " " + s.API
	}
	return "retry " + s.Kind
}

func (rep *auditReport) sarifResult(rule string, index int, level, msg, pos string, lines *lineCache) sarifResult {
	loc := rep.sarifPos(pos, lines)
	sum := sha256.Sum256([]byte(rule + "\x00" + loc.PhysicalLocation.ArtifactLocation.URI + "\x00" + msg))
	return sarifResult{
		RuleID:              rule,
		RuleIndex:           index,
		Level:               level,
		Message:             sarifText{msg},
		Locations:           []sarifLocation{loc},
		PartialFingerprints: map[string]string{"retrylint/v1": hex.EncodeToString(sum[:16])},
	}
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
