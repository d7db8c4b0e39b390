package main

import (
	"fmt"
	"html/template"
	"io"
	"math"

	"github.com/retrylint/retrylint/internal/amplify"
)

// The HTML report is one self-contained page: inline CSS and an inline SVG
// chart drawn here, no script, no font, image or link fetched. Its
// Content-Security-Policy forbids every fetch, so a change that adds one
// fails loudly in a browser (and in the test that opens it in Chromium).

// chart geometry
const (
	chartLabelW = 330 // width of the labels left of the bars
	chartBarW   = 560 // width of the bar area
	chartRowH   = 34
	chartTop    = 34
	chartValueW = 110 // room for the product right of the bars
)

// infFactor is the width, as a multiplier, drawn for a time-bounded or
// unbounded step (beyond any count in the chart).
const infFactor = 12

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
	W, H   float64
	BarX   float64
	Rows   []chartRow
	Ticks  []chartTick
	AxisY  float64
	Legend []chartSeg
}

var layerColors = []string{"#c2410c", "#1d4ed8", "#047857", "#7c3aed", "#b45309", "#be185d", "#0e7490"}

// factorLog returns the drawn length of a step's factor, in log units.
func factorLog(m amplify.Mult) float64 {
	switch m.Kind {
	case amplify.TimeBounded, amplify.Unbounded:
		return math.Log(infFactor)
	case amplify.UnknownCount:
		return math.Log(2)
	}
	return math.Log(math.Max(m.Value, 1))
}

