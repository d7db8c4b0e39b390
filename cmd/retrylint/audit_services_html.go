package main

import (
	"fmt"
	"html/template"
	"math"
	"sort"
	"strings"

	"github.com/retrylint/retrylint/internal/amplify"
)

// The service graph of the HTML report: the binaries as boxes in columns
// by their depth from the entry, the links between them as arrows
// labelled with the hop's factor (×3) and coloured by the worst
// end-to-end product through them, calls out of the monorepo and
// unresolved ones as boxes of their own. Each box links to its row of the
// tables below. Drawn here as inline SVG: nothing is fetched.

const (
	gNodeW   = 178
	gNodeH   = 50
	gColW    = 270
	gRowH    = 78
	gMarginX = 24
	gMarginY = 30
)

type gNode struct {
	ID, Label, Sub, Title, Href string
	Font                        float64
	X, Y, W, H                  float64
	Stroke, Fill                string
	Dashed, Entry               bool
	col, row                    int
	key                         string
}

type gEdge struct {
	Path, Label, Title, Color, Marker string
	LX, LY, LW                        float64
	Dashed                            bool
	worst                             amplify.Mult
}

type gView struct {
	W, H   float64
	Nodes  []*gNode
	Edges  []*gEdge
	Colors []gLegend
}

type gLegend struct {
	Color, Label, ID string
	X                float64
}

// riskColors colour a product: green within a budget's reach, then amber,
// orange and red.
var riskColors = []struct {
	limit       float64
	color, name string
}{
	{1.5, "#16a34a", "green"}, {4, "#d97706", "amber"}, {10, "#ea580c", "orange"}, {math.Inf(1), "#dc2626", "red"},
}

func riskColor(m amplify.Mult) (string, string) {
	if m.Kind == amplify.Unbounded || m.Kind == amplify.TimeBounded {
		return riskColors[3].color, riskColors[3].name
	}
	for _, c := range riskColors {
		if m.Value <= c.limit+1e-9 {
			return c.color, c.name
		}
	}
	return riskColors[3].color, riskColors[3].name
}

