package amplify

import (
	"go/ast"
	"sort"
	"strings"

	"golang.org/x/tools/go/analysis"

	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/srcpos"
)

// Calls that leave the process.
//
// In a monorepo one service calls the next through a generated client
// (gRPC, connect, Twirp) or an HTTP request, and both sides are analyzed
// code. Which handler a call reaches is known only once every package has
// been analyzed, so the multiplier of a function cannot include what the
// other service does: instead, each function carries its ends, the calls
// out of the process that it reaches, each with the product of the retry
// sites around it on the way (the retries of the caller's process, and
// nothing after the call). A driver that sees every package (the audit)
// links each end to the handlers that serve it and multiplies there, with
// this package's Mult arithmetic.
//
// Which calls leave the process is not this package's business: an
// analyzer that the amplification analyzer requires (New(site, linker))
// and whose result implements Linker says so. Without one, nothing is an
// end and the multipliers are those of one process, as before.
//
// A linked call counts one call here (its callee's multiplier is the
// other service's), and is not open: where it goes is known, at the end.
// Work started and not waited for does not multiply here, and does not
// multiply there either: an end reached through a goroutine or a callback
// is kept, marked Detached, with the retries inside that work only, and
// the retries around the work do not multiply it.

// A Link is what a call sends out of the process: one method of another
// service.
type Link struct {
	Kind   string // "grpc", "connect", "twirp" or "http"
	Method string // "/ledger.v1.Ledger/Post", "POST /v1/notify"
	// Transport is the factor the client's transport adds to every
	// attempt (net/http's replay of an idempotent request on a dropped
	// reused connection: 2), One when it adds none; TransportWhy says why.
	Transport    Mult
	TransportWhy string
	// Via is the code that makes the call a link, for a reader who checks
	// it: "generated gRPC client ledgerv1.LedgerClient.Post".
	Via string
}

// A Linker says which calls of a package leave the process. The result of
// an analyzer required by the amplification analyzer may implement it.
type Linker interface {
	// Links returns what a call, or an operation passed by name to a
	// retry site (a method value), sends out of the process; nil for
	// most.
	Links(n ast.Node) []Link
	// Entries lists function literals that are entry points of their own
	// (HTTP handlers registered as literals): their multiplier and ends
	// are computed apart (Result.Entries).
	Entries() []*ast.FuncLit
	// Any reports whether the package has a linked call or an entry.
	Any() bool
}

// An End is a call out of the process that a function reaches.
type End struct {
	Link
	Pos  string // the call, file:line:column
	Func string // the function that makes it
	// Mult is the product of the retry sites around the call on the way
	// from the function that carries the end; Chain lists them, outermost
	// first.
	Mult  Mult
	Chain []Step
	// Detached says the call is made by work the function starts and does
	// not wait for (a goroutine, a callback): Mult counts only the retries
	// inside that work.
	Detached bool
}

func (e End) key() string {
	d := "a"
	if e.Detached {
		d = "d"
	}
	return e.Pos + "\x00" + e.Kind + "\x00" + e.Method + "\x00" + d
}

// EndsFact lists the ends of a function (see End): the calls out of the
// process it reaches, in position order.
type EndsFact struct {
	Ends []End
}

func (*EndsFact) AFact() {}

// String gives each end's product and method: "ends(3 /ledger.v1.Ledger/Post)".
func (f *EndsFact) String() string {
	var parts []string
	for _, e := range f.Ends {
		s := e.Mult.String() + " " + e.Method
		if e.Detached {
			s += " detached"
		}
		parts = append(parts, s)
	}
	return "ends(" + strings.Join(parts, ", ") + ")"
}

// EntryValue is the multiplier and the ends of an entry literal.
type EntryValue struct {
	Lit   *ast.FuncLit
	Pos   string
	Func  string // the function the literal is in
	Mult  Mult
	Chain []Step
	Ends  []End
}

