package main

import (
	"fmt"
	"go/token"
	"go/types"
	"path"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/checker"
	"golang.org/x/tools/go/packages"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/services"
	"github.com/retrylint/retrylint/internal/suppress"
)

// The audit across services: once every package is analyzed, each call
// that leaves a process (an end, internal/amplify) is linked to the
// handlers that serve it in the binaries of the run (internal/services),
// and the multipliers compose along the links with amplify's Mult
// arithmetic: the caller's retries around the call, the client's
// transport, then the callee handler's own multiplier.

// linkedAmp is the amplification analyzer of an audit that links services.
var linkedAmp = amplify.New(retrysite.Analyzer, services.Analyzer)

// ampAnalyzer is the amplification analyzer the audit runs.
func (af *auditFlags) ampAnalyzer() *analysis.Analyzer {
	if af.services {
		return linkedAmp
	}
	return amplify.Analyzer
}

// Link statuses.
const (
	linkLinked     = "linked"
	linkExternal   = "external"
	linkUnresolved = "unresolved"
	linkSuppressed = "suppressed"
)

// The JSON form (audit.schema.json).

type auditService struct {
	Binary   string         `json:"binary"`
	Name     string         `json:"name"`
	Serves   []string       `json:"serves"`
	Handlers []auditHandler `json:"handlers"`
	Entry    bool           `json:"entry"`
	Receives *auditMult     `json:"receives"`
	bin      *svcBin
}

type auditHandler struct {
	Method     string     `json:"method"`
	Kind       string     `json:"kind"`
	Function   string     `json:"function"`
	Pos        string     `json:"pos"`
	Registered string     `json:"registered"`
	Evidence   string     `json:"evidence"`
	Own        *auditMult `json:"own"`
	Downstream *auditMult `json:"downstream"`
	Receives   *auditMult `json:"receives"`
}

type auditTransport struct {
	Factor *auditMult `json:"factor"`
	Reason string     `json:"reason"`
}

type auditLink struct {
	From         string            `json:"from"`
	To           string            `json:"to"`
	FromFunction string            `json:"from_function"`
	ToFunction   string            `json:"to_function"`
	Method       string            `json:"method"`
	ToMethod     string            `json:"to_method"`
	Kind         string            `json:"kind"`
	Pos          string            `json:"pos"`
	Status       string            `json:"status"`
	Reason       string            `json:"reason,omitempty"`
	Factor       *auditMult        `json:"factor"`
	Steps        []auditStep       `json:"steps"`
	Transport    *auditTransport   `json:"transport"`
	Detached     bool              `json:"detached"`
	Calls        *auditMult        `json:"calls_per_request"`
	Worst        *auditMult        `json:"worst_product"`
	Evidence     []string          `json:"evidence"`
	Suppressed   *auditSuppression `json:"suppressed,omitempty"`
	fromName     string
	toName       string
	worst        amplify.Mult
	calls        amplify.Mult
	factor       amplify.Mult
}

type auditHop struct {
	Binary    string          `json:"binary"`
	Function  string          `json:"function"`
	Pos       string          `json:"pos"`
	Steps     []auditStep     `json:"steps"`
	Factor    *auditMult      `json:"factor"`
	Call      string          `json:"call,omitempty"`
	Method    string          `json:"method,omitempty"`
	Kind      string          `json:"kind,omitempty"`
	To        string          `json:"to,omitempty"`
	Transport *auditTransport `json:"transport"`
	Calls     *auditMult      `json:"calls_per_request"`
	Detached  bool            `json:"detached,omitempty"`
	name      string
	toName    string
}

type auditServiceChain struct {
	Product *auditMult `json:"product"`
	Deepest string     `json:"deepest_dependency"`
	Hops    []auditHop `json:"hops"`
	product amplify.Mult
}

type auditServiceDep struct {
	Dependency string     `json:"dependency"`
	Kind       string     `json:"kind"`
	Calls      *auditMult `json:"calls_per_request"`
	Via        string     `json:"via"`
	Pos        string     `json:"pos"`
	calls      amplify.Mult
}

type auditRolloutStep struct {
	Step     int        `json:"step"`
	Binary   string     `json:"binary"`
	Function string     `json:"function"`
	Pos      string     `json:"pos"`
	Site     string     `json:"site"`
	Hop      string     `json:"hop"`
	Before   *auditMult `json:"before"`
	After    *auditMult `json:"after"`
	Worst    *auditMult `json:"worst_after"`
}