// buildChart lays out the worst n chains as horizontal bars on a log
// scale: each step of a chain is one segment whose length is the log of
// its factor, so the segments add up to the product.
func buildChart(rep *auditReport, n int) *chartData {
	chains := rep.ChainsOut
	if n >= 0 && len(chains) > n {
		chains = chains[:n]
	}
	if len(chains) == 0 {
		return nil
	}
	maxLog := math.Log(10)
	for _, c := range chains {
		total := 0.0
		for _, st := range c.Steps {
			total += factorLog(toAmp(st.Factor))
		}
		maxLog = math.Max(maxLog, total)
	}
	scale := chartBarW / maxLog
	d := &chartData{BarX: chartLabelW, W: chartLabelW + chartBarW + chartValueW}
	for i, c := range chains {
		y := chartTop + float64(i)*chartRowH
		row := chartRow{
			Y: y, TextY: y + chartRowH/2 + 4, BarY: y + 6, BarH: chartRowH - 12,
			Func: c.Function, Pos: short(c.Pos), Value: c.Product.Text, Reported: c.Reported,
			Title: c.Message,
		}
		x := float64(chartLabelW)
		for j, st := range c.Steps {
			m := toAmp(st.Factor)
			w := math.Max(factorLog(m)*scale, 3)
			seg := chartSeg{
				X: x, W: w, Fill: layerColors[j%len(layerColors)],
				Label:   "×" + st.Factor.Text,
				Title:   fmt.Sprintf("%s: %s (%s) at %s", st.Function, st.Bound, "×"+st.Factor.Text, st.Pos),
				Hatched: m.Kind == amplify.TimeBounded || m.Kind == amplify.Unbounded,
				Dotted:  m.Kind == amplify.UnknownCount,
			}
			if st.Budget != "" {
				seg.Title += ", budget: " + st.Budget
			}
			seg.ShowText = w >= float64(8*len([]rune(seg.Label))+6)
			row.Segs = append(row.Segs, seg)
			x += w
		}
		row.ValueX = x + 8
		d.Rows = append(d.Rows, row)
	}
	d.AxisY = chartTop + float64(len(chains))*chartRowH + 4
	d.H = d.AxisY + 40
	for _, t := range []float64{1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 1000, 10000} {
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

// toAmp converts a report multiplier back for drawing.
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

type htmlPage struct {
	Rep     *auditReport
	Summary string
	Chart   *chartData
	Shown   int
}

// writeAuditHTML writes the self-contained HTML report, drawing the worst
// n chains.
func writeAuditHTML(w io.Writer, rep *auditReport, n int) error {
	page := htmlPage{Rep: rep, Summary: summaryLine(rep), Chart: buildChart(rep, n)}
	if page.Chart != nil {
		page.Shown = len(page.Chart.Rows)
	}
	return htmlTmpl.Execute(w, page)
}

var htmlTmpl = template.Must(template.New("audit").Funcs(template.FuncMap{
	"budget":  budgetText,
	"backoff": backoffText,
	"bound":   boundText,
	"dash":    orDash,
	"short":   short,
	"phrase":  func(m *auditMult) string { return toAmp(m).Phrase() },
	"f":       func(v float64) string { return fmt.Sprintf("%.1f", v) },
	"add":     func(a, b float64) float64 { return a + b },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>retrylint audit</title>
<style>
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0; background: #f8fafc; color: #0f172a; }
main { max-width: 1120px; margin: 0 auto; padding: 24px 28px 48px; }
h1 { font-size: 22px; margin: 0 0 4px; }
h2 { font-size: 17px; margin: 32px 0 8px; }
p.lead { color: #475569; margin: 0 0 18px; }
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
table { border-collapse: collapse; width: 100%; background: #fff; font-size: 13px; }
th, td { border-bottom: 1px solid #e2e8f0; padding: 6px 8px; text-align: left; vertical-align: top; }
th { background: #f1f5f9; font-weight: 600; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; }
td code { overflow-wrap: anywhere; }
.scroll { overflow-x: auto; }
table.sites td:nth-child(1) { min-width: 220px; }
table.sites td:nth-child(2) { min-width: 150px; }
tr.unbudgeted td:first-child { border-left: 3px solid #dc2626; }
tr.budgeted td:first-child { border-left: 3px solid #16a34a; }
tr.exempt td:first-child { border-left: 3px solid #94a3b8; }
.tag { display: inline-block; font-size: 11px; padding: 1px 6px; border-radius: 9px; background: #fee2e2; color: #991b1b; }
.arrow { color: #94a3b8; }
</style>
</head>
<body>
<main>
<h1>retrylint audit</h1>
<p class="lead">{{.Summary}}</p>
<div class="cards">
<div class="card"><div class="n">{{.Rep.Summary.Sites}}</div><div class="l">retry sites</div></div>
<div class="card{{if .Rep.Summary.Unbudgeted}} bad{{end}}"><div class="n">{{.Rep.Summary.Unbudgeted}}</div><div class="l">without a budget</div></div>
<div class="card"><div class="n">{{.Rep.Summary.Chains}}</div><div class="l">nesting chains</div></div>
<div class="card wide{{if .Rep.Summary.Worst}} bad{{end}}"><div class="n">{{with .Rep.Summary.Worst}}{{phrase .Product}} calls per request{{else}}no nesting{{end}}</div><div class="l">worst chain</div>{{with .Rep.Summary.Worst}}<div class="fn"><code>{{.Function}}</code> · <code>{{short .Pos}}</code></div>{{end}}</div>
</div>

<h2>Worst chains</h2>
{{with .Chart}}
<p class="note">Calls one request can send to the deepest dependency when it fails. Each colored segment is one retry layer; on this logarithmic scale the segments add up to the product (3 × 3 × 3 = 27). Hatched segments retry until a deadline or without bound; pale dashed segments retry a number of times that is not a constant (drawn as 2); a ≥ marks a chain whose attempts reach code the analysis cannot follow (an interface, a function value, recursion).</p>
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
<line x1="{{f .BarX}}" y1="{{f .AxisY}}" x2="{{f (add .BarX 560)}}" y2="{{f .AxisY}}" stroke="#94a3b8"/>
{{$ay := .AxisY}}{{range .Ticks}}<line x1="{{f .X}}" y1="{{f $ay}}" x2="{{f .X}}" y2="{{f (add $ay 5)}}" stroke="#94a3b8"/><text x="{{f .X}}" y="{{f (add $ay 18)}}" font-size="11" fill="#64748b" text-anchor="middle">{{.Label}}</text>
{{end}}<text x="{{f .BarX}}" y="{{f (add $ay 34)}}" font-size="11" fill="#64748b">calls per request (log scale)</text>
</svg>
</div>
{{else}}<p class="note">No retry site reaches another retry site.</p>{{end}}

{{if .Rep.ChainsOut}}
<h2>All nesting chains</h2>
<table>
<tr><th>calls</th><th>chain (outermost first)</th><th>knows the deadline</th><th>where</th></tr>
{{range .Rep.ChainsOut}}<tr><td class="num"><b>{{.Product.Text}}</b>{{if .Reported}} <span class="tag">nestedretry</span>{{end}}</td><td>{{range $i, $s := .Steps}}{{if $i}} <span class="arrow">→</span> {{end}}<code>{{$s.Function}}</code> ×{{$s.Factor.Text}}{{end}}</td><td>{{with .DeadlineOwner}}<code>{{.}}</code>{{else}}none{{end}}</td><td><code>{{short .Pos}}</code></td></tr>
{{end}}</table>
{{end}}

<h2>Retry sites</h2>
<div class="scroll">
<table class="sites">
<tr><th>where</th><th>function</th><th>kind</th><th>bound</th><th>backoff</th><th>budget</th><th>dependency</th><th>calls</th></tr>
{{range .Rep.Sites}}<tr class="{{if .Exempt}}exempt{{else if .Budget}}budgeted{{else}}unbudgeted{{end}}"><td><code>{{short .Pos}}</code></td><td><code>{{.Function}}</code></td><td>{{.Kind}}{{with .API}} <code>{{.}}</code>{{end}}</td><td>{{bound .}}</td><td>{{backoff .}}</td><td>{{budget .}}</td><td>{{dash .Dependency}}</td><td class="num">{{.Total.Text}}</td></tr>
{{end}}</table>
</div>
<p class="note">Generated by retrylint audit. Left border: red, no budget; green, budgeted; grey, exempt (retries conflicts only).</p>
</main>
</body>
</html>
`))
