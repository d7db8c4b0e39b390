package main

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"math"
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/retrylint/retrylint/internal/amplify"
)

// The HTML report is one self-contained page: inline CSS, an inline SVG
// chart drawn here and one inline script (sorting and filtering the
// tables) that the page's Content-Security-Policy admits by its hash. No
// font, image, script or style is fetched: the policy forbids every fetch,
// so a change that adds one fails loudly in a browser (and in the test that
// opens the page in Chromium).

// chart geometry
const (
	chartLabelW  = 330 // width of the labels left of the bars
	chartCountW  = 440 // width of the counted part, on a log scale
	chartGap     = 16  // between the counted part and the rest
	chartBeyondW = 126 // the part that is not a count
	chartRowH    = 34
	chartTop     = 34
	chartValueW  = 130 // room for the product right of the bars
	beyondSegW   = 40  // one step that is not a count
)

type chartSeg struct {
	X, W     float64
	Fill     string
	Label    string
	Title    string
	ShowText bool
	Hatched  bool
	Dotted   bool
}

type chartRow struct {
	Y, TextY   float64
	Func, Pos  string
	Segs       []chartSeg
	ValueX     float64
	Value      string
	Title      string
	Reported   bool
	BarY, BarH float64
}

type chartTick struct {
	X     float64
	Label string
}

type chartData struct {
	W, H          float64
	BarX, AxisEnd float64
	BeyondX       float64
	Rows          []chartRow
	Ticks         []chartTick
	AxisY         float64
	Legend        []chartSeg
	Beyond        bool // some chain has a step that is not a count
}

var layerColors = []string{"#c2410c", "#1d4ed8", "#047857", "#7c3aed", "#b45309", "#be185d", "#0e7490"}

// beyondLabel is what a step that is not a count shows in the chart.
func beyondLabel(m amplify.Mult) string {
	switch m.Kind {
	case amplify.UnknownCount:
		return "?"
	case amplify.TimeBounded:
		return "time"
	}
	return "∞"
}

// buildChart lays out the worst n chains as horizontal bars: the steps
// that are counts as segments on a log scale, so that they add up to the
// product of the counts (3 × 3 × 3 = 27), and the steps that are not counts
// (an unknown count, a time bound, no bound) as blocks of their own right
// of the axis, which has numbers only where counts are.
func buildChart(rep *auditReport, n int) *chartData {
	chains := rep.Chains
	if len(chains) > n {
		chains = chains[:n]
	}
	if len(chains) == 0 {
		return nil
	}
	maxLog := math.Log(10)
	for _, c := range chains {
		total := 0.0
		for _, st := range c.Steps {
			if m := toAmp(st.Factor); m.Kind == amplify.Count {
				total += math.Log(math.Max(m.Value, 1))
			}
		}
		maxLog = math.Max(maxLog, total)
	}
	scale := chartCountW / maxLog
	d := &chartData{BarX: chartLabelW, AxisEnd: chartLabelW + chartCountW, BeyondX: chartLabelW + chartCountW + chartGap}
	d.W = d.BeyondX + chartBeyondW + chartValueW
	for i, c := range chains {
		y := chartTop + float64(i)*chartRowH
		row := chartRow{
			Y: y, TextY: y + chartRowH/2 + 4, BarY: y + 6, BarH: chartRowH - 12,
			Func: c.Function, Pos: short(c.Pos), Value: c.Product.Text, Reported: c.Reported,
			Title: c.Message,
		}
		x, bx := float64(chartLabelW), d.BeyondX
		for j, st := range c.Steps {
			m := toAmp(st.Factor)
			seg := chartSeg{
				Fill:  layerColors[j%len(layerColors)],
				Title: fmt.Sprintf("%s: %s (×%s) at %s", st.Function, st.Bound, st.Factor.Text, st.Pos),
			}
			if st.Budget != "" {
				seg.Title += ", budget: " + st.Budget
			}
			if m.Kind == amplify.Count {
				seg.X, seg.W = x, math.Max(math.Log(math.Max(m.Value, 1))*scale, 3)
				seg.Label = "×" + st.Factor.Text
				x += seg.W
			} else {
				d.Beyond = true
				seg.X, seg.W = bx, beyondSegW-2
				seg.Label = beyondLabel(m)
				seg.Hatched = m.Kind != amplify.UnknownCount
				seg.Dotted = m.Kind == amplify.UnknownCount
				bx += beyondSegW
			}
			seg.ShowText = seg.W >= float64(8*len([]rune(seg.Label))+6)
			row.Segs = append(row.Segs, seg)
		}
		row.ValueX = math.Max(x, bx) + 8
		if bx > d.BeyondX {
			row.ValueX = bx + 8
		}
		d.W = math.Max(d.W, row.ValueX+chartValueW)
		d.Rows = append(d.Rows, row)
	}
	d.AxisY = chartTop + float64(len(chains))*chartRowH + 4
	d.H = d.AxisY + 40
	for _, t := range []float64{1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 1000, 10000, 100000} {
		if math.Log(t) > maxLog+1e-9 {
			break
		}
		d.Ticks = append(d.Ticks, chartTick{X: chartLabelW + math.Log(t)*scale, Label: fmt.Sprint(t)})
	}
	for j := 0; j < maxSteps(chains) && j < len(layerColors); j++ {
		name := "outermost site"
		if j > 0 {
			name = fmt.Sprintf("nested %d deep", j)
		}
		d.Legend = append(d.Legend, chartSeg{Fill: layerColors[j], Label: name, X: chartLabelW + float64(j)*130})
	}
	return d
}