// The graph.

type svcBin struct {
	path  string
	name  string
	nodes []*svcNode
	pkg   *packages.Package
	main  *svcNode // the binary's main function, as a source of calls
}

// A svcNode is a handler of a binary (or its main): what it serves, its
// own multiplier and its ends.
type svcNode struct {
	bin    *svcBin
	served services.Served
	isMain bool
	known  bool
	name   string
	own    amplify.Mult
	chain  []amplify.Step
	ends   []amplify.End
	// evaluation
	state    uint8
	down     amplify.Mult
	downVia  int // the end of ends that gives down, -1 for own
	downTo   *svcNode
	up       amplify.Mult
	upSet    bool
	incoming int
}

// A svcEnd is one end of a node with where it goes.
type svcEnd struct {
	from     *svcNode
	end      amplify.End
	targets  []*svcNode
	status   string
	reason   string
	evidence []string
	supp     *auditSuppression
}

type svcGraph struct {
	bins    []*svcBin
	nodes   []*svcNode
	ends    map[*svcNode][]*svcEnd
	over    map[string]bool // retry sites budgeted by the rollout, by position
	rep     *auditReport
	entries []*svcNode
}

// buildServices assembles the service graph of the run from the graph of
// actions and writes its parts of the report.
func (rep *auditReport) buildServices(g *checker.Graph, amp *analysis.Analyzer) {
	rep.Services, rep.Links, rep.ServiceDeps, rep.Rollout = []auditService{}, []auditLink{}, []auditServiceDep{}, []auditRolloutStep{}
	if amp != linkedAmp {
		return
	}
	handlers := map[string]*types.Func{}
	ampActs := map[*types.Package]*checker.Action{}
	entries := map[string]amplify.EntryValue{}
	var bins []*svcBin
	var svcActs []*checker.Action
	for act := range g.All() {
		if act.Err != nil || isVariant(act.Package) {
			continue
		}
		switch act.Analyzer {
		case services.Analyzer:
			svcActs = append(svcActs, act)
		case amp:
			ampActs[act.Package.Types] = act
			if res, ok := act.Result.(*amplify.Result); ok && res != nil {
				for _, e := range res.Entries {
					entries[services.LitKey(e.Pos)] = e
				}
			}
		}
	}
	sort.Slice(svcActs, func(i, j int) bool { return svcActs[i].Package.ID < svcActs[j].Package.ID })
	files := map[string]*packages.Package{}
	for _, act := range svcActs {
		res, ok := act.Result.(*services.Result)
		if !ok || res == nil {
			continue
		}
		for k, fn := range res.Handlers {
			handlers[k] = fn
		}
		for _, f := range act.Package.CompiledGoFiles {
			files[f] = act.Package
		}
		if act.Package.Name == "main" && len(act.Package.Syntax) > 0 {
			b := &svcBin{path: act.Package.PkgPath, pkg: act.Package}
			for _, s := range res.Main {
				b.nodes = append(b.nodes, &svcNode{bin: b, served: s})
			}
			bins = append(bins, b)
		}
	}
	if len(bins) == 0 {
		return
	}
	sort.Slice(bins, func(i, j int) bool { return bins[i].path < bins[j].path })
	nameBins(bins)
	gr := &svcGraph{bins: bins, ends: map[*svcNode][]*svcEnd{}, over: map[string]bool{}, rep: rep}
	value := func(fn *types.Func) (amplify.Mult, []amplify.Step, []amplify.End) {
		act := ampActs[fn.Pkg()]
		if act == nil {
			return amplify.One(), nil, nil
		}
		m, chain := amplify.One(), []amplify.Step(nil)
		var af amplify.AmpFact
		if act.ObjectFact(fn, &af) {
			m, chain = af.Mult, af.Chain
		}
		var ef amplify.EndsFact
		act.ObjectFact(fn, &ef)
		return m, chain, ef.Ends
	}
	for _, b := range bins {
		seen := map[string]bool{}
		var nodes []*svcNode
		for _, n := range b.nodes {
			k := n.served.Method + "\x00" + n.served.Handler
			if seen[k] {
				continue // registered twice (two servers of one binary)
			}
			seen[k] = true
			n.name = n.served.Name
			switch {
			case strings.HasPrefix(n.served.Handler, "std:"):
				n.known, n.own = true, amplify.One()
			case strings.HasPrefix(n.served.Handler, "lit:"):
				if e, ok := entries[n.served.Handler]; ok {
					n.known, n.own, n.chain, n.ends = true, e.Mult, e.Chain, e.Ends
				}
			case handlers[n.served.Handler] != nil:
				n.known = true
				n.own, n.chain, n.ends = value(handlers[n.served.Handler])
			}
			if !n.known {
				n.own = amplify.Mult{Kind: amplify.Count, Value: 1, Open: true}
			}
			nodes = append(nodes, n)
		}
		b.nodes = nodes
		// The binary's main: the calls it makes outside any handler.
		if obj, ok := b.pkg.Types.Scope().Lookup("main").(*types.Func); ok {
			m, chain, ends := value(obj)
			b.main = &svcNode{bin: b, isMain: true, known: true, name: amplify.FuncName(obj), own: m, chain: chain, ends: ends,
				served: services.Served{Pos: b.pkg.Fset.Position(obj.Pos()).String()}}
		}
		gr.nodes = append(gr.nodes, b.nodes...)
		if b.main != nil {
			gr.nodes = append(gr.nodes, b.main)
		}
	}
	dirs := map[*packages.Package]*suppress.Directives{}
	for _, n := range gr.nodes {
		for _, e := range n.ends {
			se := gr.resolve(n, e)
			if p := files[posFile(e.Pos)]; p != nil {
				if dirs[p] == nil {
					dirs[p] = suppress.Parse(p.Fset, p.Syntax)
				}
				if at := amplify.Pos(p.Fset, e.Pos); at.IsValid() {
					if d, ok := lookupLinkDirective(dirs[p], p.Fset, at); ok {
						text := directiveText(p.Fset, d, newLineCache())
						se.supp = &auditSuppression{Directive: text, Reason: directiveReason(d, text)}
						se.status = linkSuppressed
					}
				}
			}
			gr.ends[n] = append(gr.ends[n], se)
		}
	}
	gr.evaluate()
	gr.report()
}

