package nonidempotent

import (
	_ "embed"
	"fmt"
	"go/ast"
	"go/build"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/analysis/passes/inspect"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/docsection"
	"github.com/retrylint/retrylint/internal/fixutil"
	"github.com/retrylint/retrylint/internal/flagx"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/internal/typesx"
)

//go:embed doc.go
var doc string

// Analyzer reports retried POST and PATCH requests without a stable
// idempotency key. Its settings are bound to its flags; use New for an
// analyzer with settings of its own.
var Analyzer = newFlagged()

// DefaultHeaders is the default list of idempotency-key header names.
const DefaultHeaders = "Idempotency-Key,X-Idempotency-Key,PayPal-Request-Id,Cko-Idempotency-Key,X-GCS-Idempotence-Key,X-Qonto-Idempotency-Key,Repeatability-Request-ID"

// Config holds the pass's settings.
type Config struct {
	// Headers are the names of the headers that carry an idempotency key,
	// matched case-insensitively; fixes set the first. Empty means
	// DefaultHeaders.
	Headers []string
}

// New returns the pass with settings cfg, requiring the retry-site
// analyzer site (retrysite.Analyzer, or one made by retrysite.New). It
// reports an error at run time when cfg names an invalid header.
func New(site *analysis.Analyzer, cfg *Config) *analysis.Analyzer {
	return &analysis.Analyzer{
		Name:      "nonidempotent",
		Doc:       docsection.Must(doc, "nonidempotent"),
		URL:       "https://pkg.go.dev/github.com/retrylint/retrylint/passes/nonidempotent",
		Requires:  []*analysis.Analyzer{inspect.Analyzer, site, suppress.Analyzer},
		FactTypes: []analysis.Fact{new(KeyFact)},
		Run: func(pass *analysis.Pass) (any, error) {
			list := flagx.Split(DefaultHeaders)
			if len(cfg.Headers) > 0 {
				list = flagx.Split(strings.Join(cfg.Headers, ","))
			}
			h, err := parseHeaders(list)
			if err != nil {
				return nil, err
			}
			return run(pass, h)
		},
	}
}

func newFlagged() *analysis.Analyzer {
	cfg := &Config{Headers: flagx.Split(DefaultHeaders)}
	a := New(retrysite.Analyzer, cfg)
	a.Flags.Var(&flagx.List{Names: &cfg.Headers, Check: checkHeaders}, "headers",
		"comma-separated names of the headers that carry an idempotency key (matched case-insensitively; the first is the one fixes set)")
	return a
}

// Diagnostic categories.
const (
	catNoKey      = "no_idempotency_key"
	catPerAttempt = "key_per_attempt"
)

// headers are the idempotency-key header names.
type headers struct {
	names []string        // as given, in order, without repeats
	set   map[string]bool // lower case
}

// parseHeaders checks the header names and drops the repeats.
func parseHeaders(list []string) (*headers, error) {
	h := &headers{set: make(map[string]bool)}
	for _, name := range list {
		for _, r := range name {
			if r <= ' ' || r >= 0x7f || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
				return nil, fmt.Errorf("bad header name %q", name)
			}
		}
		if !h.set[strings.ToLower(name)] {
			h.names = append(h.names, name)
		}
		h.set[strings.ToLower(name)] = true
	}
	if len(h.names) == 0 {
		return nil, fmt.Errorf("no header names")
	}
	return h, nil
}

// checkHeaders is the -headers flag's check.
func checkHeaders(list []string) error {
	_, err := parseHeaders(list)
	return err
}

// isKeyHeader reports whether name is one of the idempotency-key headers.
func (c *checker) isKeyHeader(name string) bool { return c.headers.set[strings.ToLower(name)] }