func maxSteps(chains []auditChain) int {
	n := 0
	for _, c := range chains {
		n = max(n, len(c.Steps))
	}
	return n
}

// riskKey sorts calls per request in the tables: unbounded, then
// time-bounded, then by value (an unknown count by its known part, just
// above the same known count), as Mult.Worse does; equal keys keep the
// report's order.
func riskKey(m *auditMult) string {
	a := toAmp(m)
	rank := 0
	switch a.Kind {
	case amplify.TimeBounded:
		rank = 2
	case amplify.Unbounded:
		rank = 3
	}
	v := a.Value
	switch a.Kind {
	case amplify.UnknownCount:
		v += 1e-6
	case amplify.Unbounded:
		v = 0 // unbounded is unbounded; the report's order decides
	}
	return fmt.Sprintf("%.6f", float64(rank)*1e9+v)
}

// brk lets a long code text break after "/" and "." and between the
// words of a camel-case name (Inventory|Reservation|Service, words of six
// letters or more): never between two letters of a word. Short texts do
// not break at all. (overflow-wrap breaks a word only when one is wider
// than its column.)
func brk(s string) template.HTML {
	if len(s) <= 18 {
		return template.HTML(template.HTMLEscapeString(s))
	}
	var b strings.Builder
	rs := []rune(s)
	run := 0 // length of the part since the last break
	for i, r := range rs {
		if run >= 6 && unicode.IsUpper(r) && unicode.IsLower(rs[i-1]) {
			b.WriteString("<wbr>")
		}
		b.WriteString(template.HTMLEscapeString(string(r)))
		run++
		if r == '/' || r == '.' {
			b.WriteString("<wbr>")
			run = 0
		}
	}
	return template.HTML(b.String())
}

type htmlOption struct{ Value, Label string }

type htmlPage struct {
	Rep       *auditReport
	Summary   string
	Headlines []headline
	Chart     *chartData
	Graph     *gView
	Shown     int
	Filters   struct{ Deps, Kinds, Bounds, Pkgs, Statuses []htmlOption }
	Script    template.JS
	CSP       string
}

