package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/retrylint/retrylint/internal/amplify"
)

// The service graph in the text, markdown and SARIF reports, and in the
// headlines every format shows.

// linkCounts counts the links by status.
func (rep *auditReport) linkCounts() (linked, external, unresolved, suppressed int) {
	for _, l := range rep.Links {
		switch l.Status {
		case linkLinked:
			linked++
		case linkExternal:
			external++
		case linkUnresolved:
			unresolved++
		case linkSuppressed:
			suppressed++
		}
	}
	return
}

// servicesLine summarises the graph: "6 binaries, 15 links (12 between
// binaries, 1 external, 1 unresolved)".
func (rep *auditReport) servicesLine() string {
	linked, external, unresolved, suppressed := rep.linkCounts()
	parts := []string{fmt.Sprintf("%d between binaries", linked), fmt.Sprintf("%d external", external), fmt.Sprintf("%d unresolved", unresolved)}
	if suppressed > 0 {
		parts = append(parts, fmt.Sprintf("%d suppressed", suppressed))
	}
	return fmt.Sprintf("%s, %s (%s)", plural(len(rep.Services), "binary", "binaries"), plural(len(rep.Links), "link"), strings.Join(parts, ", "))
}

// chainHopsText renders the worst chain by binaries: "edge ×3 → orders ×3
// → ledger ×3 → db".
func (rep *auditReport) chainHopsText(c *auditServiceChain) string {
	var parts []string
	for _, h := range c.Hops {
		p := h.name
		if h.Factor != nil && toAmp(h.Factor).Interesting() {
			p += " ×" + h.Factor.Text
		}
		if h.Transport != nil {
			p += " (×" + h.Transport.Factor.Text + " transport)"
		}
		if h.Detached {
			p += " (go)"
		}
		parts = append(parts, p)
	}
	if n := len(c.Hops); n > 0 && c.Hops[n-1].Method != "" {
		last := c.Hops[n-1]
		parts = append(parts, orDash(last.toName)+" "+last.Method)
	}
	return strings.Join(parts, " → ")
}

// serviceHeadlines are the headlines of the service graph, when the run
// has binaries.
func (rep *auditReport) serviceHeadlines() []headline {
	if len(rep.Services) == 0 {
		return nil
	}
	out := []headline{{"services", rep.servicesLine()}}
	if c := rep.ServiceChain; c != nil {
		from := ""
		if len(c.Hops) > 0 {
			from = ", from " + short(c.Hops[0].Call)
		}
		out = append(out, headline{"worst end-to-end", fmt.Sprintf("%s at %s: %s%s", calls(c.Product), c.Deepest, rep.chainHopsText(c), from)})
	} else {
		out = append(out, headline{"worst end-to-end", "none: no request crosses a retry"})
	}
	if len(rep.Rollout) > 0 {
		r := rep.Rollout[0]
		out = append(out, headline{"budget first", fmt.Sprintf("%s at %s (%s): worst end-to-end %s → %s", r.Function, short(r.Pos), r.Hop, rep.ServiceChain.Product.Text, r.Worst.Text)})
	}
	return out
}

func linkTarget(l auditLink) string {
	switch l.Status {
	case linkExternal:
		return "(external)"
	case linkUnresolved:
		return "(unresolved)"
	}
	return l.toName
}

func (rep *auditReport) linkFrom(l auditLink) string {
	if l.fromName != "" {
		return l.fromName
	}
	return rep.serviceName(l.From)
}

func (rep *auditReport) linkTo(l auditLink) string {
	switch l.Status {
	case linkExternal, linkUnresolved:
		return linkTarget(l)
	case linkSuppressed:
		if l.To == "" {
			return "(suppressed)"
		}
	}
	if l.toName != "" {
		return l.toName
	}
	return rep.serviceName(l.To)
}

func retriesText(l auditLink) string {
	t := l.Factor.Text
	if l.Detached {
		t += " (go)"
	}
	return t
}

func transportText(t *auditTransport) string {
	if t == nil {
		return "-"
	}
	return "×" + t.Factor.Text
}

func serviceEntryText(s auditService) string {
	if s.Entry {
		return s.Name + " (entry)"
	}
	return s.Name
}

