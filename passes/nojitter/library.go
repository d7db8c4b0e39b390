package nojitter

// This file reads the backoff configuration of retry-library sites:
// cenkalti/backoff, avast/retry-go, sethvargo/go-retry and
// go-retryablehttp, each of which can be set up to wait without jitter.

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/retrysite"
	"github.com/retrylint/retrylint/internal/suppress"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Families: the retryapi table's projects the pass reads.
const (
	famBackoff   = retryapi.ProjectBackoff
	famRetryGo   = retryapi.ProjectRetryGo
	famGoRetry   = retryapi.ProjectGoRetry
	famRetryable = retryapi.ProjectRetryableHTTP
)

// family names the project of the retry library a package path belongs
// to, or "".
func family(path string) string {
	if l := retryapi.LibraryOf(path); l != nil {
		return l.Project
	}
	return ""
}

// jitterOf returns the table's jitter fact of a library object.
func jitterOf(obj types.Object) retryapi.Jitter {
	if obj == nil || obj.Pkg() == nil {
		return 0
	}
	l := retryapi.LibraryOf(obj.Pkg().Path())
	if l == nil {
		return 0
	}
	return l.Jitter[obj.Name()]
}

// optionEffect returns what a library option call does, by the table.
func (l *libReader) optionEffect(o *ast.CallExpr) retryapi.Effect {
	f := l.c.callee(o)
	if f == nil || f.Pkg() == nil {
		return 0
	}
	opt, _ := retryapi.LibraryOf(f.Pkg().Path()).Option(f.Name())
	return opt.Effect
}

// verdict is what a configuration says about jitter.
type verdict struct {
	jitter kind     // fixed: no jitter; random: jitter; unknown: cannot tell
	at     ast.Node // where the configuration without jitter is
	what   string   // the subject of the message
}

var (
	cannotTell = verdict{jitter: unknown}
	jittered   = verdict{jitter: random}
)

func noJitter(at ast.Node, what string) verdict { return verdict{jitter: fixed, at: at, what: what} }

// either joins the verdicts of the values a variable may hold: jitter on
// any of them wins, then anything unknown, over none.
func either(vs []verdict) verdict {
	if len(vs) == 0 {
		return cannotTell
	}
	out := vs[0]
	for _, v := range vs[1:] {
		if join(out.jitter, v.jitter) != out.jitter || v.jitter == out.jitter && out.at == nil {
			out = v
		}
	}
	return out
}

// checkLibrary reports a retry-library site configured without jitter.
func (c *checker) checkLibrary(s *retrysite.Site) {
	var v verdict
	switch n := s.Node.(type) {
	case *ast.CallExpr:
		fn := c.callee(n)
		if fn == nil {
			return
		}
		cur, ok := astx.Find(c.insp.Root(), n)
		if !ok {
			return
		}
		lib := &libReader{c: c, fn: c.outerFunc(s)}
		switch family(typesx.PkgPath(fn)) {
		case famBackoff:
			v = lib.backoffSite(n, fn)
		case famRetryGo:
			v = lib.retryGoSite(n, fn)
		case famGoRetry:
			v = lib.goRetrySite(n, fn)
		case famRetryable:
			v = lib.retryableSite(cur, n, fn)
		default:
			return
		}
	case *ast.CompositeLit:
		lib := &libReader{c: c, fn: c.outerFunc(s)}
		v = lib.retryableLiteral(n)
	default:
		return
	}
	if v.jitter != fixed || v.at == nil || c.done[v.at.Pos()] {
		return
	}
	c.done[v.at.Pos()] = true
	d := analysis.Diagnostic{
		Pos: v.at.Pos(), End: v.at.End(), Category: catLibrary,
		Message: v.what + ": clients that failed together retry together; add jitter",
	}
	if v.at.Pos() < s.Node.Pos() || v.at.Pos() >= s.Node.End() {
		d.Related = []analysis.RelatedInformation{{Pos: s.Pos, Message: "retried by " + s.API}}
	}
	suppress.Report(c.pass, d)
}

// libReader reads configuration values in one function.
type libReader struct {
	c     *checker
	fn    ast.Node
	depth int
	busy  map[*types.Var]bool // variables being read: b = WithMaxRetries(3, b)
}

// neutral is what a variable being read gives its own reassignment: no
// jitter of its own, nowhere.
var neutral = verdict{jitter: fixed}