// lookupLinkDirective finds a directive that silences a link at pos: one
// naming the services check (//lint:ignore services reason), retrylint,
// or a //nolint.
func lookupLinkDirective(ds *suppress.Directives, fset *token.FileSet, at token.Pos) (*suppress.Directive, bool) {
	return ds.Lookup(fset, at, "services")
}

func posFile(pos string) string {
	f, _, _, _ := amplify.ParsePos(pos)
	return f
}

// isVariant reports whether a package is a test variant or a test main.
func isVariant(p *packages.Package) bool {
	return strings.Contains(p.ID, " [") || strings.HasSuffix(p.ID, ".test") || strings.HasSuffix(p.PkgPath, "_test")
}

// nameBins gives each binary a short name: the last element of its path,
// longer where two share it.
func nameBins(bins []*svcBin) {
	for n := 1; ; n++ {
		names := map[string]int{}
		for _, b := range bins {
			b.name = lastElems(b.path, n)
			names[b.name]++
		}
		dup := false
		for _, c := range names {
			dup = dup || c > 1
		}
		if !dup || n > 8 {
			return
		}
	}
}

func lastElems(p string, n int) string {
	parts := strings.Split(p, "/")
	if n >= len(parts) {
		return p
	}
	return strings.Join(parts[len(parts)-n:], "/")
}

// compatible reports whether a client of kind k reaches a handler of kind
// h: connect handlers also speak gRPC, and gRPC servers are reached by
// connect clients that speak it.
func compatible(k, h string) bool {
	if k == h {
		return true
	}
	return (k == services.GRPC || k == services.Connect) && (h == services.GRPC || h == services.Connect)
}