// writeTextServices writes the service graph's sections of the text report.
func writeTextServices(w io.Writer, rep *auditReport) {
	if len(rep.Services) == 0 {
		return
	}
	fmt.Fprintf(w, "\nSERVICES (%s; receives: calls per request entering the system, the worst of its handlers)\n", rep.servicesLine())
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "BINARY\tRECEIVES\tIMPORT PATH\tSERVES")
	for _, s := range rep.Services {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", serviceEntryText(s), s.Receives.Text, s.Binary, orDash(strings.Join(s.Serves, ", ")))
	}
	tw.Flush()
	fmt.Fprintf(w, "\nLINKS (one per call site; retries: the caller's around the call, (go): started and not waited for; calls: per request entering the system; worst: end to end through it)\n")
	if len(rep.Links) == 0 {
		fmt.Fprintln(w, "none")
	} else {
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "WORST\tCALLS\tCALLER → CALLEE\tMETHOD\tKIND\tRETRIES\tTRANSPORT\tFROM FUNCTION\tPOSITION")
		for _, l := range rep.Links {
			fmt.Fprintf(tw, "%s\t%s\t%s → %s\t%s\t%s\t%s\t%s\t%s\t%s\n", l.Worst.Text, l.Calls.Text, rep.linkFrom(l), rep.linkTo(l), l.Method, l.Kind, retriesText(l), transportText(l.Transport), l.FromFunction, short(l.Pos))
		}
		tw.Flush()
		notes := map[string]bool{}
		for _, l := range rep.Links {
			var note string
			switch {
			case l.Status == linkSuppressed:
				note = fmt.Sprintf("suppressed: %s at %s: %s", l.Method, short(l.Pos), orDash(l.Suppressed.Reason))
			case l.Reason != "":
				note = l.Status + ": " + l.Reason
			}
			if note != "" && !notes[note] {
				notes[note] = true
				fmt.Fprintln(w, "  "+note)
			}
		}
		for _, l := range rep.Links {
			if l.Transport != nil && !notes[l.Transport.Reason] {
				notes[l.Transport.Reason] = true
				fmt.Fprintf(w, "  transport ×%s: %s\n", l.Transport.Factor.Text, l.Transport.Reason)
			}
		}
	}
	fmt.Fprintf(w, "\nWORST END-TO-END CHAIN")
	if c := rep.ServiceChain; c == nil {
		fmt.Fprintf(w, "\nnone\n")
	} else {
		fmt.Fprintf(w, ": %s at %s\n", calls(c.Product), c.Deepest)
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "HOP\tBINARY\tFUNCTION\tRETRIES\tAT\tCALLS\tTHEN")
		for i, h := range c.Hops {
			at := "-"
			if len(h.Steps) > 0 {
				var ps []string
				for _, st := range h.Steps {
					ps = append(ps, short(st.Pos))
				}
				at = strings.Join(ps, ", ")
			}
			then := "-"
			if h.Method != "" {
				then = fmt.Sprintf("%s %s at %s", orDash(h.toName), h.Method, short(h.Call))
				if h.Transport != nil {
					then += " (transport ×" + h.Transport.Factor.Text + ")"
				}
			}
			retries := h.Factor.Text
			if h.Detached {
				retries += " (go)"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, h.name, h.Function, retries, at, h.Calls.Text, then)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\nCALLS PER DEPENDENCY (per request entering the system, the worst way in: the retry amplification factor of each link and leaf)\n")
	if len(rep.ServiceDeps) == 0 {
		fmt.Fprintln(w, "none")
	} else {
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CALLS\tDEPENDENCY\tKIND\tVIA")
		for _, d := range rep.ServiceDeps {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", d.Calls.Text, d.Dependency, d.Kind, d.Via)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\nROLLOUT ORDER (budget the deepest hop first: each step puts a 10%% retry budget on one retry site of the worst chain)\n")
	if len(rep.Rollout) == 0 {
		fmt.Fprintln(w, "none: no unbudgeted retry along a chain")
	} else {
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "STEP\tBUDGET\tAT\tHOP\tFACTOR\tWORST AFTER")
		for _, r := range rep.Rollout {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s → %s\t%s\n", r.Step, r.Function, short(r.Pos), r.Hop, r.Before.Text, r.After.Text, r.Worst.Text)
		}
		tw.Flush()
		if rest := rep.rolloutRest(); rest != "" {
			fmt.Fprintln(w, "  "+rest)
		}
	}
}