// htmlID makes an element id of a name.
func htmlID(prefix, name string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, r := range name {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	return b.String()
}

// buildGraphView lays the service graph out.
func buildGraphView(rep *auditReport) *gView {
	if len(rep.Services) == 0 {
		return nil
	}
	v := &gView{}
	byBin := map[string]*gNode{}
	var nodes []*gNode
	for _, s := range rep.Services {
		n := &gNode{ID: htmlID("g-", s.Name), Label: s.Name, key: s.Binary, Href: "#" + htmlID("svc-", s.Name), Entry: s.Entry}
		n.Sub = "receives " + s.Receives.Text + "/request"
		if s.Entry {
			n.Sub = "entry"
		}
		n.Title = s.Binary + ": serves " + orDash(strings.Join(s.Serves, ", "))
		n.Stroke, _ = riskColor(toAmp(s.Receives))
		n.Fill = "#ffffff"
		byBin[s.Binary] = n
		nodes = append(nodes, n)
	}
	// Pseudo nodes: one per external service and per unresolved method.
	type edgeKey struct{ from, to string }
	edges := map[edgeKey][]auditLink{}
	var edgeOrder []edgeKey
	for i, l := range rep.Links {
		if l.Status == linkSuppressed {
			continue
		}
		to := l.To
		if l.Status != linkLinked {
			label := l.Method
			if l.Kind != "http" {
				label = serviceOfMethod(l.Method)
			}
			to = l.Status + ":" + label
			if byBin[to] == nil {
				n := &gNode{ID: htmlID("g-", to), Label: label, key: to, Href: fmt.Sprintf("#link-%d", i), Dashed: true, Fill: "#f8fafc", Stroke: "#94a3b8"}
				n.Sub = l.Status
				n.Title = l.Reason
				byBin[to] = n
				nodes = append(nodes, n)
			}
		}
		k := edgeKey{l.From, to}
		if _, ok := edges[k]; !ok {
			edgeOrder = append(edgeOrder, k)
		}
		edges[k] = append(edges[k], l)
	}
	// Columns: the longest path from an entry (cycles cut).
	col := map[string]int{}
	out := map[string][]string{}
	for _, k := range edgeOrder {
		out[k.from] = append(out[k.from], k.to)
	}
	var visit func(n string, d int, path map[string]bool)
	visit = func(n string, d int, path map[string]bool) {
		if path[n] || d <= col[n] && d > 0 || d > len(nodes) {
			return
		}
		if d > col[n] {
			col[n] = d
		}
		path[n] = true
		for _, t := range out[n] {
			if t != n {
				visit(t, d+1, path)
			}
		}
		delete(path, n)
	}
	for _, s := range rep.Services {
		if s.Entry {
			visit(s.Binary, 0, map[string]bool{})
		}
	}
	maxCol, rows := 0, map[int]int{}
	sort.SliceStable(nodes, func(i, j int) bool {
		ci, cj := col[nodes[i].key], col[nodes[j].key]
		if ci != cj {
			return ci < cj
		}
		return nodes[i].Label < nodes[j].Label
	})
	for _, n := range nodes {
		n.col = col[n.key]
		n.row = rows[n.col]
		rows[n.col]++
		maxCol = max(maxCol, n.col)
	}
	maxRows := 0
	for _, r := range rows {
		maxRows = max(maxRows, r)
	}
	for _, n := range nodes {
		// Centre short columns vertically.
		off := float64(maxRows-rows[n.col]) * gRowH / 2
		n.X = gMarginX + float64(n.col)*gColW
		n.Y = gMarginY + 20 + off + float64(n.row)*gRowH
		n.W, n.H = gNodeW, gNodeH
	}
	for _, n := range nodes {
		// A long name gets a smaller font to stay in its box.
		n.Font = 13.5
		if l := len([]rune(n.Label)); l > 19 {
			n.Font = math.Max(8, 13.5*19/float64(l))
		}
	}
	v.Nodes = nodes
	v.W = gMarginX*2 + float64(maxCol)*gColW + gNodeW + 40
	v.H = gMarginY + 20 + float64(maxRows)*gRowH + 40
	used := map[string]bool{}
	for _, k := range edgeOrder {
		ls := edges[k]
		from, to := byBin[k.from], byBin[k.to]
		if from == nil || to == nil {
			continue
		}
		e := &gEdge{}
		worstI := 0
		var methods []string
		detached := true
		for i, l := range ls {
			if i == 0 || l.worst.Worse(ls[worstI].worst) {
				worstI = i
			}
			methods = append(methods, fmt.Sprintf("%s (%s, ×%s at %s)", l.Method, l.FromFunction, hopFactor(l).String(), short(l.Pos)))
			detached = detached && l.Detached
		}
		w := ls[worstI]
		e.worst = w.worst
		e.Color, _ = riskColor(w.worst)
		_, name := riskColor(w.worst)
		e.Marker = "url(#arrow-" + name + ")"
		used[name] = true
		e.Label = "×" + hopFactor(w).String()
		if detached {
			e.Label += " (go)"
			e.Dashed = true
		}
		e.LW = float64(8*len([]rune(e.Label)) + 10)
		e.Title = fmt.Sprintf("%s → %s: %s; worst end to end %s", from.Label, to.Label, strings.Join(methods, "; "), w.Worst.Text)
		e.Path, e.LX, e.LY = edgePath(from, to)
		v.Edges = append(v.Edges, e)
	}
	x := float64(gMarginX)
	for _, c := range riskColors {
		label := map[string]string{"green": "≤ 1.5", "amber": "≤ 4", "orange": "≤ 10", "red": "> 10"}[c.name]
		v.Colors = append(v.Colors, gLegend{Color: c.color, Label: label, ID: c.name, X: x})
		x += 80
	}
	return v
}

// hopFactor is what one call sends through a link: the retries around it
// times the transport's replay.
func hopFactor(l auditLink) amplify.Mult {
	m := l.factor
	if l.Transport != nil {
		m = m.Times(toAmp(l.Transport.Factor))
	}
	return m
}

func serviceOfMethod(m string) string {
	s := strings.TrimPrefix(m, "/")
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		return s[:i]
	}
	return s
}