// resolve finds the handlers an end reaches: every handler registered for
// its full method name (in any binary), or the one HTTP route that
// matches; none is external, several HTTP routes unresolved.
func (gr *svcGraph) resolve(n *svcNode, e amplify.End) *svcEnd {
	se := &svcEnd{from: n, end: e}
	se.evidence = append(se.evidence, e.Via)
	if e.Kind != services.HTTP {
		for _, b := range gr.bins {
			for _, t := range b.nodes {
				if compatible(e.Kind, t.served.Kind) && t.served.Method == e.Method {
					se.targets = append(se.targets, t)
				}
			}
		}
		if len(se.targets) == 0 {
			se.status = linkExternal
			se.reason = "no binary of the run serves " + e.Method + ": the call leaves the monorepo"
			return se
		}
	} else {
		type match struct {
			node  *svcNode
			score int
		}
		var matches []match
		for _, b := range gr.bins {
			var best *svcNode
			bestScore := -1
			for _, t := range b.nodes {
				if sc, ok := services.MatchHTTP(t.served, e.Method); ok && sc > bestScore {
					best, bestScore = t, sc
				}
			}
			if best != nil {
				matches = append(matches, match{best, bestScore})
			}
		}
		switch len(matches) {
		case 0:
			se.status = linkExternal
			se.reason = "no route of the run's binaries matches " + e.Method + ": the call leaves the monorepo"
			return se
		case 1:
			se.targets = []*svcNode{matches[0].node}
		default:
			var names []string
			for _, m := range matches {
				names = append(names, m.node.bin.name+" "+m.node.served.Method+" ("+m.node.name+")")
			}
			se.status = linkUnresolved
			se.reason = fmt.Sprintf("%s matches %d handlers: %s; the URL's host decides, and it is not a constant", e.Method, len(matches), strings.Join(names, ", "))
			return se
		}
	}
	se.status = linkLinked
	for _, t := range se.targets {
		se.evidence = append(se.evidence, t.bin.name+": "+t.served.Via)
	}
	return se
}

// budgetFactor is the factor of a retry site the rollout budgets: a 10%
// budget, as the budget package's default.
var budgetFactor = amplify.Mult{Kind: amplify.Count, Value: 1 + amplify.DefaultRatio}

// chainMult recomputes the product of a chain's steps with the rollout's
// budgets, keeping what the original product knew beyond the steps (an
// open end).
func (gr *svcGraph) chainMult(chain []amplify.Step, orig amplify.Mult) amplify.Mult {
	m := amplify.One()
	for _, st := range chain {
		m = m.Times(gr.stepFactor(st))
	}
	m.Open = m.Open || orig.Open
	return m
}

func (gr *svcGraph) stepFactor(st amplify.Step) amplify.Mult {
	if gr.over[st.Pos] && st.Factor.Worse(budgetFactor) {
		return budgetFactor
	}
	return st.Factor
}

// usable reports whether an end multiplies: linked and not suppressed.
func (se *svcEnd) usable() bool { return se.status == linkLinked }

// hop is the factor one call of an end's function sends through it: the
// retries around the call times the transport's replay.
func (gr *svcGraph) hop(se *svcEnd) amplify.Mult {
	return gr.chainMult(se.end.Chain, se.end.Mult).Times(se.end.Transport)
}

// down computes the worst product one call of a node sends to the
// deepest dependency: its own, or through one of its attached ends, the
// hop times the worst of the handlers it reaches.
func (gr *svcGraph) down(n *svcNode) amplify.Mult {
	switch n.state {
	case 1:
		return amplify.Mult{Kind: amplify.Count, Value: 1, Open: true} // a cycle of services
	case 2:
		return n.down
	}
	n.state = 1
	best, via, to := gr.chainMult(n.chain, n.own), -1, (*svcNode)(nil)
	for i, se := range gr.ends[n] {
		if se.end.Detached {
			continue
		}
		h := gr.hop(se)
		v := h
		var vt *svcNode
		if se.usable() {
			tv, t := gr.worstTarget(se)
			v, vt = h.Times(tv), t
		} else if se.status == linkSuppressed {
			continue
		}
		// At the same product the link wins: the chain goes on into the
		// service it calls (the own chain is then the link's retries).
		if v.Worse(best) || se.usable() && via < 0 && !best.Worse(v) {
			best, via, to = v, i, vt
		}
	}
	n.down, n.downVia, n.downTo, n.state = best, via, to, 2
	return best
}

// worstTarget returns the worst of the handlers an end reaches.
func (gr *svcGraph) worstTarget(se *svcEnd) (amplify.Mult, *svcNode) {
	var best amplify.Mult
	var bt *svcNode
	for _, t := range se.targets {
		if d := gr.down(t); bt == nil || d.Worse(best) {
			best, bt = d, t
		}
	}
	return best, bt
}