// each reads every value variable v may hold with read.
func (l *libReader) each(vals []ast.Expr, v *types.Var, read func(ast.Expr) verdict) verdict {
	if l.busy[v] {
		return neutral
	}
	if l.busy == nil {
		l.busy = map[*types.Var]bool{}
	}
	l.busy[v] = true
	defer delete(l.busy, v)
	var vs []verdict
	for _, val := range vals {
		vs = append(vs, read(val))
	}
	return either(vs)
}

func (l *libReader) info() *types.Info { return l.c.pass.TypesInfo }

// values returns the expressions a local variable may hold (its
// assignments in the function), or nil when x is no such variable or one
// whose address is taken.
func (l *libReader) values(x ast.Expr) ([]ast.Expr, *types.Var) {
	id, ok := ast.Unparen(x).(*ast.Ident)
	if !ok {
		return nil, nil
	}
	v, ok := l.info().Uses[id].(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return nil, nil
	}
	var vals []ast.Expr
	bad := false
	ast.Inspect(astx.FuncBody(l.fn), func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, lhs := range n.Lhs {
				if lid, ok := ast.Unparen(lhs).(*ast.Ident); ok && l.info().ObjectOf(lid) == v {
					if len(n.Lhs) != len(n.Rhs) {
						bad = true
					} else {
						vals = append(vals, n.Rhs[i])
					}
				}
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				if l.info().Defs[name] == v {
					if len(n.Values) != len(n.Names) {
						bad = true
					} else {
						vals = append(vals, n.Values[i])
					}
				}
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if uid, ok := ast.Unparen(n.X).(*ast.Ident); ok && l.info().Uses[uid] == v {
					bad = true
				}
			}
		}
		return true
	})
	if bad || len(vals) == 0 {
		return nil, nil
	}
	return vals, v
}

// fieldsSet returns the values assigned to v.field in the function.
func (l *libReader) fieldsSet(v *types.Var, field string) []*ast.AssignStmt {
	var out []*ast.AssignStmt
	ast.Inspect(astx.FuncBody(l.fn), func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for _, lhs := range as.Lhs {
			if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && sel.Sel.Name == field {
				if id, ok := ast.Unparen(sel.X).(*ast.Ident); ok && l.info().Uses[id] == v {
					out = append(out, as)
				}
			}
		}
		return true
	})
	return out
}

// rhsOf returns the value as assigns to its left-hand side whose field is
// field.
func rhsOf(as *ast.AssignStmt, field string) ast.Expr {
	for i, lhs := range as.Lhs {
		if sel, ok := ast.Unparen(lhs).(*ast.SelectorExpr); ok && sel.Sel.Name == field {
			return as.Rhs[i]
		}
	}
	return nil
}

// libFunc returns the library function or method a call invokes, with
// its family, or nil.
func (l *libReader) libFunc(x ast.Expr) (*types.Func, string) {
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return nil, ""
	}
	fn := l.c.callee(call)
	if fn == nil {
		return nil, ""
	}
	return fn, family(typesx.PkgPath(fn))
}

// libObject returns the library object (a function used as a value) x
// names, with its family.
func (l *libReader) libObject(x ast.Expr) (types.Object, string) {
	var id *ast.Ident
	switch e := ast.Unparen(x).(type) {
	case *ast.Ident:
		id = e
	case *ast.SelectorExpr:
		id = e.Sel
	default:
		return nil, ""
	}
	obj := l.info().Uses[id]
	if obj == nil || obj.Pkg() == nil {
		return nil, ""
	}
	return obj, family(typesx.TrimVendor(obj.Pkg().Path()))
}

func arg(call *ast.CallExpr, i int) ast.Expr {
	if i < len(call.Args) {
		return call.Args[i]
	}
	return nil
}

// options returns the option calls among args[from:], and false when some
// are passed in a way the pass cannot see (opts...).
func (l *libReader) options(call *ast.CallExpr, from int) ([]*ast.CallExpr, bool) {
	if call.Ellipsis.IsValid() {
		return nil, false
	}
	var out []*ast.CallExpr
	for i := from; i < len(call.Args); i++ {
		oc, ok := ast.Unparen(call.Args[i]).(*ast.CallExpr)
		if !ok {
			return out, false
		}
		out = append(out, oc)
	}
	return out, true
}

// ---- cenkalti/backoff -------------------------------------------------------