// htmlScript sorts a table when its header is clicked (or activated from
// the keyboard) and filters the sites table from the form above it.
const htmlScript = `(function () {
  "use strict";
  function key(td) {
    var k = td.getAttribute("data-k");
    return k === null ? td.textContent.trim().toLowerCase() : k;
  }
  function sortBy(table, i, th) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = th.hasAttribute("data-num");
    var desc = th.getAttribute("aria-sort") !== "descending";
    if (!numeric && th.getAttribute("aria-sort") === null) desc = false;
    rows.sort(function (a, b) {
      var x = key(a.cells[i]), y = key(b.cells[i]), c;
      if (numeric) c = parseFloat(x) - parseFloat(y);
      else c = x < y ? -1 : x > y ? 1 : 0;
      if (desc) c = -c;
      return c || a.getAttribute("data-i") - b.getAttribute("data-i");
    });
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", desc ? "descending" : "ascending");
    var frag = document.createDocumentFragment();
    rows.forEach(function (r) { frag.appendChild(r); });
    body.appendChild(frag);
  }
  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), function (table) {
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.addEventListener("click", function () { sortBy(table, i, th); });
      th.addEventListener("keydown", function (e) {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sortBy(table, i, th); }
      });
    });
  });
  var form = document.getElementById("filters");
  var table = document.getElementById("sites");
  if (!form || !table) return;
  var shown = document.getElementById("shown");
  function value(name) { return form.elements.namedItem(name).value; }
  function apply() {
    var q = value("q").trim().toLowerCase();
    var dep = value("dep"), kind = value("kind"), bound = value("bound"), pkg = value("pkg"), status = value("status");
    var n = 0;
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
      var ok = (!q || r.textContent.toLowerCase().indexOf(q) >= 0) &&
        (!dep || r.getAttribute("data-deps").split("\t").indexOf(dep) >= 0) &&
        (!kind || r.getAttribute("data-kind") === kind) &&
        (!bound || r.getAttribute("data-bound") === bound) &&
        (!pkg || r.getAttribute("data-pkg") === pkg) &&
        (!status || r.getAttribute("data-status") === status);
      r.hidden = !ok;
      if (ok) n++;
    });
    shown.textContent = n + " of " + table.tBodies[0].rows.length + " shown";
  }
  form.addEventListener("input", apply);
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (e) { e.preventDefault(); });
  form.addEventListener("reset", function () { setTimeout(apply, 0); });
  apply();
})();`