// rolloutRest says what the rollout leaves: the transport's replays, which
// no retry budget removes.
func (rep *auditReport) rolloutRest() string {
	if len(rep.Rollout) == 0 {
		return ""
	}
	last := rep.Rollout[len(rep.Rollout)-1]
	n := 0
	for _, l := range rep.Links {
		if l.Transport != nil && l.Status != linkSuppressed {
			n++
		}
	}
	if n > 0 {
		return fmt.Sprintf("after the rollout the worst end-to-end is %s; what remains includes net/http's replays (%s), which no retry budget removes", last.Worst.Text, plural(n, "link"))
	}
	return fmt.Sprintf("after the rollout the worst end-to-end is %s", last.Worst.Text)
}

// writeMarkdownServices writes the service graph's sections of the
// markdown report.
func writeMarkdownServices(b *strings.Builder, rep *auditReport, rows func(header string, n int, row func(i int) string, what string)) {
	if len(rep.Services) == 0 {
		return
	}
	fmt.Fprintf(b, "### Services\n\n%s. Receives: calls per request entering the system.\n\n", mdEscape(rep.servicesLine()))
	rows("| binary | receives | serves |\n|---|---:|---|\n", len(rep.Services), func(i int) string {
		s := rep.Services[i]
		var serves []string
		for _, m := range s.Serves {
			serves = append(serves, "`"+mdCodeText(m)+"`")
		}
		return fmt.Sprintf("| `%s` | %s | %s |\n", mdCodeText(serviceEntryText(s)), mdEscape(s.Receives.Text), strings.Join(serves, ", "))
	}, "binary")
	b.WriteString("### Links\n\nOne per call site. Retries: the caller's around the call; calls: per request entering the system; worst: end to end through it.\n\n")
	rows("| worst | calls | caller → callee | method | kind | retries | transport | from | where |\n|---:|---:|---|---|---|---:|---:|---|---|\n", len(rep.Links), func(i int) string {
		l := rep.Links[i]
		return fmt.Sprintf("| **%s** | %s | %s → %s | `%s` | %s | %s | %s | `%s` | %s |\n", mdEscape(l.Worst.Text), mdEscape(l.Calls.Text), mdEscape(rep.linkFrom(l)), mdEscape(rep.linkTo(l)),
			mdCodeText(l.Method), l.Kind, mdEscape(retriesText(l)), mdEscape(transportText(l.Transport)), mdCodeText(l.FromFunction), rep.mdPos(l.Pos))
	}, "link")
	notes := map[string]bool{}
	for _, l := range rep.Links {
		note := ""
		switch {
		case l.Status == linkSuppressed:
			note = fmt.Sprintf("suppressed: `%s` at %s: %s", mdCodeText(l.Method), short(l.Pos), mdEscape(orDash(l.Suppressed.Reason)))
		case l.Reason != "":
			note = l.Status + ": " + mdEscape(l.Reason)
		case l.Transport != nil:
			note = "transport ×" + l.Transport.Factor.Text + ": " + mdEscape(l.Transport.Reason)
		}
		if note != "" && !notes[note] {
			notes[note] = true
			fmt.Fprintf(b, "- %s\n", note)
		}
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	if c := rep.ServiceChain; c != nil {
		fmt.Fprintf(b, "### Worst end-to-end chain\n\n%s at %s: %s\n\n", mdEscape(calls(c.Product)), mdEscape(c.Deepest), mdEscape(rep.chainHopsText(c)))
		rows("| hop | binary | function | retries | calls | then |\n|---:|---|---|---:|---:|---|\n", len(c.Hops), func(i int) string {
			h := c.Hops[i]
			then := "-"
			if h.Method != "" {
				then = fmt.Sprintf("%s `%s` %s", mdEscape(orDash(h.toName)), mdCodeText(h.Method), rep.mdPos(h.Call))
			}
			return fmt.Sprintf("| %d | %s | `%s` | %s | %s | %s |\n", i+1, mdEscape(h.name), mdCodeText(h.Function), mdEscape(h.Factor.Text), mdEscape(h.Calls.Text), then)
		}, "hop")
	}
	b.WriteString("### Calls per dependency\n\nPer request entering the system, the worst way in.\n\n")
	rows("| calls | dependency | kind | via |\n|---:|---|---|---|\n", len(rep.ServiceDeps), func(i int) string {
		d := rep.ServiceDeps[i]
		return fmt.Sprintf("| %s | `%s` | %s | %s |\n", mdEscape(d.Calls.Text), mdCodeText(d.Dependency), d.Kind, mdEscape(d.Via))
	}, "dependency")
	if len(rep.Rollout) > 0 {
		b.WriteString("### Rollout order\n\nBudget the deepest hop first: each step puts a 10% retry budget on one retry site of the worst chain.\n\n")
		rows("| step | budget | where | hop | factor | worst after |\n|---:|---|---|---|---|---:|\n", len(rep.Rollout), func(i int) string {
			r := rep.Rollout[i]
			return fmt.Sprintf("| %d | `%s` | %s | %s | %s → %s | **%s** |\n", r.Step, mdCodeText(r.Function), rep.mdPos(r.Pos), mdEscape(r.Hop), mdEscape(r.Before.Text), mdEscape(r.After.Text), mdEscape(r.Worst.Text))
		}, "rollout step")
	}
}

// SARIF rules of the service graph.
const (
	ruleServiceChain = "service-chain"
	ruleServiceLink  = "service-link"
)

// serviceRules are the SARIF rules of the service graph, for a run with
// binaries.
func (rep *auditReport) serviceRules() []sarifRule {
	if len(rep.Services) == 0 {
		return nil
	}
	return []sarifRule{
		{
			ID:                   ruleServiceChain,
			Name:                 "ServiceRetryChain",
			ShortDescription:     sarifText{"retries multiply across the services of the monorepo"},
			FullDescription:      sarifText{"The worst chain of retries from a request entering the system to the deepest dependency, across binaries: a gRPC, connect, Twirp or HTTP call from one service to the next multiplies the callee's retries by the caller's (3 × 3 × 3 = 27 calls per request)."},
			Help:                 sarifText{"Budget the deepest hop first: put a per-dependency retry budget on the innermost retry site of the chain, then work outward (the audit's rollout order)."},
			HelpURI:              "https://github.com/retrylint/retrylint/blob/main/docs/audit.md#across-services",
			DefaultConfiguration: map[string]string{"level": "warning"},
		},
		{
			ID:                   ruleServiceLink,
			Name:                 "ServiceLink",
			ShortDescription:     sarifText{"a call from one service of the monorepo to another"},
			FullDescription:      sarifText{"A call site that crosses from one binary to another (or out of the monorepo), with the retries around it and the worst end-to-end product through it. The link is shown with the code that makes it, so that a wrong one can be seen and suppressed (//lint:ignore services reason)."},
			Help:                 sarifText{"Check that the link is the call the code makes; suppress a wrong one with //lint:ignore services <reason> on the call's line."},
			HelpURI:              "https://github.com/retrylint/retrylint/blob/main/docs/audit.md#across-services",
			DefaultConfiguration: map[string]string{"level": "note"},
		},
	}
}

// attemptsPhrase says how a caller retries around a call: "with up to 3
// attempts", "within a retry budget (×1.1)", "once".
func attemptsPhrase(m *auditMult) string {
	a := toAmp(m)
	switch {
	case !a.Interesting():
		return "once"
	case a.Kind == amplify.Count && a.Value == float64(int64(a.Value)) && a.Open:
		return "with at least " + a.Num() + " attempts"
	case a.Kind == amplify.Count && a.Value == float64(int64(a.Value)):
		return "with up to " + a.Num() + " attempts"
	case a.Kind == amplify.Count:
		return "within a retry budget (×" + m.Text + ")"
	}
	return "with " + a.Phrase() + " attempts"
}

func linkFingerprint(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:16])
}