// edgePath draws an arrow from one box to another: a curve from right to
// left when the target is in a later column, an arc below the boxes
// otherwise, a loop for a binary that calls itself.
func edgePath(from, to *gNode) (string, float64, float64) {
	if from == to {
		x, y := from.X+from.W, from.Y+from.H/2
		return fmt.Sprintf("M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f", x, y-8, x+50, y-40, x+50, y+40, x+2, y+10), x + 42, y
	}
	if to.col > from.col {
		x1, y1 := from.X+from.W, from.Y+from.H/2
		x2, y2 := to.X-4, to.Y+to.H/2
		dx := (x2 - x1) / 2
		t := 0.5
		if to.col-from.col > 1 {
			t = 0.9 // past the columns it crosses, before its target
		}
		lx, ly := bezierAt(t, x1, y1, x1+dx, y1, x2-dx, y2, x2, y2)
		return fmt.Sprintf("M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f", x1, y1, x1+dx, y1, x2-dx, y2, x2, y2), lx, ly
	}
	x1, y1 := from.X+from.W/2, from.Y+from.H
	x2, y2 := to.X+to.W/2, to.Y+to.H+4
	drop := 40.0
	lx, ly := bezierAt(0.5, x1, y1, x1, y1+drop, x2, y2+drop, x2, y2)
	return fmt.Sprintf("M%.1f %.1f C%.1f %.1f %.1f %.1f %.1f %.1f", x1, y1, x1, y1+drop, x2, y2+drop, x2, y2), lx, ly
}

// bezierAt is the point at t of a cubic Bézier curve.
func bezierAt(t, x0, y0, x1, y1, x2, y2, x3, y3 float64) (float64, float64) {
	u := 1 - t
	a, b, c, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return a*x0 + b*x1 + c*x2 + d*x3, a*y0 + b*y1 + c*y2 + d*y3
}

func init() {
	htmlTmpl.Funcs(template.FuncMap{
		"svcid":    func(name string) string { return htmlID("svc-", name) },
		"linkfrom": func(rep *auditReport, l auditLink) string { return rep.linkFrom(l) },
		"linkto":   func(rep *auditReport, l auditLink) string { return rep.linkTo(l) },
		"retries":  retriesText,
		"tport":    transportText,
		"hops":     func(rep *auditReport, c *auditServiceChain) string { return rep.chainHopsText(c) },
		"half":     func(v float64) float64 { return v / 2 },
		"inc":      func(i int) int { return i + 1 },
		"binname":  func(rep *auditReport, p string) string { return rep.serviceName(p) },
		"sub":      func(a, b float64) float64 { return a - b },
	})
	template.Must(htmlTmpl.New("services").Parse(servicesHTML))
}