// evaluate computes, for every node, the worst product downstream and the
// calls it receives per request entering the system.
func (gr *svcGraph) evaluate() {
	for _, n := range gr.nodes {
		n.state, n.upSet, n.incoming = 0, false, 0
	}
	for _, n := range gr.nodes {
		for _, se := range gr.ends[n] {
			if !se.usable() || se.end.Detached {
				continue
			}
			for _, t := range se.targets {
				if t.bin != n.bin {
					t.incoming++
				}
			}
		}
	}
	// Entries: the handlers of binaries no other binary calls, and the
	// main of a binary that serves nothing.
	gr.entries = nil
	called := map[*svcBin]bool{}
	for _, n := range gr.nodes {
		if n.incoming > 0 {
			called[n.bin] = true
		}
	}
	for _, b := range gr.bins {
		if called[b] {
			continue
		}
		if len(b.nodes) == 0 {
			if b.main != nil {
				gr.entries = append(gr.entries, b.main)
			}
			continue
		}
		gr.entries = append(gr.entries, b.nodes...)
	}
	if len(gr.entries) == 0 {
		// Every binary is called by another: every handler is an entry.
		for _, b := range gr.bins {
			gr.entries = append(gr.entries, b.nodes...)
		}
	}
	for _, n := range gr.nodes {
		gr.down(n)
	}
	// Calls per request: from the entries along the attached ends, in an
	// order where a node comes after those that call it (cycles cut).
	order := gr.topo()
	for _, n := range gr.entries {
		n.up, n.upSet = amplify.One(), true
	}
	relax := func(t *svcNode, m amplify.Mult) {
		if !t.upSet || m.Worse(t.up) {
			t.up, t.upSet = m, true
		}
	}
	// Detached ends start afresh: their own retries, not their callers'.
	for _, n := range gr.nodes {
		for _, se := range gr.ends[n] {
			if se.end.Detached && se.usable() {
				for _, t := range se.targets {
					relax(t, gr.hop(se))
				}
			}
		}
	}
	for _, n := range order {
		if !n.upSet {
			continue
		}
		for _, se := range gr.ends[n] {
			if se.end.Detached || !se.usable() {
				continue
			}
			for _, t := range se.targets {
				relax(t, n.up.Times(gr.hop(se)))
			}
		}
	}
}