func (l *libReader) backoffSite(call *ast.CallExpr, fn *types.Func) verdict {
	if strings.HasSuffix(typesx.PkgPath(fn), "/v5") {
		opts, ok := l.options(call, 2)
		if !ok {
			return cannotTell
		}
		for _, o := range opts {
			if _, fam := l.libFunc(o); fam == famBackoff && l.optionEffect(o) == retryapi.SetsBackoff {
				return l.backoff(arg(o, 0))
			}
		}
		return jittered // the default ExponentialBackOff randomizes by half
	}
	return l.backoff(arg(call, 1))
}

// backoff reads a cenkalti/backoff BackOff expression.
func (l *libReader) backoff(x ast.Expr) verdict {
	if x == nil || l.depth > 8 {
		return cannotTell
	}
	l.depth++
	defer func() { l.depth-- }()
	x = ast.Unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = ast.Unparen(u.X)
	}
	switch e := x.(type) {
	case *ast.Ident:
		vals, v := l.values(e)
		if v == nil {
			return cannotTell
		}
		out := l.each(vals, v, l.backoff)
		// b.RandomizationFactor = r after construction decides.
		for _, as := range l.fieldsSet(v, "RandomizationFactor") {
			out = l.factor(rhsOf(as, "RandomizationFactor"), as)
		}
		return out
	case *ast.CallExpr:
		fn, fam := l.libFunc(e)
		if fam != famBackoff {
			return cannotTell
		}
		if jitterOf(fn) == retryapi.WrapsFirst {
			return l.backoff(arg(e, 0))
		}
		switch fn.Name() {
		case "NewExponentialBackOff":
			opts, ok := l.options(e, 0)
			if !ok {
				return cannotTell
			}
			for _, o := range opts {
				if _, fam := l.libFunc(o); fam == famBackoff && l.optionEffect(o) == retryapi.SetsFactor {
					return l.factor(arg(o, 0), o)
				}
			}
			return jittered
		case "NewConstantBackOff":
			return noJitter(e, "backoff.NewConstantBackOff waits "+l.c.fixedOf(arg(e, 0))+" between attempts")
		}
	case *ast.CompositeLit:
		n, ok := types.Unalias(l.info().TypeOf(e)).(*types.Named)
		if !ok || n.Obj().Pkg() == nil || family(typesx.TrimVendor(n.Obj().Pkg().Path())) != famBackoff {
			return cannotTell
		}
		switch n.Obj().Name() {
		case "ExponentialBackOff":
			for _, elt := range e.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "RandomizationFactor" {
						return l.factor(kv.Value, kv)
					}
				}
			}
			return noJitter(e, "backoff.ExponentialBackOff without a RandomizationFactor waits the same for every client")
		case "ConstantBackOff":
			var d ast.Expr
			for _, elt := range e.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok {
					if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Interval" {
						d = kv.Value
					}
				}
			}
			return noJitter(e, "backoff.ConstantBackOff waits "+l.c.fixedOf(d)+" between attempts")
		}
	}
	return cannotTell
}

// factor judges a RandomizationFactor value set at at.
func (l *libReader) factor(x ast.Expr, at ast.Node) verdict {
	tv, ok := l.info().Types[x]
	if !ok || tv.Value == nil {
		return cannotTell
	}
	if tv.Value.String() == "0" {
		return noJitter(at, "backoff.ExponentialBackOff with RandomizationFactor 0 waits the same for every client")
	}
	return jittered
}

// fixedOf says how long a fixed wait is: "a fixed 1s", or "the same d".
func (c *checker) fixedOf(x ast.Expr) string {
	if x == nil {
		return "a fixed time"
	}
	if v, ok := c.env.ConstDuration(x); ok && v >= 0 {
		return "a fixed " + time.Duration(v).String()
	}
	if t := types.ExprString(x); len(t) <= 32 {
		return "the same " + t
	}
	return "a fixed time"
}

// ---- avast/retry-go ---------------------------------------------------------

func (l *libReader) retryGoSite(call *ast.CallExpr, fn *types.Func) verdict {
	if typesx.RecvName(fn) == "" {
		if fn.Name() != "Do" && fn.Name() != "DoWithData" {
			return cannotTell
		}
		return l.retryGoOptions(call, 1)
	}
	// v5: retry.New(opts...).Do(f), or r := retry.New(...); r.Do(f).
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return cannotTell
	}
	x := sel.X
	if vals, v := l.values(x); v != nil {
		if len(vals) != 1 {
			return cannotTell
		}
		x = vals[0]
	}
	nc, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return cannotTell
	}
	if f, fam := l.libFunc(nc); fam != famRetryGo || (f.Name() != "New" && f.Name() != "NewWithData") {
		return cannotTell
	}
	return l.retryGoOptions(nc, 0)
}