// mergeEnds adds src to dst, keeping for each call, method and
// detachment the worst product; the result is in position order.
func mergeEnds(dst, src []End) []End {
	if len(src) == 0 {
		return dst
	}
	if len(dst) == 0 {
		return sortEnds(append([]End(nil), src...))
	}
	at := make(map[string]int, len(dst))
	out := append([]End(nil), dst...)
	for i, e := range out {
		at[e.key()] = i
	}
	for _, e := range src {
		if i, ok := at[e.key()]; ok {
			if e.Mult.Worse(out[i].Mult) {
				out[i] = e
			}
			continue
		}
		at[e.key()] = len(out)
		out = append(out, e)
	}
	return sortEnds(out)
}

func sortEnds(ends []End) []End {
	sort.SliceStable(ends, func(i, j int) bool {
		a, b := ends[i], ends[j]
		fa, la, ca, _ := ParsePos(a.Pos)
		fb, lb, cb, _ := ParsePos(b.Pos)
		switch {
		case fa != fb:
			return fa < fb
		case la != lb:
			return la < lb
		case ca != cb:
			return ca < cb
		case a.Method != b.Method:
			return a.Method < b.Method
		}
		return !a.Detached && b.Detached
	})
	return ends
}

// timesEnds returns the ends under a retry site: each attached end's
// product gets the site's factor, and the site as its first step.
func timesEnds(step Step, ends []End) []End {
	if len(ends) == 0 {
		return nil
	}
	out := make([]End, len(ends))
	for i, e := range ends {
		if !e.Detached {
			e.Mult = step.Factor.Times(e.Mult)
			e.Chain = append([]Step{step}, e.Chain...)
		}
		out[i] = e
	}
	return out
}

// detachEnds marks ends as reached through work that is not waited for.
func detachEnds(ends []End) []End {
	if len(ends) == 0 {
		return nil
	}
	out := make([]End, len(ends))
	for i, e := range ends {
		e.Detached = true
		out[i] = e
	}
	return out
}

// linkerOf returns the pass's Linker, if a required analyzer provides one.
func linkerOf(results map[*analysis.Analyzer]any) Linker {
	// Deterministic: at most one required result is a Linker in practice;
	// when there are several, the first by analyzer name.
	var names []string
	byName := map[string]Linker{}
	for a, r := range results {
		if l, ok := r.(Linker); ok && l != nil {
			names = append(names, a.Name)
			byName[a.Name] = l
		}
	}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	return byName[names[0]]
}

// linkEnds returns the ends a linked call (or operation) makes in the
// function named fn, and whether it is linked.
func (c *computer) linkEnds(n ast.Node, fn string) ([]End, bool) {
	if c.linker == nil {
		return nil, false
	}
	links := c.linker.Links(n)
	if len(links) == 0 {
		return nil, false
	}
	pos := c.pass.Fset.Position(n.Pos()).String()
	var ends []End
	for _, l := range links {
		if l.Transport.Value == 0 {
			l.Transport = One()
		}
		ends = append(ends, End{Link: l, Pos: pos, Func: fn, Mult: One()})
	}
	return sortEnds(ends), true
}

// entries computes the entry literals of the linker, apart from the
// functions they are in: their sites keep the SiteAmps the functions gave
// them.
func (c *computer) entries(order []*ast.FuncDecl) []EntryValue {
	if c.linker == nil {
		return nil
	}
	var out []EntryValue
	for _, lit := range c.linker.Entries() {
		var fd *ast.FuncDecl
		for _, d := range order {
			if d.Pos() <= lit.Pos() && lit.End() <= d.End() {
				fd = d
				break
			}
		}
		var in []*retrysite.Site
		for _, s := range c.sites {
			if s.Pos >= lit.Pos() && s.Pos < lit.End() {
				in = append(in, s)
			}
		}
		saved := c.amps
		c.amps = map[*retrysite.Site]*SiteAmp{}
		v := c.evalScope(fd, in, []ast.Node{lit.Body})
		c.amps = saved
		out = append(out, EntryValue{
			Lit:   lit,
			Pos:   c.pass.Fset.Position(lit.Pos()).String(),
			Func:  c.funcName(fd),
			Mult:  v.m,
			Chain: v.chain,
			Ends:  v.ends,
		})
	}
	sort.Slice(out, func(i, j int) bool { return srcpos.Compare(c.pass.Fset, out[i].Lit.Pos(), out[j].Lit.Pos()) < 0 })
	return out
}