// KeyFact describes what a function does about idempotency keys. Indices
// count the parameters from 0 (the receiver is not counted).
type KeyFact struct {
	Sets      []int // parameters (requests or header maps) on which it sets an idempotency-key header
	Fresh     []int // those of Sets whose key it generates itself, on every call
	Dynamic   []int // parameters on which it sets headers whose names are not constants
	Retries   []int // request parameters it sends inside a retry site or through a retrying client, whatever their method
	Generates bool  // its result is newly generated on every call (uuid, crypto/rand, time.Now)
	// RetriesWhen are the pairs {request, flag} of parameters such that
	// it sends the request as Retries says when the boolean flag is
	// true, and sends it once only where the flag is false: do(req,
	// retry bool) { if !retry { return c.plain.Do(req) }; ... retrying
	// client }. A call with the flag true retries the request.
	RetriesWhen [][2]int
	// Builds are the string parameters whose value is the method of the
	// request it returns (a request-building wrapper: NewRequest(ctx,
	// method, path, body)), which carries no idempotency key and no
	// header it cannot name.
	Builds []int
	// Resty: it returns a new resty request from a client's R(), with no
	// idempotency key and no header it cannot name; RestyRetries: that
	// client retries (SetRetryCount).
	Resty, RestyRetries bool
	// RecvRetries: a method of a request holder (a struct type with one
	// request field) that sends the receiver's request inside a retry
	// site or through a retrying client, whatever its method;
	// RecvHeaders: one that sets an idempotency key, or headers it cannot
	// name, on it.
	RecvRetries, RecvHeaders bool
	// SendsMethod are the string parameters whose value is the method of
	// a request it builds and sends inside a retry site of its own, with
	// no idempotency key and no header it cannot name, and that it reads
	// nowhere else: executeMethod(ctx, method, metadata) retries whatever
	// method it is given.
	SendsMethod []int
	// Sends are the string parameters whose value is the method of a
	// request it builds and sends once, not retrying it itself, with no
	// idempotency key and no header it cannot name, and that it reads
	// nowhere else: call(ctx, method, path, body) sends whatever method
	// it is given, and a caller that retries the call retries the request.
	Sends []int
	// MethodField, when set, is the string field of the struct
	// parameters that Builds, SendsMethod and Sends name which is the
	// method: c.do(ctx, CallOptions{Method: "POST", Path: path}).
	MethodField string
	// Carries are the header-map parameters whose headers the request
	// of Builds, SendsMethod or Sends carries (copied onto it): those
	// hold for a call whose arguments there may hold no idempotency key
	// (nil, a literal without one, a field no code gives one; mapKeys),
	// and for no other.
	Carries []int
	// Copies are the pairs {dst, src} of parameters such that it copies
	// the headers of the header map src onto dst (a request or a header
	// map), which it gives no other header it cannot name:
	// copyHeader(dst, src http.Header). dst gets a key where src holds one.
	Copies [][2]int
	// Converts, on a method of a request description (a struct type of
	// the user's code that describes a request, see describe.go), names
	// the receiver's string field that is the method of the request the
	// method returns: func (r *Request) toHTTP() (*http.Request, error)
	// builds it with r.Method, carrying the headers of r and setting no
	// idempotency key and no header it cannot name.
	Converts string
}

func (*KeyFact) AFact() {}