// sarifServices returns the SARIF results of the service graph: the worst
// chain (a warning while one of its hops retries without a budget) and
// one note per link.
func (rep *auditReport) sarifServices(firstRule int, lines *lineCache) []auditSarifResult {
	var out []auditSarifResult
	if c := rep.ServiceChain; c != nil && len(c.Hops) > 0 && c.Hops[0].Call != "" {
		level := "note"
		var parts []string
		for _, h := range c.Hops {
			parts = append(parts, h.name, h.Function)
			for _, st := range h.Steps {
				if toAmp(st.Factor).Worse(budgetFactor) {
					level = "warning"
				}
			}
		}
		msg := fmt.Sprintf("retries multiply across services: %s, %s at %s", rep.chainHopsText(c), calls(c.Product), c.Deepest)
		if len(rep.Rollout) > 0 {
			r := rep.Rollout[0]
			msg += fmt.Sprintf("; budget the deepest hop first: %s at %s", r.Function, short(r.Pos))
		}
		res := auditSarifResult{sarifResult: sarifResult{
			RuleID: ruleServiceChain, RuleIndex: firstRule, Level: level, Message: sarifText{msg},
			Locations:           []sarifLocation{rep.sarifPos(c.Hops[0].Call, lines)},
			PartialFingerprints: map[string]string{"retrylint/v2": linkFingerprint(append([]string{ruleServiceChain}, parts...)...)},
		}}
		for i, h := range c.Hops[1:] {
			p := h.Call
			if p == "" {
				p = h.Pos
			}
			loc := rep.sarifPos(p, lines)
			id := i + 1
			loc.ID = &id
			loc.Message = &sarifText{fmt.Sprintf("%s: %s ×%s", h.name, h.Function, h.Factor.Text)}
			res.RelatedLocations = append(res.RelatedLocations, loc)
		}
		out = append(out, res)
	}
	seen := map[string]int{}
	for _, l := range rep.Links {
		to := rep.linkTo(l)
		msg := fmt.Sprintf("%s calls %s %s (%s) from %s %s", rep.linkFrom(l), to, l.Method, l.Kind, l.FromFunction, attemptsPhrase(l.Factor))
		if l.Detached {
			msg += ", started with go and not waited for"
		}
		if l.Transport != nil {
			msg += fmt.Sprintf(", ×%s by the transport (%s)", l.Transport.Factor.Text, l.Transport.Reason)
		}
		msg += fmt.Sprintf(": %s through it end to end", calls(l.Worst))
		if l.Reason != "" {
			msg += "; " + l.Status + ": " + l.Reason
		}
		key := linkFingerprint(ruleServiceLink, l.From, l.FromFunction, l.Method, l.To, l.Kind)
		seen[key]++
		res := auditSarifResult{sarifResult: sarifResult{
			RuleID: ruleServiceLink, RuleIndex: firstRule + 1, Level: "note", Message: sarifText{msg},
			Locations:           []sarifLocation{rep.sarifPos(l.Pos, lines)},
			PartialFingerprints: map[string]string{"retrylint/v2": key + ":" + strconv.Itoa(seen[key])},
		}}
		if l.Suppressed != nil {
			res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: l.Suppressed.Reason}}
		}
		out = append(out, res)
	}
	return out
}

// checkServiceThreshold returns 3, with a line on stderr, when the worst
// end-to-end product exceeds -max-amplification.
func checkServiceThreshold(af *auditFlags, rep *auditReport) int {
	c := rep.ServiceChain
	if af.maxAmp <= 0 || c == nil || !c.product.Exceeds(af.maxAmp) {
		return 0
	}
	limit := strings.TrimSuffix(strconv.FormatFloat(af.maxAmp, 'f', -1, 64), ".0")
	from := ""
	if len(c.Hops) > 0 {
		from = " from " + short(c.Hops[0].Call)
	}
	fmt.Fprintf(os.Stderr, "retrylint audit: the chain %s%s can send %s calls per request entering the system to %s, more than -max-amplification %s\n",
		rep.chainHopsText(c), from, c.product.Phrase(), c.Deepest, limit)
	return 3
}