const servicesHTML = `{{with .Graph}}
<h2 id="services">Services</h2>
<p class="note">{{$.Rep.ServicesLineOf}}. Each box is a binary of the run (a main package) and what it receives per request entering the system; each arrow a call from one binary to the next, labelled with what one call sends through it (the caller's retries around the call, times net/http's replay where it applies) and coloured by the worst end-to-end product through it; dashed: started with go and not waited for, or out of the monorepo. Click a box for its row.</p>
<div class="chart">
<svg xmlns="http://www.w3.org/2000/svg" width="{{f .W}}" height="{{f .H}}" viewBox="0 0 {{f .W}} {{f .H}}" role="img" aria-label="service graph" id="service-graph">
<defs>{{range .Colors}}<marker id="arrow-{{.ID}}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="{{.Color}}"/></marker>{{end}}</defs>
{{range .Colors}}<rect x="{{f .X}}" y="8" width="12" height="12" rx="2" fill="{{.Color}}"/><text x="{{f (add .X 17)}}" y="18" font-size="12" fill="#334155">{{.Label}}</text>
{{end}}{{range .Edges}}<path d="{{.Path}}" fill="none" stroke="{{.Color}}" stroke-width="2.2"{{if .Dashed}} stroke-dasharray="6 4"{{end}} marker-end="{{.Marker}}"><title>{{.Title}}</title></path>
{{end}}{{range .Nodes}}<a href="{{.Href}}" class="node" id="{{.ID}}"><title>{{.Title}}</title><rect x="{{f .X}}" y="{{f .Y}}" width="{{f .W}}" height="{{f .H}}" rx="8" fill="{{.Fill}}" stroke="{{.Stroke}}" stroke-width="{{if .Entry}}3{{else}}2{{end}}"{{if .Dashed}} stroke-dasharray="5 4"{{end}}/><text x="{{f (add .X 10)}}" y="{{f (add .Y 21)}}" font-size="{{f .Font}}" font-weight="650" fill="#0f172a">{{.Label}}</text><text x="{{f (add .X 10)}}" y="{{f (add .Y 38)}}" font-size="11" fill="#475569">{{.Sub}}</text></a>
{{end}}{{range .Edges}}<g class="edge"><title>{{.Title}}</title><rect x="{{f (sub .LX (half .LW))}}" y="{{f (add .LY -10)}}" width="{{f .LW}}" height="18" rx="4" fill="#fff" stroke="{{.Color}}"/><text x="{{f .LX}}" y="{{f (add .LY 3)}}" font-size="12" font-weight="700" fill="{{.Color}}" text-anchor="middle">{{.Label}}</text></g>
{{end}}</svg>
</div>
{{with $.Rep.ServiceChain}}<p><b>Worst end-to-end</b>: {{calls .Product}} at {{.Deepest}}: {{hops $.Rep .}}.</p>
<table class="sortable" id="service-chain">
<thead><tr><th data-num tabindex="0">hop</th><th tabindex="0">binary</th><th tabindex="0">function</th><th data-num tabindex="0">retries</th><th tabindex="0">retry sites</th><th data-num tabindex="0">calls</th><th tabindex="0">then</th></tr></thead>
<tbody>
{{range $i, $h := .Hops}}<tr data-i="{{$i}}"><td class="num">{{inc $i}}</td><td><a href="#{{svcid (binname $.Rep $h.Binary)}}">{{binname $.Rep $h.Binary}}</a></td><td><code>{{brk $h.Function}}</code></td><td class="num" data-k="{{risk $h.Factor}}">{{$h.Factor.Text}}{{if $h.Detached}} (go){{end}}</td><td>{{range $h.Steps}}<a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk (short .Pos)}}</code></a> {{end}}</td><td class="num" data-k="{{risk $h.Calls}}">{{$h.Calls.Text}}</td><td>{{with $h.Method}}<code>{{brk .}}</code> at <a href="{{url ($.Rep.FileLinkOf $h.Call)}}"><code>{{brk (short $h.Call)}}</code></a>{{with $h.Transport}} (transport ×{{.Factor.Text}}){{end}}{{else}}-{{end}}</td></tr>
{{end}}</tbody>
</table>{{end}}
<h3>Binaries</h3>
<table class="sortable" id="service-table">
<thead><tr><th tabindex="0">binary</th><th data-num tabindex="0">receives</th><th tabindex="0">import path</th><th tabindex="0">serves (handler)</th></tr></thead>
<tbody>
{{range $i, $s := $.Rep.Services}}<tr data-i="{{$i}}" id="{{svcid $s.Name}}"><td><b>{{$s.Name}}</b>{{if $s.Entry}} <span class="tag known">entry</span>{{end}}</td><td class="num" data-k="{{risk $s.Receives}}">{{$s.Receives.Text}}</td><td><code>{{brk $s.Binary}}</code></td><td>{{range $s.Handlers}}<div><code>{{brk .Method}}</code> <span class="arrow">→</span> {{if .Pos}}<a href="{{url ($.Rep.FileLinkOf .Pos)}}"><code>{{brk .Function}}</code></a>{{else}}{{.Function}}{{end}} <span class="note">×{{.Downstream.Text}} downstream</span></div>{{end}}</td></tr>
{{end}}</tbody>
</table>
<h3>Links</h3>
<p class="note">One per call site that crosses a boundary. Retries: the caller's around the call; calls: per request entering the system; worst: end to end through it. Each link shows the code that makes it; silence a wrong one with <code>//lint:ignore services reason</code> on the call's line.</p>
<table class="sortable" id="links">
<thead><tr><th data-num tabindex="0" aria-sort="descending">worst</th><th data-num tabindex="0">calls</th><th tabindex="0">caller → callee</th><th tabindex="0">method</th><th tabindex="0">kind</th><th data-num tabindex="0">retries</th><th tabindex="0">transport</th><th tabindex="0">where</th><th tabindex="0">evidence</th></tr></thead>
<tbody>
{{range $i, $l := $.Rep.Links}}<tr data-i="{{$i}}" id="link-{{$i}}" class="{{$l.Status}}"><td class="num" data-k="{{risk $l.Worst}}">{{$l.Worst.Text}}</td><td class="num" data-k="{{risk $l.Calls}}">{{$l.Calls.Text}}</td><td>{{linkfrom $.Rep $l}} <span class="arrow">→</span> {{linkto $.Rep $l}}</td><td><code>{{brk $l.Method}}</code></td><td>{{$l.Kind}}</td><td class="num">{{retries $l}}</td><td>{{with $l.Transport}}<span title="{{.Reason}}">×{{.Factor.Text}}</span>{{else}}-{{end}}</td><td><a href="{{url ($.Rep.FileLinkOf $l.Pos)}}"><code>{{brk (short $l.Pos)}}</code></a> <code>{{brk $l.FromFunction}}</code></td><td class="note">{{with $l.Reason}}<b>{{$l.Status}}</b>: {{.}}<br>{{end}}{{with $l.Suppressed}}<b>suppressed</b>: {{.Reason}}<br>{{end}}{{range $l.Evidence}}{{.}}<br>{{end}}</td></tr>
{{end}}</tbody>
</table>
<h3>Calls per dependency</h3>
<table class="sortable" id="service-deps">
<thead><tr><th data-num tabindex="0">calls</th><th tabindex="0">dependency</th><th tabindex="0">kind</th><th tabindex="0">via</th></tr></thead>
<tbody>
{{range $i, $d := $.Rep.ServiceDeps}}<tr data-i="{{$i}}"><td class="num" data-k="{{risk $d.Calls}}">{{$d.Calls.Text}}</td><td><code>{{brk $d.Dependency}}</code></td><td>{{$d.Kind}}</td><td>{{$d.Via}}</td></tr>
{{end}}</tbody>
</table>
{{if $.Rep.Rollout}}<h3>Rollout order</h3>
<p class="note">Budget the deepest hop first: each step puts a 10% retry budget on one retry site of the worst chain.</p>
<table class="sortable" id="rollout">
<thead><tr><th data-num tabindex="0">step</th><th tabindex="0">budget</th><th tabindex="0">where</th><th tabindex="0">hop</th><th tabindex="0">factor</th><th data-num tabindex="0">worst after</th></tr></thead>
<tbody>
{{range $i, $r := $.Rep.Rollout}}<tr data-i="{{$i}}"><td class="num">{{$r.Step}}</td><td><code>{{brk $r.Function}}</code></td><td><a href="{{url ($.Rep.FileLinkOf $r.Pos)}}"><code>{{brk (short $r.Pos)}}</code></a></td><td>{{$r.Hop}}</td><td>{{$r.Before.Text}} → {{$r.After.Text}}</td><td class="num" data-k="{{risk $r.Worst}}">{{$r.Worst.Text}}</td></tr>
{{end}}</tbody>
</table>{{end}}
{{end}}`

// ServicesLineOf is servicesLine for the template.
func (rep *auditReport) ServicesLineOf() string { return rep.servicesLine() }