func (f *KeyFact) String() string {
	var parts []string
	if len(f.Sets) > 0 {
		parts = append(parts, fmt.Sprintf("sets=%v", f.Sets))
	}
	if len(f.Fresh) > 0 {
		parts = append(parts, fmt.Sprintf("fresh=%v", f.Fresh))
	}
	if len(f.Dynamic) > 0 {
		parts = append(parts, fmt.Sprintf("dynamic=%v", f.Dynamic))
	}
	if len(f.Retries) > 0 {
		parts = append(parts, fmt.Sprintf("retries=%v", f.Retries))
	}
	if len(f.RetriesWhen) > 0 {
		parts = append(parts, fmt.Sprintf("retriesWhen=%v", f.RetriesWhen))
	}
	if f.Generates {
		parts = append(parts, "generates")
	}
	if len(f.Builds) > 0 {
		parts = append(parts, fmt.Sprintf("builds=%v", f.Builds))
	}
	if f.RecvRetries {
		parts = append(parts, "recvRetries")
	}
	if len(f.SendsMethod) > 0 {
		parts = append(parts, fmt.Sprintf("sendsMethod=%v", f.SendsMethod))
	}
	if len(f.Sends) > 0 {
		parts = append(parts, fmt.Sprintf("sends=%v", f.Sends))
	}
	if f.MethodField != "" {
		parts = append(parts, "field="+f.MethodField)
	}
	if len(f.Carries) > 0 {
		parts = append(parts, fmt.Sprintf("carries=%v", f.Carries))
	}
	if len(f.Copies) > 0 {
		parts = append(parts, fmt.Sprintf("copies=%v", f.Copies))
	}
	if f.RecvHeaders {
		parts = append(parts, "recvHeaders")
	}
	if f.Converts != "" {
		parts = append(parts, "converts="+f.Converts)
	}
	switch {
	case f.RestyRetries:
		parts = append(parts, "resty(retries)")
	case f.Resty:
		parts = append(parts, "resty")
	}
	return "idemKey(" + strings.Join(parts, ", ") + ")"
}

func (f *KeyFact) empty() bool {
	return len(f.Sets) == 0 && len(f.Dynamic) == 0 && len(f.Retries) == 0 && len(f.RetriesWhen) == 0 && !f.Generates &&
		len(f.Builds) == 0 && !f.Resty && !f.RecvRetries && !f.RecvHeaders && len(f.SendsMethod) == 0 && len(f.Sends) == 0 && f.Converts == "" && len(f.Copies) == 0
}

// checker holds the state of one run over a package.
type checker struct {
	pass    *analysis.Pass
	insp    *inspector.Inspector
	find    *astx.Finder
	sites   []*retrysite.Site
	facts   *retrysite.Sites                     // whose facts the package reads
	regions map[*ast.BlockStmt][]*retrysite.Site // bodies run once per attempt
	cross   map[*ast.BlockStmt][]crossRegion     // bodies of functions an attempt calls
	decls   map[*types.Func]*ast.FuncDecl        // the package's functions, built on first use
	impls   map[*types.Named]types.Type          // the one implementation of an interface, or nil
	local   map[*types.Func]*KeyFact             // facts of this package's functions
	pkgVals *valueIndex                          // values stored in fields and package variables
	headers *headers                             // the idempotency-key header names
	done    map[token.Pos]bool                   // reported positions
	claims  fixutil.Claims                       // names the fixes declare
	// fieldKeyIndex holds, per field of a header map, the places that set
	// a key-header name on it; built on first use.
	fieldKeyIndex map[types.Object][]ast.Node
	// generates caches mayGenerate per body while the package's facts
	// keep who generates (exportFacts clears it when one changes).
	generates map[*ast.BlockStmt]bool
	// descs caches descField per named type while the package's facts
	// keep who converts (exportFacts clears it when one changes); hooks
	// caches hookClean per named function type.
	descs      map[*types.Named]*types.Var
	hooks      map[*types.Named]bool
	ifaces     map[implParam]bool              // the verdicts of implsClean
	implsOf    map[*types.Func][]*ast.FuncDecl // the implementations of the package's interface methods
	concrete   *[]types.Type                   // the package's types that may implement an interface
	ifaceOrder []implParam                     // the interface methods judged since the outermost judgement began
	// carrying, while a function's fact is computed, holds its header-map
	// parameters that mapKeys judges as holding no key, recording in
	// carried those it met: the fact then says the request carries them
	// (KeyFact.Carries, Copies), and its callers judge their arguments.
	carrying, carried map[types.Object]bool
}