func (l *libReader) retryGoOptions(call *ast.CallExpr, from int) verdict {
	opts, ok := l.options(call, from)
	if !ok {
		return cannotTell
	}
	out := jittered // the default: BackOffDelay combined with RandomDelay
	for _, o := range opts {
		_, fam := l.libFunc(o)
		if fam != famRetryGo || l.optionEffect(o) != retryapi.SetsBackoff {
			continue
		}
		out = l.delayType(arg(o, 0), o)
	}
	return out
}

// delayType judges a retry-go DelayTypeFunc given by the option at.
func (l *libReader) delayType(x ast.Expr, at *ast.CallExpr) verdict {
	if x == nil {
		return cannotTell
	}
	what := "retry.DelayType(" + types.ExprString(x) + ") has no random delay"
	if len(what) > 80 {
		what = "retry.DelayType has no random delay"
	}
	switch l.delayKind(x) {
	case fixed:
		return noJitter(at, what)
	case random:
		return jittered
	}
	return cannotTell
}

// delayKind says whether a retry-go delay function has a random term.
func (l *libReader) delayKind(x ast.Expr) kind {
	if obj, fam := l.libObject(x); fam == famRetryGo {
		switch jitterOf(obj) {
		case retryapi.NoJitter:
			return fixed
		case retryapi.Jittered:
			return random
		}
		return unknown
	}
	switch e := ast.Unparen(x).(type) {
	case *ast.CallExpr:
		if f, fam := l.libFunc(e); fam == famRetryGo && jitterOf(f) == retryapi.Combines {
			k := fixed
			for _, a := range e.Args {
				k = join(k, l.delayKind(a))
			}
			return k
		}
	case *ast.FuncLit:
		return l.c.env.LiteralSummary(e)
	case *ast.Ident:
		if fn, ok := l.info().Uses[e].(*types.Func); ok {
			return l.c.env.Summary(fn)
		}
	}
	return unknown
}

// ---- sethvargo/go-retry -----------------------------------------------------

func (l *libReader) goRetrySite(call *ast.CallExpr, fn *types.Func) verdict {
	switch fn.Name() {
	case "Do", "DoValue":
		return l.goRetry(arg(call, 1))
	case "Constant", "Exponential", "Fibonacci":
		return noJitter(call.Fun, "retry."+fn.Name()+" backs off without jitter")
	}
	return cannotTell
}

// goRetry reads a go-retry Backoff expression.
func (l *libReader) goRetry(x ast.Expr) verdict {
	if x == nil || l.depth > 8 {
		return cannotTell
	}
	l.depth++
	defer func() { l.depth-- }()
	if vals, v := l.values(x); v != nil {
		return l.each(vals, v, l.goRetry)
	}
	call, ok := ast.Unparen(x).(*ast.CallExpr)
	if !ok {
		return cannotTell
	}
	fn, fam := l.libFunc(call)
	if fam != famGoRetry {
		return cannotTell
	}
	switch jitterOf(fn) {
	case retryapi.NoJitter:
		return noJitter(call, "retry."+fn.Name()+" is not wrapped in WithJitter or WithJitterPercent, so it backs off without jitter")
	case retryapi.Jittered:
		return jittered
	case retryapi.Wraps:
		return l.goRetry(arg(call, len(call.Args)-1))
	}
	return cannotTell
}

// ---- go-retryablehttp -------------------------------------------------------