// topo orders the nodes so that callers come before callees, cutting
// cycles where the depth-first walk meets them.
func (gr *svcGraph) topo() []*svcNode {
	state := map[*svcNode]uint8{}
	var out []*svcNode
	var visit func(n *svcNode)
	visit = func(n *svcNode) {
		if state[n] != 0 {
			return
		}
		state[n] = 1
		for _, se := range gr.ends[n] {
			if !se.usable() {
				continue
			}
			for _, t := range se.targets {
				if state[t] == 0 {
					visit(t)
				}
			}
		}
		state[n] = 2
		out = append(out, n)
	}
	for _, n := range gr.entries {
		visit(n)
	}
	for _, n := range gr.nodes {
		visit(n)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// A chainHop is one hop of an end-to-end chain as the graph has it.
type chainHop struct {
	node *svcNode
	end  *svcEnd // nil for the last node
}

// worstChain returns the worst end-to-end chain: from an entry (or a
// detached end), hop by hop, with its product.
func (gr *svcGraph) worstChain() ([]chainHop, amplify.Mult, bool) {
	var best []chainHop
	var bestM amplify.Mult
	found := false
	follow := func(n *svcNode) []chainHop {
		var hops []chainHop
		seen := map[*svcNode]bool{}
		for n != nil && !seen[n] {
			seen[n] = true
			if n.downVia < 0 {
				hops = append(hops, chainHop{node: n})
				break
			}
			se := gr.ends[n][n.downVia]
			hops = append(hops, chainHop{node: n, end: se})
			n = n.downTo
		}
		return hops
	}
	for _, n := range gr.entries {
		if m := n.down; !found || m.Worse(bestM) {
			best, bestM, found = follow(n), m, true
		}
	}
	for _, n := range gr.nodes {
		for _, se := range gr.ends[n] {
			if !se.end.Detached || se.status == linkSuppressed {
				continue
			}
			m := gr.hop(se)
			var t *svcNode
			if se.usable() {
				var tv amplify.Mult
				tv, t = gr.worstTarget(se)
				m = m.Times(tv)
			}
			if !found || m.Worse(bestM) {
				hops := []chainHop{{node: n, end: se}}
				if t != nil {
					hops = append(hops, follow(t)...)
				}
				best, bestM, found = hops, m, true
			}
		}
	}
	return best, bestM, found && bestM.Interesting()
}

// rollout budgets, one retry site at a time, the deepest unbudgeted site
// of the worst chain, and records what each step brings the worst product
// down to.
func (gr *svcGraph) rollout() []auditRolloutStep {
	var steps []auditRolloutStep
	for len(steps) < 20 {
		hops, _, ok := gr.worstChain()
		if !ok {
			break
		}
		type cand struct {
			st  amplify.Step
			hop string
			bin string
		}
		var cands []cand
		for _, h := range hops {
			var chain []amplify.Step
			what := ""
			if h.end != nil {
				chain = h.end.end.Chain
				what = hopText(h.node.bin.name, h.end)
			} else {
				chain = h.node.chain
				what = h.node.bin.name + " → " + orDash(lastDep(chain))
			}
			for _, st := range chain {
				if !gr.over[st.Pos] && st.Factor.Worse(budgetFactor) {
					cands = append(cands, cand{st, what, h.node.bin.name})
				}
			}
		}
		if len(cands) == 0 {
			break
		}
		c := cands[len(cands)-1] // the deepest
		before := gr.stepFactor(c.st)
		gr.over[c.st.Pos] = true
		gr.evaluate()
		_, worst, ok := gr.worstChain()
		if !ok {
			worst = amplify.One()
		}
		steps = append(steps, auditRolloutStep{
			Step: len(steps) + 1, Binary: c.bin, Function: c.st.Func, Pos: gr.rep.relPos(c.st.Pos), Site: c.st.Site,
			Hop: c.hop, Before: toMult(before), After: toMult(budgetFactor), Worst: toMult(worst),
		})
	}
	gr.over = map[string]bool{}
	gr.evaluate()
	return steps
}

func lastDep(chain []amplify.Step) string {
	if len(chain) == 0 {
		return ""
	}
	return chain[len(chain)-1].Dep
}

// hopText names a hop: "orders → ledger /ledger.v1.Ledger/Post".
func hopText(from string, se *svcEnd) string {
	to := "(external)"
	switch se.status {
	case linkLinked:
		var names []string
		seen := map[string]bool{}
		for _, t := range se.targets {
			if !seen[t.bin.name] {
				seen[t.bin.name] = true
				names = append(names, t.bin.name)
			}
		}
		to = strings.Join(names, ", ")
	case linkUnresolved:
		to = "(unresolved)"
	}
	return from + " → " + to + " " + se.end.Method
}

// relPos makes a position relative to the working directory.
func (rep *auditReport) relPos(pos string) string {
	file, line, col, ok := amplify.ParsePos(pos)
	if !ok {
		return pos
	}
	return fmt.Sprintf("%s:%d:%d", rep.rel(file), line, col)
}

func (rep *auditReport) steps(chain []amplify.Step) []auditStep {
	out := []auditStep{}
	for _, st := range chain {
		out = append(out, auditStep{
			Function: st.Func, Pos: rep.relPos(st.Pos), Site: st.Site, Bound: st.Bound, Factor: toMult(st.Factor),
			Budget: st.Budget, Deadline: st.Deadline, Dependency: st.Dep,
		})
	}
	return out
}

func transportOf(e amplify.End) *auditTransport {
	if !e.Transport.Interesting() {
		return nil
	}
	return &auditTransport{Factor: toMult(e.Transport), Reason: e.TransportWhy}
}

// report writes the graph's parts of the report: services, links, the
// worst chain, the calls per dependency and the rollout.
func (gr *svcGraph) report() {
	rep := gr.rep
	entry := map[*svcNode]bool{}
	for _, n := range gr.entries {
		entry[n] = true
	}
	for _, b := range gr.bins {
		s := auditService{Binary: b.path, Name: b.name, Serves: []string{}, Handlers: []auditHandler{}, bin: b}
		recv := amplify.Mult{}
		set := false
		for _, n := range b.nodes {
			s.Serves = append(s.Serves, n.served.Method)
			up := amplify.One()
			if n.upSet {
				up = n.up
			}
			if !set || up.Worse(recv) {
				recv, set = up, true
			}
			s.Entry = s.Entry || entry[n]
			s.Handlers = append(s.Handlers, auditHandler{
				Method: n.served.Method, Kind: n.served.Kind, Function: n.name, Pos: rep.relPos(n.served.HandlerPos),
				Registered: rep.relPos(n.served.Pos), Evidence: n.served.Via,
				Own: toMult(n.own), Downstream: toMult(n.down), Receives: toMult(up),
			})
		}
		if b.main != nil && len(b.nodes) == 0 {
			s.Entry = entry[b.main]
		}
		if !set {
			recv = amplify.One()
		}
		s.Serves = uniqStrings(s.Serves)
		s.Receives = toMult(recv)
		rep.Services = append(rep.Services, s)
	}
	// Links: one per call site, binary and target, the worst first.
	type key struct{ from, pos, method, to string }
	byKey := map[key]*auditLink{}
	var links []*auditLink
	for _, n := range gr.nodes {
		for _, se := range gr.ends[n] {
			h := gr.hop(se)
			calls := h
			if !se.end.Detached && n.upSet {
				calls = n.up.Times(h)
			}
			targets := se.targets
			if !se.usable() {
				targets = []*svcNode{nil}
			}
			for _, t := range targets {
				l := &auditLink{
					From: n.bin.path, FromFunction: se.end.Func, Method: se.end.Method, Kind: se.end.Kind,
					Pos: rep.relPos(se.end.Pos), Status: se.status, Reason: se.reason,
					Steps: rep.steps(se.end.Chain), Transport: transportOf(se.end), Detached: se.end.Detached,
					Evidence: se.evidence, Suppressed: se.supp, fromName: n.bin.name,
					factor: gr.chainMult(se.end.Chain, se.end.Mult), calls: calls,
				}
				worst := calls
				if t != nil {
					l.To, l.ToFunction, l.ToMethod, l.toName = t.bin.path, t.name, t.served.Method, t.bin.name
					worst = calls.Times(t.down)
				}
				l.worst = worst
				k := key{l.From, l.Pos, l.Method, l.To}
				if old, ok := byKey[k]; ok {
					if old.Detached && !l.Detached || l.worst.Worse(old.worst) && old.Detached == l.Detached {
						*old = *l
					}
					continue
				}
				byKey[k] = l
				links = append(links, l)
			}
		}
	}
	for _, l := range links {
		l.Factor, l.Calls, l.Worst = toMult(l.factor), toMult(l.calls), toMult(l.worst)
	}
	sort.SliceStable(links, func(i, j int) bool {
		a, b := links[i], links[j]
		if ra, rb := linkRank(a), linkRank(b); ra != rb {
			return ra < rb
		}
		if a.worst.Worse(b.worst) {
			return true
		}
		if b.worst.Worse(a.worst) {
			return false
		}
		if a.From != b.From {
			return a.From < b.From
		}
		if a.Pos != b.Pos {
			return a.Pos < b.Pos
		}
		return a.To < b.To
	})
	for _, l := range links {
		rep.Links = append(rep.Links, *l)
	}
	// The worst chain.
	if hops, m, ok := gr.worstChain(); ok {
		rep.ServiceChain = gr.chainReport(hops, m)
	}
	rep.ServiceDeps = gr.deps(links)
	if rep.Rollout = gr.rollout(); rep.Rollout == nil {
		rep.Rollout = []auditRolloutStep{}
	}
}

func linkRank(l *auditLink) int {
	if l.Status == linkSuppressed {
		return 1
	}
	return 0
}

func uniqStrings(ss []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func (gr *svcGraph) chainReport(hops []chainHop, m amplify.Mult) *auditServiceChain {
	rep := gr.rep
	c := &auditServiceChain{Product: toMult(m), product: m, Hops: []auditHop{}}
	calls := amplify.One()
	for i, h := range hops {
		n := h.node
		hop := auditHop{Binary: n.bin.path, Function: n.name, Pos: rep.relPos(n.served.HandlerPos), name: n.bin.name}
		if n.isMain {
			hop.Pos = rep.relPos(n.served.Pos)
		}
		if h.end != nil {
			e := h.end.end
			f := gr.chainMult(e.Chain, e.Mult)
			calls = calls.Times(f).Times(e.Transport)
			hop.Steps, hop.Factor, hop.Call, hop.Method, hop.Kind = rep.steps(e.Chain), toMult(f), rep.relPos(e.Pos), e.Method, e.Kind
			hop.Transport, hop.Calls, hop.Detached = transportOf(e), toMult(calls), e.Detached
			if i+1 < len(hops) {
				hop.To, hop.toName = hops[i+1].node.bin.path, hops[i+1].node.bin.name
			} else {
				c.Deepest = e.Method + " (" + h.end.status + ")"
			}
		} else {
			f := gr.chainMult(n.chain, n.own)
			calls = calls.Times(f)
			hop.Steps, hop.Factor, hop.Calls = rep.steps(n.chain), toMult(f), toMult(calls)
			c.Deepest = n.bin.name
			if d := lastDep(n.chain); d != "" {
				c.Deepest = n.bin.name + ": " + d
			}
		}
		c.Hops = append(c.Hops, hop)
	}
	return c
}

// deps lists the calls per request entering the system that each
// dependency receives: through each link, and at each handler's own
// deepest dependency.
func (gr *svcGraph) deps(links []*auditLink) []auditServiceDep {
	var out []auditServiceDep
	for _, l := range links {
		if l.Status == linkSuppressed {
			continue
		}
		d := auditServiceDep{Kind: "service", Calls: toMult(l.calls), calls: l.calls, Pos: l.Pos,
			Via: l.fromName + " → " + orDash(l.toName) + " at " + short(l.Pos)}
		switch l.Status {
		case linkLinked:
			d.Dependency = l.toName + " " + l.ToMethod
		case linkExternal:
			d.Kind, d.Dependency, d.Via = "external", l.Method, l.fromName+" at "+short(l.Pos)
		case linkUnresolved:
			d.Kind, d.Dependency, d.Via = "unresolved", l.Method, l.fromName+" at "+short(l.Pos)
		}
		if l.Detached {
			d.Via += " (started with go, not waited for)"
		}
		out = append(out, d)
	}
	for _, n := range gr.nodes {
		if len(n.chain) == 0 || !n.own.Interesting() || gr.ownIsLink(n) {
			continue
		}
		up := amplify.One()
		if n.upSet {
			up = n.up
		}
		m := up.Times(gr.chainMult(n.chain, n.own))
		dep := lastDep(n.chain)
		if dep == "" {
			dep = "(unknown)"
		}
		last := n.chain[len(n.chain)-1]
		out = append(out, auditServiceDep{Dependency: n.bin.name + ": " + dep, Kind: "leaf", Calls: toMult(m), calls: m,
			Via: n.name + " at " + short(gr.rep.relPos(last.Pos)), Pos: gr.rep.relPos(last.Pos)})
	}
	// One row per dependency and way in: the worst.
	seen := map[string]int{}
	var uniq []auditServiceDep
	for _, d := range out {
		k := d.Dependency + "\x00" + d.Via
		if i, ok := seen[k]; ok {
			if d.calls.Worse(uniq[i].calls) {
				uniq[i] = d
			}
			continue
		}
		seen[k] = len(uniq)
		uniq = append(uniq, d)
	}
	sort.SliceStable(uniq, func(i, j int) bool {
		a, b := uniq[i], uniq[j]
		if a.calls.Worse(b.calls) {
			return true
		}
		if b.calls.Worse(a.calls) {
			return false
		}
		if a.Dependency != b.Dependency {
			return a.Dependency < b.Dependency
		}
		return a.Via < b.Via
	})
	if uniq == nil {
		uniq = []auditServiceDep{}
	}
	return uniq
}

// ownIsLink reports whether a node's own worst chain is the retries of
// one of its links (the sites around a linked call): then it is no leaf.
func (gr *svcGraph) ownIsLink(n *svcNode) bool {
	for _, se := range gr.ends[n] {
		if len(se.end.Chain) < len(n.chain) {
			continue
		}
		same := true
		for i, st := range n.chain {
			if se.end.Chain[i].Pos != st.Pos {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// serviceName is a binary's short name for a path, for the formats.
func (rep *auditReport) serviceName(p string) string {
	for _, s := range rep.Services {
		if s.Binary == p {
			return s.Name
		}
	}
	if p == "" {
		return ""
	}
	return path.Base(p)
}