func run(pass *analysis.Pass, headers *headers) (any, error) {
	if isStd(pass) {
		return nil, nil // the standard library neither retries nor sets keys
	}
	c := &checker{
		headers: headers,
		pass:    pass,
		insp:    pass.ResultOf[inspect.Analyzer].(*inspector.Inspector),
		local:   make(map[*types.Func]*KeyFact),
		done:    make(map[token.Pos]bool),
		claims:  fixutil.Claims{},
	}
	c.find = astx.NewFinder(c.insp)
	c.facts = retrysite.Of(pass)
	c.sites = c.facts.List
	c.findRegions()
	c.exportFacts()
	if !c.relevant() {
		return nil, nil
	}
	c.findCrossRegions()
	for cur := range c.insp.Root().Preorder((*ast.CallExpr)(nil), (*ast.CompositeLit)(nil)) {
		if r := c.requestAt(cur); r != nil {
			c.check(r)
		}
	}
	return nil, nil
}

// isStd reports whether the package is part of the standard library: its
// files are below GOROOT/src.
func isStd(pass *analysis.Pass) bool {
	if len(pass.Files) == 0 || build.Default.GOROOT == "" {
		return false
	}
	tf := pass.Fset.File(pass.Files[0].Pos())
	if tf == nil {
		return false
	}
	return strings.HasPrefix(filepath.ToSlash(tf.Name()), filepath.ToSlash(filepath.Join(build.Default.GOROOT, "src"))+"/")
}

// relevant reports whether the package can send HTTP requests at all.
func (c *checker) relevant() bool {
	for _, p := range c.pass.Pkg.Imports() {
		if path := typesx.TrimVendor(p.Path()); path == "net/http" || isRetryable(path) || isResty(path) {
			return true
		}
	}
	return false
}

// findRegions indexes the code each retry site runs once per attempt
// (Site.PerAttempt: loop bodies, operation literals, and the bodies of the
// local closures they call).
func (c *checker) findRegions() {
	c.regions = make(map[*ast.BlockStmt][]*retrysite.Site)
	add := func(b *ast.BlockStmt, s *retrysite.Site) {
		if !slices.Contains(c.regions[b], s) {
			c.regions[b] = append(c.regions[b], s)
		}
	}
	for _, s := range c.sites {
		if s.Exempt != "" {
			continue
		}
		for _, b := range s.PerAttempt() {
			add(b, s)
		}
	}
}

// region is a retry site whose per-attempt code holds a node.
type region struct {
	site *retrysite.Site
	body *ast.BlockStmt
	// via, when not nil, is the call of the site's per-attempt code that
	// leads to the function whose body is body: the site is in another
	// function.
	via *ast.CallExpr
}

// regionsOf returns the retry sites that run n once per attempt, innermost
// first: those of n's function and, unless own is set, those whose
// attempts call n's function. A function literal is a boundary unless it
// is itself the operation of a retry site.
func (c *checker) regionsOf(n ast.Node, own bool) []region {
	cur, ok := c.find.Find(n)
	if !ok {
		return nil
	}
	var out []region
	for p := cur.Parent(); p.Valid(); p = p.Parent() {
		switch x := p.Node().(type) {
		case *ast.BlockStmt:
			for _, s := range c.regions[x] {
				out = append(out, region{site: s, body: x})
			}
			if !own {
				for _, cr := range c.cross[x] {
					out = append(out, region{site: cr.site, body: x, via: cr.via})
				}
			}
		case *ast.FuncLit:
			if len(c.regions[x.Body]) == 0 {
				return out
			}
		case *ast.FuncDecl:
			return out
		}
	}
	return out
}

// relatedText says what retries a request.
func relatedText(s *retrysite.Site) string {
	if s.Kind == retrysite.Loop {
		return "retried by this loop"
	}
	return "retried by " + s.API
}