func (l *libReader) retryableSite(cur inspector.Cursor, call *ast.CallExpr, fn *types.Func) verdict {
	switch {
	case fn.Name() == "NewClient" && typesx.RecvName(fn) == "":
		lhs := assignedTo(cur)
		if lhs == nil {
			// Not kept: nobody can set its Backoff. Used in place
			// (NewClient().StandardClient()) it keeps the default;
			// handed on, it may get another.
			if _, ok := cur.Parent().Node().(*ast.SelectorExpr); ok {
				return noJitter(call, "retryablehttp.NewClient backs off with DefaultBackoff, which has no jitter")
			}
			return cannotTell
		}
		key := types.ExprString(lhs)
		var set ast.Expr
		ast.Inspect(astx.FuncBody(l.fn), func(n ast.Node) bool {
			as, ok := n.(*ast.AssignStmt)
			if !ok || len(as.Lhs) != len(as.Rhs) {
				return true
			}
			for i, x := range as.Lhs {
				if sel, ok := ast.Unparen(x).(*ast.SelectorExpr); ok && sel.Sel.Name == "Backoff" && types.ExprString(sel.X) == key {
					set = as.Rhs[i]
				}
			}
			return true
		})
		if set != nil {
			return l.retryableBackoff(set)
		}
		if l.escapes(lhs) {
			return cannotTell // another function may set its Backoff
		}
		return noJitter(call, "retryablehttp.NewClient backs off with DefaultBackoff, which has no jitter")
	case typesx.RecvName(fn) == "" && (fn.Name() == "Get" || fn.Name() == "Head" || fn.Name() == "Post" || fn.Name() == "PostForm"):
		return noJitter(call.Fun, "retryablehttp."+fn.Name()+" uses the default client, whose DefaultBackoff has no jitter")
	}
	return cannotTell
}

func (l *libReader) retryableLiteral(lit *ast.CompositeLit) verdict {
	for _, elt := range lit.Elts {
		if kv, ok := elt.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Backoff" {
				return l.retryableBackoff(kv.Value)
			}
		}
	}
	return cannotTell
}

// retryableBackoff judges a value given to a retryablehttp Client's
// Backoff.
func (l *libReader) retryableBackoff(x ast.Expr) verdict {
	if obj, fam := l.libObject(x); fam == famRetryable {
		switch jitterOf(obj) {
		case retryapi.NoJitter:
			return noJitter(x, "retryablehttp."+obj.Name()+" has no jitter")
		case retryapi.Jittered:
			return jittered
		}
		return cannotTell
	}
	var k kind = unknown
	switch e := ast.Unparen(x).(type) {
	case *ast.FuncLit:
		k = l.c.env.LiteralSummary(e)
	case *ast.Ident:
		if fn, ok := l.info().Uses[e].(*types.Func); ok {
			k = l.c.env.Summary(fn)
		}
	}
	switch k {
	case fixed:
		return noJitter(x, "the retryablehttp Backoff "+shortText(x)+" has no random term")
	case random:
		return jittered
	}
	return cannotTell
}

func shortText(x ast.Expr) string {
	if _, ok := ast.Unparen(x).(*ast.FuncLit); ok {
		return "function"
	}
	t := types.ExprString(x)
	if len(t) > 32 {
		return "function"
	}
	return t
}

// assignedTo returns what the value at cur is assigned to, or nil.
func assignedTo(cur inspector.Cursor) ast.Expr {
	switch p := cur.Parent().Node().(type) {
	case *ast.AssignStmt:
		if len(p.Lhs) == len(p.Rhs) {
			for i, r := range p.Rhs {
				if r == cur.Node() {
					return p.Lhs[i]
				}
			}
		}
	case *ast.ValueSpec:
		if len(p.Names) == len(p.Values) {
			for i, r := range p.Values {
				if r == cur.Node() {
					return p.Names[i]
				}
			}
		}
	}
	return nil
}

// escapes reports whether the client that lhs names can be configured
// elsewhere: it is not a local variable, or the function returns it,
// stores it, or hands it to code other than the library's.
func (l *libReader) escapes(lhs ast.Expr) bool {
	id, ok := ast.Unparen(lhs).(*ast.Ident)
	if !ok {
		return true
	}
	v, ok := l.info().ObjectOf(id).(*types.Var)
	if !ok || v.Pkg() == nil || v.Parent() == v.Pkg().Scope() {
		return true
	}
	cur, ok := astx.Find(l.c.insp.Root(), l.fn)
	if !ok {
		return true
	}
	esc := false
	for u := range cur.Preorder((*ast.Ident)(nil)) {
		if l.info().Uses[u.Node().(*ast.Ident)] != v {
			continue
		}
		p := u.Parent()
		switch pn := p.Node().(type) {
		case *ast.SelectorExpr:
			continue // c.RetryMax = 3, c.StandardClient(), c.Do(req)
		case *ast.CallExpr:
			if f := l.c.callee(pn); f != nil && family(typesx.PkgPath(f)) == famRetryable {
				continue
			}
			esc = true
		default:
			esc = true // returned, stored, sent, taken the address of
		}
	}
	return esc
}