// htmlScriptHash is the CSP source that admits htmlScript.
var htmlScriptHash = func() string {
	sum := sha256.Sum256([]byte(htmlScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}()

func options(values map[string]bool, label func(string) string) []htmlOption {
	var out []htmlOption
	for v := range values {
		out = append(out, htmlOption{Value: v, Label: label(v)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// writeAuditHTML writes the self-contained HTML report, drawing the worst
// n chains.
func writeAuditHTML(w io.Writer, rep *auditReport, n int) error {
	page := htmlPage{
		Rep: rep, Summary: summaryLine(rep), Headlines: headlines(rep), Chart: buildChart(rep, n), Graph: buildGraphView(rep),
		Script: template.JS(htmlScript),
		CSP:    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src " + htmlScriptHash,
	}
	if page.Chart != nil {
		page.Shown = len(page.Chart.Rows)
	}
	deps, kinds, bounds, pkgs, statuses := map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, s := range rep.Sites {
		for _, d := range siteDeps(s) {
			deps[d] = true
		}
		kinds[s.Kind] = true
		bounds[s.Bound.Kind] = true
		pkgs[s.Package] = true
		statuses[s.Status] = true
	}
	id := func(s string) string { return s }
	page.Filters.Deps = options(deps, id)
	page.Filters.Kinds = options(kinds, id)
	page.Filters.Bounds = options(bounds, func(b string) string {
		return map[string]string{"count": "a count", "time": "time-bounded", "unbounded": "unbounded", "unknown": "unknown"}[b]
	})
	page.Filters.Pkgs = options(pkgs, id)
	page.Filters.Statuses = options(statuses, id)
	return htmlTmpl.Execute(w, page)
}

// siteDeps names a site's dependencies for the filter: "(unknown)" when
// none is known.
func siteDeps(s *auditSite) []string {
	if len(s.Dependencies) == 0 {
		return []string{"(unknown)"}
	}
	var out []string
	for _, d := range s.Dependencies {
		out = append(out, d.Name)
	}
	return out
}

// fileLink is the link of a site: through -link-template, or to the file
// on this machine.
func (rep *auditReport) fileLink(pos string) string {
	if l := rep.siteLink(pos); l != "" {
		return l
	}
	file, line, _ := splitPos(pos)
	if !filepath.IsAbs(file) {
		file = filepath.Join(rep.root, file)
	}
	return fmt.Sprintf("file://%s#L%d", filepath.ToSlash(file), line)
}

var htmlTmpl = template.Must(template.New("audit").Funcs(template.FuncMap{
	"budget":  budgetText,
	"backoff": backoffText,
	"bound":   boundText,
	"dash":    orDash,
	"short":   short,
	"brk":     brk,
	"risk":    riskKey,
	"calls":   calls,
	"share":   shareText,
	"deps":    func(s *auditSite) string { return strings.Join(siteDeps(s), "\t") },
	"phrase":  func(m *auditMult) string { return toAmp(m).Phrase() },
	"f":       func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"add":     func(a, b float64) float64 { return a + b },
	"url":     func(u string) template.URL { return template.URL(u) },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>retrylint audit</title>
<style>
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0; background: #f8fafc; color: #0f172a; }
main { max-width: 1360px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 32px 0 8px; }
p.lead { color: #475569; margin: 0 0 14px; }
ul.head { margin: 0 0 18px; padding-left: 18px; font-size: 14px; }
ul.head b { font-weight: 600; }
.cards { display: flex; gap: 12px; flex-wrap: wrap; }
.card { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 12px 16px; min-width: 120px; }
.card .n { font-size: 26px; font-weight: 650; }
.card .l { font-size: 12px; color: #64748b; text-transform: uppercase; letter-spacing: .04em; }
.card.bad .n { color: #b91c1c; }
.card.wide { flex: 1; min-width: 280px; }
.card.wide .n { font-size: 20px; }
.card .fn { font-size: 12px; color: #334155; margin-top: 2px; }
.chart { background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 8px; overflow-x: auto; }
svg text { font-family: inherit; }
.note { color: #64748b; font-size: 13px; }
table { border-collapse: separate; border-spacing: 0; width: 100%; background: #fff; font-size: 13px; }
th, td { border-bottom: 1px solid #e2e8f0; padding: 6px 8px; text-align: left; vertical-align: top; overflow-wrap: normal; word-break: normal; }
thead th { background: #f1f5f9; font-weight: 600; position: sticky; top: 0; z-index: 1; cursor: pointer; user-select: none; white-space: nowrap; box-shadow: 0 1px 0 #cbd5e1; }
thead th[aria-sort="ascending"]::after { content: " ▲"; color: #64748b; }
thead th[aria-sort="descending"]::after { content: " ▼"; color: #64748b; }
td.num { text-align: right; font-variant-numeric: tabular-nums; font-weight: 600; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
a { color: #1d4ed8; text-decoration: none; }
a:hover { text-decoration: underline; }
tr.unbudgeted td:first-child { box-shadow: inset 3px 0 #dc2626; }
tr.budgeted td:first-child { box-shadow: inset 3px 0 #16a34a; }
tr.exempt td:first-child, tr.suppressed td:first-child { box-shadow: inset 3px 0 #94a3b8; }
tr.suppressed td { color: #64748b; }
.tag { display: inline-block; font-size: 11px; padding: 1px 6px; border-radius: 9px; background: #fee2e2; color: #991b1b; font-weight: 500; }
.tag.known { background: #e2e8f0; color: #334155; }
.arrow { color: #94a3b8; }
form.filters { display: flex; gap: 8px; flex-wrap: wrap; align-items: center; margin: 0 0 8px; font-size: 13px; }
form.filters input, form.filters select { font: inherit; padding: 3px 6px; border: 1px solid #cbd5e1; border-radius: 4px; background: #fff; max-width: 240px; }
form.filters input[type=search] { width: 220px; }
details { margin-top: 8px; }
table.sites { table-layout: fixed; }
table.sites td { overflow-wrap: break-word; }
table.sites th:nth-child(1) { width: 7%; }
table.sites th:nth-child(2) { width: 15%; }
table.sites th:nth-child(3) { width: 9%; }
table.sites th:nth-child(4) { width: 10%; }
table.sites th:nth-child(5) { width: 13%; }
table.sites th:nth-child(6) { width: 8%; }
table.sites th:nth-child(7) { width: 17%; }
table.sites th:nth-child(8) { width: 9%; }
table.sites th:nth-child(9) { width: 12%; }
table.sites td { overflow: hidden; }
</style>
</head>
<body>
<main>
<h1>retrylint audit</h1>
<p class="lead">{{.Summary}}</p>
<ul class="head">
{{range .Headlines}}<li><b>{{.Label}}</b>: {{.Text}}</li>
{{end}}</ul>
<div class="cards">
<div class="card"><div class="n">{{.Rep.Summary.Sites}}</div><div class="l">retry sites</div></div>
<div class="card{{if .Rep.Summary.Unbudgeted}} bad{{end}}"><div class="n">{{.Rep.Summary.Unbudgeted}}</div><div class="l">without a budget</div></div>
<div class="card{{if .Rep.Summary.Unbounded}} bad{{end}}"><div class="n">{{.Rep.Summary.Unbounded}}</div><div class="l">unbounded</div></div>
<div class="card"><div class="n">{{.Rep.Summary.Chains}}</div><div class="l">nesting chains</div></div>
<div class="card wide{{if .Rep.Summary.WorstSite}} bad{{end}}"><div class="n">{{with .Rep.Summary.WorstSite}}{{calls .Total}}{{else}}none{{end}}</div><div class="l">worst site</div>{{with .Rep.Summary.WorstSite}}<div class="fn"><code>{{brk .Function}}</code> · <a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk (short .Pos)}}</code></a> · {{.Dependency}}</div>{{end}}</div>
<div class="card wide{{if .Rep.Summary.WorstChain}} bad{{end}}"><div class="n">{{with .Rep.Summary.WorstChain}}{{calls .Product}}{{else}}no nesting{{end}}</div><div class="l">worst chain</div>{{with .Rep.Summary.WorstChain}}<div class="fn"><code>{{brk .Function}}</code> · <a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk (short .Pos)}}</code></a>{{with .Deepest}} · at {{.}}{{end}}</div>{{end}}</div>
</div>
{{template "services" .}}
<h2>Worst chains</h2>
{{with .Chart}}
<p class="note">Calls one request can send to the deepest dependency when it fails. Each colored segment is one retry layer; on this logarithmic scale the counted segments add up to the product (3 × 3 × 3 = 27). Right of the axis, layers whose number of attempts is not a count: <b>?</b> a count that is not a constant, <b>time</b> retries until a deadline, <b>∞</b> retries without bound. A ≥ marks a chain whose attempts reach code the analysis cannot follow (an interface, a function value, recursion).</p>
<div class="chart">
<svg xmlns="http://www.w3.org/2000/svg" width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" role="img" aria-label="worst retry chains">
<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fde68a"/><line x1="0" y1="0" x2="0" y2="6" stroke="#b45309" stroke-width="3"/></pattern></defs>
{{range .Legend}}<rect x="{{f .X}}" y="8" width="12" height="12" rx="2" fill="{{.Fill}}"/><text x="{{f (add .X 17)}}" y="18" font-size="12" fill="#334155">{{.Label}}</text>
{{end}}
{{range .Rows}}<g><title>{{.Title}}</title>
<text x="8" y="{{f .TextY}}" font-size="12.5" fill="#0f172a">{{.Func}}</text>
<text x="8" y="{{f (add .TextY 11)}}" font-size="9.5" fill="#64748b">{{.Pos}}</text>
{{$r := .}}{{range .Segs}}<rect x="{{f .X}}" y="{{f $r.BarY}}" width="{{f .W}}" height="{{f $r.BarH}}" fill="{{if .Hatched}}url(#hatch){{else}}{{.Fill}}{{end}}"{{if .Dotted}} fill-opacity="0.3" stroke="{{.Fill}}" stroke-dasharray="4 3" stroke-width="1.5"{{else}} stroke="#fff" stroke-width="1"{{end}}><title>{{.Title}}</title></rect>{{if .ShowText}}<text x="{{f (add .X 5)}}" y="{{f $r.TextY}}" font-size="12" fill="{{if .Hatched}}#78350f{{else if .Dotted}}#0f172a{{else}}#fff{{end}}" font-weight="600">{{.Label}}</text>{{end}}
{{end}}<text x="{{f .ValueX}}" y="{{f .TextY}}" font-size="14" font-weight="700" fill="{{if .Reported}}#b91c1c{{else}}#334155{{end}}">{{.Value}}</text>
</g>
{{end}}
<line x1="{{f .BarX}}" y1="{{f .AxisY}}" x2="{{f .AxisEnd}}" y2="{{f .AxisY}}" stroke="#94a3b8"/>
{{$ay := .AxisY}}{{range .Ticks}}<line x1="{{f .X}}" y1="{{f $ay}}" x2="{{f .X}}" y2="{{f (add $ay 5)}}" stroke="#94a3b8"/><text x="{{f .X}}" y="{{f (add $ay 18)}}" font-size="11" fill="#64748b" text-anchor="middle">{{.Label}}</text>
{{end}}<text x="{{f .BarX}}" y="{{f (add $ay 34)}}" font-size="11" fill="#64748b">calls per request, counted layers (log scale)</text>
{{if .Beyond}}<line x1="{{f (add .BeyondX -8)}}" y1="{{f 28}}" x2="{{f (add .BeyondX -8)}}" y2="{{f $ay}}" stroke="#cbd5e1" stroke-dasharray="3 3"/><text x="{{f .BeyondX}}" y="{{f (add $ay 18)}}" font-size="11" fill="#64748b">not a count</text>{{end}}
</svg>
</div>
{{else}}<p class="note">No retry site reaches another retry site.</p>{{end}}

<h2>Dependencies</h2>
{{if .Rep.Dependencies}}<p class="note">Calls per request each dependency can receive when it fails, worst first. Click a header to sort.</p>
<table class="sortable" id="deps">
<thead><tr><th data-num tabindex="0">calls</th><th tabindex="0">dependency</th><th data-num tabindex="0">retry sites</th><th data-num tabindex="0">unbudgeted</th><th tabindex="0">worst bound</th><th tabindex="0">worst chain ending here</th></tr></thead>
<tbody>
{{range $i, $d := .Rep.Dependencies}}<tr data-i="{{$i}}"><td class="num" data-k="{{risk .Worst}}">{{.Worst.Text}}</td><td>{{brk .Name}}</td><td class="num">{{.Sites}}</td><td class="num" data-k="{{.Share}}">{{share .}}</td><td>{{.WorstBound.Text}}</td><td>{{with .WorstChain}}{{.Total.Text}} from <code>{{brk .Function}}</code> <a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk (short .Pos)}}</code></a>{{else}}-{{end}}</td></tr>
{{end}}</tbody>
</table>
{{else}}<p class="note">No retry site.</p>{{end}}

{{if .Rep.Chains}}
<h2>All nesting chains</h2>
<table class="sortable" id="chains">
<thead><tr><th data-num tabindex="0">calls</th><th tabindex="0">where</th><th tabindex="0">deepest dependency</th><th tabindex="0">chain (outermost first)</th><th tabindex="0">knows the deadline</th></tr></thead>
<tbody>
{{range $i, $c := .Rep.Chains}}<tr data-i="{{$i}}"><td class="num" data-k="{{risk .Product}}">{{.Product.Text}}{{if .Reported}} <span class="tag">nestedretry</span>{{end}}</td><td><a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk (short .Pos)}}</code></a></td><td>{{dash .Deepest}}</td><td>{{range $j, $s := .Steps}}{{if $j}} <span class="arrow">→</span> {{end}}<code>{{brk $s.Function}}</code> ×{{$s.Factor.Text}}{{end}}</td><td>{{with .DeadlineOwner}}<code>{{brk .}}</code>{{else}}none{{end}}</td></tr>
{{end}}</tbody>
</table>
{{end}}

<h2>Retry sites</h2>
{{if .Rep.Sites}}
<form class="filters" id="filters">
<input type="search" name="q" placeholder="filter text" aria-label="filter text">
<select name="dep" aria-label="dependency"><option value="">every dependency</option>{{range .Filters.Deps}}<option value="{{.Value}}">{{.Label}}</option>{{end}}</select>
<select name="kind" aria-label="kind"><option value="">every kind</option>{{range .Filters.Kinds}}<option value="{{.Value}}">{{.Label}}</option>{{end}}</select>
<select name="bound" aria-label="bound"><option value="">every bound</option>{{range .Filters.Bounds}}<option value="{{.Value}}">{{.Label}}</option>{{end}}</select>
<select name="pkg" aria-label="package"><option value="">every package</option>{{range .Filters.Pkgs}}<option value="{{.Value}}">{{.Label}}</option>{{end}}</select>
<select name="status" aria-label="status"><option value="">every status</option>{{range .Filters.Statuses}}<option value="{{.Value}}">{{.Label}}</option>{{end}}</select>
<button type="reset">clear</button>
<span class="note" id="shown">{{len .Rep.Sites}} shown</span>
</form>
<table class="sortable sites" id="sites">
<thead><tr><th data-num tabindex="0" aria-sort="descending">calls</th><th tabindex="0">where</th><th tabindex="0">dependency</th><th tabindex="0">bound</th><th tabindex="0">budget</th><th tabindex="0">backoff</th><th tabindex="0">function</th><th tabindex="0">kind</th><th tabindex="0">package</th></tr></thead>
<tbody>
{{range $i, $s := .Rep.Sites}}<tr data-i="{{$i}}" class="{{.Status}}" data-deps="{{deps .}}" data-kind="{{.Kind}}" data-bound="{{.Bound.Kind}}" data-pkg="{{.Package}}" data-status="{{.Status}}"><td class="num" data-k="{{risk .Total}}">{{.Total.Text}}</td><td><a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk (short .Pos)}}</code></a>{{if .Baseline}} <span class="tag known">baseline</span>{{end}}</td><td>{{brk (dash .Dependency)}}</td><td>{{bound .}}</td><td>{{brk (budget .)}}</td><td>{{backoff .}}</td><td><code>{{brk .Function}}</code></td><td>{{.Kind}}{{with .API}} <code>{{brk .}}</code>{{end}}</td><td><code>{{brk .Package}}</code></td></tr>
{{end}}</tbody>
</table>
{{else}}<p class="note">No retry site.</p>{{end}}

{{if .Rep.Tests.Sites}}
<h2>Test files</h2>
<details><summary>{{len .Rep.Tests.Sites}} retry sites and {{len .Rep.Tests.Chains}} chains in test files, not counted</summary>
<table class="sortable" id="test-sites">
<thead><tr><th data-num tabindex="0">calls</th><th tabindex="0">where</th><th tabindex="0">dependency</th><th tabindex="0">bound</th><th tabindex="0">budget</th><th tabindex="0">function</th></tr></thead>
<tbody>
{{range $i, $s := .Rep.Tests.Sites}}<tr data-i="{{$i}}" class="{{.Status}}"><td class="num" data-k="{{risk .Total}}">{{.Total.Text}}</td><td><a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk (short .Pos)}}</code></a></td><td>{{brk (dash .Dependency)}}</td><td>{{bound .}}</td><td>{{brk (budget .)}}</td><td><code>{{brk .Function}}</code></td></tr>
{{end}}</tbody>
</table>
</details>
{{end}}

{{if .Rep.NotAnalyzed}}
<h2>Not analyzed</h2>
<ul>{{range .Rep.NotAnalyzed}}<li><code>{{.Package}}</code>: {{.Reason}}</li>{{end}}</ul>
{{end}}
<p class="note">Generated by retrylint audit. Left edge: red, no budget; green, budgeted; grey, exempt (retries conflicts only) or suppressed by a directive.</p>
</main>
<script>{{.Script}}</script>
</body>
</html>
`))

// FileLinkOf is fileLink for the template.
func (rep *auditReport) FileLinkOf(pos string) string { return rep.fileLink(pos) }