// regionRelated is the related information of a request retried by reg:
// the retry site and, when the site is in another function, the call of
// its attempt that leads to the request.
func (c *checker) regionRelated(reg region) []analysis.RelatedInformation {
	rel := []analysis.RelatedInformation{{Pos: reg.site.Pos, Message: relatedText(reg.site)}}
	if reg.via != nil {
		name := types.ExprString(reg.via.Fun)
		if fn := c.callee(reg.via); fn != nil {
			name = fn.Name()
		}
		rel = append(rel, analysis.RelatedInformation{Pos: reg.via.Pos(), End: reg.via.End(),
			Message: "each attempt calls " + name + " here"})
	}
	return rel
}

// check judges one request and reports it.
func (c *checker) check(r *request) {
	if c.done[r.pos] {
		return
	}
	rt := c.retried(r)
	if rt == nil || r.dynamic || r.escapes || r.returned {
		return
	}
	if len(r.keys) > 0 {
		if len(rt.regions) > 0 {
			c.checkPerAttempt(r, rt)
		}
		return
	}
	c.done[r.pos] = true
	var msg string
	if rt.client != nil {
		msg = fmt.Sprintf("%s is retried by %s without an idempotency key: a retry after a lost response can apply it twice", r.method, rt.client.desc)
	} else {
		msg = fmt.Sprintf("%s is retried without an idempotency key: a retry after a lost response can apply it twice", r.method)
	}
	d := analysis.Diagnostic{Pos: r.pos, End: r.end, Category: catNoKey, Message: msg}
	if len(rt.regions) > 0 {
		d.Related = c.regionRelated(rt.regions[0])
	}
	if rt.client != nil && rt.client.at != nil {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: rt.client.at.Pos(), End: rt.client.at.End(), Message: rt.client.related})
	}
	if fix := c.keyFix(r, rt); fix != nil {
		d.SuggestedFixes = []analysis.SuggestedFix{*fix}
	} else if why := c.whyNoFix(r); why != "" {
		d.Related = append(d.Related, analysis.RelatedInformation{Pos: r.pos, End: r.end, Message: why})
	}
	suppress.Report(c.pass, d)
}

// retry says how a request is retried: by the sites whose per-attempt code
// sends it, or by a retrying client.
type retry struct {
	send    *ast.CallExpr
	regions []region // innermost first; empty when only the client retries
	client  *clientInfo
}

// cross reports whether a retry site in another function retries the
// request: a key made before it cannot reach the request, so there is no
// fix.
func (rt *retry) cross() bool {
	for _, reg := range rt.regions {
		if reg.via != nil {
			return true
		}
	}
	return false
}

// retried returns how r is retried, or nil. A send inside a retry site's
// per-attempt code wins over a retrying client.
func (c *checker) retried(r *request) *retry {
	var byClient *retry
	for _, send := range r.sends {
		regs := c.regionsOf(send, false)
		regs = slices.DeleteFunc(regs, func(reg region) bool {
			if reg.via != nil {
				return c.failover(reg.site, reg.via.Args)
			}
			return c.failover(reg.site, r.ctorArgs())
		})
		if len(regs) > 0 {
			return &retry{send: send, regions: regs}
		}
		if byClient == nil {
			if ci := c.sendClient(r, send); ci != nil {
				byClient = &retry{send: send, client: ci}
			}
		}
	}
	return byClient
}

// failover reports whether a counted loop sends a different request on
// each iteration: the request's construction (or the call that leads to
// it, args) uses the loop counter, as in urls[i] (failover over a list),
// directly or through variables set in the loop.
func (c *checker) failover(s *retrysite.Site, args []ast.Expr) bool {
	var counter types.Object
	switch n := s.Node.(type) {
	case *ast.ForStmt:
		switch post := n.Post.(type) {
		case *ast.IncDecStmt:
			counter = c.objOf(post.X)
		case *ast.AssignStmt:
			if len(post.Lhs) == 1 {
				counter = c.objOf(post.Lhs[0])
			}
		}
	case *ast.RangeStmt:
		if n.Key != nil {
			counter = c.objOf(n.Key)
		}
	}
	if counter == nil {
		return false
	}
	seen := make(map[types.Object]bool)
	var uses func(n ast.Node, depth int) bool
	uses = func(n ast.Node, depth int) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || found {
				return !found
			}
			obj := c.pass.TypesInfo.Uses[id]
			switch {
			case obj == counter:
				found = true
			case obj != nil && !seen[obj] && depth < 4 && s.Node.Pos() <= obj.Pos() && obj.Pos() < s.Node.End():
				seen[obj] = true
				for _, v := range c.values().vals(obj) {
					found = found || uses(v, depth+1)
				}
			}
			return !found
		})
		return found
	}
	for _, a := range args {
		if uses(a, 0) {
			return true
		}
	}
	return false
}

// checkPerAttempt reports key generators evaluated inside a retry site
// that sends the request: each attempt then carries a new key.
func (c *checker) checkPerAttempt(r *request, rt *retry) {
	for _, k := range r.keys {
		var gens []*ast.CallExpr
		if k.helper != nil {
			gens = []*ast.CallExpr{k.helper}
		} else if k.value != nil {
			gens = c.generatorsOf(k.value, r.fn)
		}
		for _, g := range gens {
			if c.done[g.Pos()] {
				continue
			}
			reg, ok := c.regionHolding(g, rt.regions)
			if !ok || c.lazyInit(g, reg.body) {
				continue
			}
			c.done[g.Pos()] = true
			name := c.genName(g)
			msg := fmt.Sprintf("idempotency key from %s is generated anew on every attempt: the server cannot tell a retry from a new %s, so it can apply it twice", name, r.method)
			if k.helper != nil {
				msg = fmt.Sprintf("%s sets an idempotency key generated anew on every attempt: the server cannot tell a retry from a new %s, so it can apply it twice", name, r.method)
			}
			d := analysis.Diagnostic{
				Pos: g.Pos(), End: g.End(), Category: catPerAttempt, Message: msg,
				Related: c.regionRelated(reg),
			}
			if k.helper == nil && !rt.cross() {
				if fix := c.hoistFix(r, rt, k, g); fix != nil {
					d.SuggestedFixes = []analysis.SuggestedFix{*fix}
				}
			}
			suppress.Report(c.pass, d)
		}
	}
}

// lazyInit reports whether the generator call g assigns a variable only
// when a test of that variable allows it, inside the retried body: if key
// == "" { key = uuid.NewString() } makes the key once.
func (c *checker) lazyInit(g *ast.CallExpr, body *ast.BlockStmt) bool {
	as, ok := c.stmtOf(g).(*ast.AssignStmt)
	if !ok {
		return false
	}
	var vars []types.Object
	for _, l := range as.Lhs {
		if v := c.varOf(l); v != nil {
			vars = append(vars, v)
		}
	}
	cur, ok := c.find.Find(as)
	if !ok {
		return false
	}
	for p := cur.Parent(); p.Valid() && p.Node() != body; p = p.Parent() {
		ifs, ok := p.Node().(*ast.IfStmt)
		if !ok {
			continue
		}
		for _, v := range vars {
			if typesx.Refers(c.pass.TypesInfo, ifs.Cond, v) {
				return true
			}
		}
	}
	return false
}

// regionHolding returns the first of regs whose per-attempt code holds n.
func (c *checker) regionHolding(n ast.Node, regs []region) (region, bool) {
	for _, reg := range c.regionsOf(n, false) {
		for _, r := range regs {
			if r.site == reg.site {
				return r, true
			}
		}
	}
	return region{}, false
}

// genName names a generator call for messages: uuid.NewString, rand.Text,
// time.Now, or the helper's name.
func (c *checker) genName(call *ast.CallExpr) string {
	fn := c.callee(call)
	if fn == nil {
		return types.ExprString(call.Fun)
	}
	if fn.Pkg() == nil {
		return fn.Name()
	}
	if recv := typesx.RecvName(fn); recv != "" {
		return recv + "." + fn.Name()
	}
	return fn.Pkg().Name() + "." + fn.Name()
}
