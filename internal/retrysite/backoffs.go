package retrysite

// This file reads the backoff a retry library is configured with: the one
// reading of a library's backoff, which gives a library site its Backoff
// (the audit's column), says where the code sets it (Site.BackoffAt: the
// nojitter pass reports a configuration without jitter there) and what
// it is, in words (Site.BackoffNote). It goes by the retryapi table's
// facts of the libraries' constructors, options, delay functions and
// types; the code around them is followed through the variable index
// (every value a variable or field of the package is given), through the
// returns of the package's own functions, and through what durkind says
// of a delay function's result.

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"time"

	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/durkind"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// reading is what the code says of a backoff: the wait it makes, the
// node that says so and a phrase for messages. ok is false when the code
// does not say (a backoff of another package, a parameter, a value the
// reading cannot follow).
type reading struct {
	b    Backoff
	at   ast.Node
	note string
	ok   bool
}

// maxReadDepth bounds how far a reading follows values through variables,
// wrappers and functions.
const maxReadDepth = 8

type backoffReader struct {
	a     *analyzer
	depth int
	busy  map[types.Object]bool // variables and functions being read (b = WithMaxRetries(b, 3))
}

func (a *analyzer) reader() *backoffReader {
	return &backoffReader{a: a, busy: map[types.Object]bool{}}
}

// join joins the readings of the values one variable may hold: jitter on
// any of them wins (the reading is then no configuration without
// jitter), then a value that cannot be read; the waits grow if any grows.
func join(rs []reading) reading {
	if len(rs) == 0 {
		return reading{}
	}
	out := rs[0]
	for _, r := range rs[1:] {
		switch {
		case !out.ok:
		case !r.ok:
			out = r
		case r.b.Jitter && !out.b.Jitter:
			d := max(out.b.Delay, r.b.Delay)
			out = r
			out.b.Delay = d
		default:
			out.b.Delay = max(out.b.Delay, r.b.Delay)
		}
	}
	return out
}

// value reads a backoff value (cenkalti's BackOff, go-retry's Backoff, a
// k8s wait.Backoff, a gax.Backoff) or a library's delay function
// (retry-go's FixedDelay, retryablehttp's DefaultBackoff).
func (r *backoffReader) value(x ast.Expr) reading {
	if x == nil || r.depth > maxReadDepth {
		return reading{}
	}
	r.depth++
	defer func() { r.depth-- }()
	a := r.a
	x = unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = unparen(u.X)
	}
	if f, ok := a.objOf(x).(*types.Func); ok {
		if lib := libraryOf(f); lib != nil {
			return r.table(lib, f, x, nil) // a delay function named as a value
		}
	}
	switch e := x.(type) {
	case *ast.Ident, *ast.SelectorExpr:
		if v, ok := a.objOf(e).(*types.Var); ok && (v.Pkg() == a.pass.Pkg || v.IsField()) {
			if k8s, ok := retryapi.K8sBackoffWaits[objectName(v)]; ok {
				return reading{b: Backoff{Delay: Delay(k8s.Delay), Jitter: k8s.Jitter}, at: x, ok: true}
			}
			return r.variable(v)
		}
		if v, ok := a.objOf(e).(*types.Var); ok {
			if k8s, ok := retryapi.K8sBackoffWaits[objectName(v)]; ok {
				return reading{b: Backoff{Delay: Delay(k8s.Delay), Jitter: k8s.Jitter}, at: x, ok: true}
			}
		}
	case *ast.CallExpr:
		fn := a.callee(e)
		if fn == nil {
			break
		}
		if lib := libraryOf(fn); lib != nil {
			return r.libraryCall(lib, fn, e)
		}
		if fn.Pkg() == a.pass.Pkg {
			return r.returns(fn) // a constructor of the package: what it returns
		}
	case *ast.CompositeLit:
		return r.literal(e)
	}
	// The value's type, when the table says all its values alike.
	t := a.pass.TypesInfo.TypeOf(x)
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := types.Unalias(t).(*types.Named); ok && n.Obj().Pkg() != nil {
		if lib := retryapi.LibraryOf(n.Obj().Pkg().Path()); lib != nil && lib.Name == retryapi.Gax {
			if b, ok := tableBackoff(lib, n.Obj().Name()); ok {
				return reading{b: b, at: x, ok: true}
			}
		}
	}
	return reading{}
}

// variable reads every value the package gives a variable or field, and
// the randomization factor it sets on it afterwards
// (b.RandomizationFactor = 0).
func (r *backoffReader) variable(v *types.Var) reading {
	if r.busy[v] {
		return reading{b: Backoff{Delay: FixedDelay}, ok: true} // a reassignment from itself adds nothing
	}
	u := r.a.vars.Of(v)
	if u == nil || len(u.Values) == 0 || u.Changed || u.Addr {
		return reading{}
	}
	if v.IsField() && v.Exported() {
		return reading{} // other packages may set it
	}
	r.busy[v] = true
	defer delete(r.busy, v)
	var rs []reading
	for _, val := range u.Values {
		rs = append(rs, r.value(val))
	}
	out := join(rs)
	for _, cf := range u.Configs {
		if cf.Field == "RandomizationFactor" && out.ok {
			out = r.factor(out, cf.Value, cf.Value)
		}
	}
	return out
}

// returns reads what a function of the package returns.
func (r *backoffReader) returns(fn *types.Func) reading {
	fd := r.a.declOf(fn)
	if fd == nil || fn.Signature().Results().Len() != 1 || r.busy[fn] {
		return reading{}
	}
	r.busy[fn] = true
	defer delete(r.busy, fn)
	var rs []reading
	astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
		if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			rs = append(rs, r.value(ret.Results[0]))
		}
		return true
	})
	return join(rs)
}

// libraryCall reads a call of a retry library: a constructor of a
// backoff, a wrapper of one, a combination of delays.
func (r *backoffReader) libraryCall(lib *retryapi.Library, fn *types.Func, call *ast.CallExpr) reading {
	switch lib.Jitter[fn.Name()] {
	case retryapi.Combines:
		var rs []reading
		for _, x := range call.Args {
			rs = append(rs, r.value(x))
		}
		out := join(rs)
		out.at = call
		return out
	case retryapi.WrapsFirst:
		return r.value(arg(call, 0))
	case retryapi.Wraps:
		if len(call.Args) > 0 {
			return r.value(call.Args[len(call.Args)-1])
		}
		return reading{}
	}
	if _, known := lib.Delays[fn.Name()]; !known && lib.Jitter[fn.Name()] == retryapi.Jittered && len(call.Args) > 0 {
		// A jittering wrapper (go-retry's WithJitter(j, next)).
		out := r.value(call.Args[len(call.Args)-1])
		out.b.Jitter = true
		return out
	}
	return r.table(lib, fn, call.Fun, call)
}

// table reads a name the table knows (a constructor, a delay function or
// value): its wait, with a randomization factor of 0 among the
// constructor's options taking the jitter away.
func (r *backoffReader) table(lib *retryapi.Library, fn types.Object, at ast.Node, call *ast.CallExpr) reading {
	b, ok := tableBackoff(lib, fn.Name())
	if !ok {
		return reading{}
	}
	out := reading{b: b, at: at, ok: true}
	if call != nil {
		out.at = call
		if b.Jitter {
			for _, x := range call.Args {
				if f, opt := r.option(lib, x); f != nil && opt.Effect == retryapi.SetsFactor {
					out = r.factor(out, arg(unparen(x).(*ast.CallExpr), 0), x)
				}
			}
		}
	}
	if !out.b.Jitter && out.note == "" {
		out.note = r.describe(lib, fn.Name(), out.b, call)
	}
	return out
}

// option returns the library option a call argument is, if it is one.
func (r *backoffReader) option(lib *retryapi.Library, x ast.Expr) (*types.Func, retryapi.Option) {
	c, ok := unparen(x).(*ast.CallExpr)
	if !ok {
		return nil, retryapi.Option{}
	}
	f := r.a.callee(c)
	if f == nil || libraryOf(f) != lib {
		return nil, retryapi.Option{}
	}
	o, _ := lib.Option(f.Name())
	return f, o
}

// factor applies a randomization factor set at at: a constant 0 waits
// the same for every client; another constant jitters; anything else
// cannot be read.
func (r *backoffReader) factor(in reading, x ast.Expr, at ast.Node) reading {
	tv, ok := r.a.pass.TypesInfo.Types[x]
	if !ok || tv.Value == nil {
		return reading{}
	}
	if v, _ := constant.Float64Val(constant.ToFloat(tv.Value)); v == 0 {
		return reading{b: Backoff{Delay: in.b.Delay}, at: at, ok: true,
			note: "backoff.ExponentialBackOff with RandomizationFactor 0 waits the same for every client"}
	}
	in.b.Jitter = true
	return in
}

// literal reads a composite literal of a library's backoff type: cenkalti's
// ExponentialBackOff jitters by its RandomizationFactor (none is 0), a
// ConstantBackOff waits its Interval; a k8s wait.Backoff grows by a Factor
// above 1 and jitters by a Jitter above 0.
func (r *backoffReader) literal(lit *ast.CompositeLit) reading {
	a := r.a
	n, ok := types.Unalias(a.pass.TypesInfo.TypeOf(lit)).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return reading{}
	}
	lib := retryapi.LibraryOf(n.Obj().Pkg().Path())
	if lib == nil {
		return reading{}
	}
	if lib.Name == retryapi.K8sRetry || lib.Name == retryapi.K8sWait {
		return r.k8sLiteral(lit)
	}
	b, ok := tableBackoff(lib, n.Obj().Name())
	if !ok {
		return reading{}
	}
	out := reading{b: b, at: lit, ok: true}
	switch n.Obj().Name() {
	case "ExponentialBackOff":
		if v := astx.Field(lit, "RandomizationFactor"); v != nil {
			for _, elt := range lit.Elts {
				if kv, ok := elt.(*ast.KeyValueExpr); ok && kv.Value == v {
					return r.factor(reading{b: Backoff{Delay: b.Delay, Jitter: true}, at: lit, ok: true}, v, kv)
				}
			}
		}
		out.b.Jitter = false
		out.note = "backoff.ExponentialBackOff without a RandomizationFactor waits the same for every client"
	case "ConstantBackOff":
		out.note = "backoff.ConstantBackOff waits " + a.fixedOf(astx.Field(lit, "Interval")) + " between attempts"
	default:
		if !out.b.Jitter {
			out.note = pkgName(n.Obj()) + "." + n.Obj().Name() + " backs off without jitter"
		}
	}
	return out
}

// k8sLiteral reads a k8s wait.Backoff literal.
func (r *backoffReader) k8sLiteral(lit *ast.CompositeLit) reading {
	b := Backoff{Delay: FixedDelay}
	for name, value := range astx.Fields(lit) {
		switch name {
		case "Factor", "Jitter":
			tv, ok := r.a.pass.TypesInfo.Types[value]
			if !ok || tv.Value == nil {
				return reading{}
			}
			v, _ := constant.Float64Val(constant.ToFloat(tv.Value))
			if name == "Factor" && v > 1 {
				b.Delay = GrowingDelay
			}
			if name == "Jitter" && v > 0 {
				b.Jitter = true
			}
		}
	}
	out := reading{b: b, at: lit, ok: true}
	if !b.Jitter {
		out.note = "wait.Backoff without Jitter backs off the same for every client"
	}
	return out
}

// delayFunc reads a function given as a library's delay (retry-go's
// DelayType, retryablehttp's Backoff): a function of the library by the
// table, a combination of them, or a function of the package or a
// literal by what durkind says its result depends on.
func (r *backoffReader) delayFunc(x ast.Expr) reading {
	a := r.a
	if out := r.value(x); out.ok {
		return out
	}
	var k durkind.Kind = durkind.Unknown
	switch e := unparen(x).(type) {
	case *ast.FuncLit:
		k = a.durEnv().LiteralSummary(e)
	case *ast.Ident:
		if fn, ok := a.pass.TypesInfo.Uses[e].(*types.Func); ok {
			k = a.durEnv().Summary(fn)
		}
	}
	switch k {
	case durkind.Fixed:
		return reading{b: Backoff{Delay: SomeDelay}, at: x, ok: true}
	case durkind.Random:
		return reading{b: Backoff{Delay: SomeDelay, Jitter: true}, at: x, ok: true}
	}
	return reading{}
}

// describe says, for messages, what a backoff without jitter a library
// name makes waits: "backoff.NewConstantBackOff waits a fixed 1s between
// attempts", "retry.NewExponential backs off without jitter".
func (a *analyzer) describe(lib *retryapi.Library, name string, b Backoff, call *ast.CallExpr) string {
	subject := libPkgName(lib) + "." + name
	if b.Delay == FixedDelay && call != nil {
		if d, _ := a.definer.DurationArg(call); d != nil {
			return subject + " waits " + a.fixedOf(d) + " between attempts"
		}
	}
	if lib.JitterHint != "" {
		return subject + " backs off without jitter (" + lib.JitterHint + ")"
	}
	return subject + " backs off without jitter"
}

func (r *backoffReader) describe(lib *retryapi.Library, name string, b Backoff, call *ast.CallExpr) string {
	return r.a.describe(lib, name, b, call)
}

// fixedOf says how long a fixed wait is: "a fixed 1s", or "the same d".
func (a *analyzer) fixedOf(x ast.Expr) string {
	if x == nil {
		return "a fixed time"
	}
	if v, ok := typesx.IntConst(a.pass.TypesInfo, x); ok && v >= 0 {
		return "a fixed " + time.Duration(v).String()
	}
	if t := types.ExprString(x); len(t) <= 32 {
		return "the same " + t
	}
	return "a fixed time"
}

// libPkgName is the name a library's package declares (backoff, retry,
// retryablehttp), however a file imports it.
func libPkgName(lib *retryapi.Library) string {
	if len(lib.Paths) == 0 {
		return lib.Name
	}
	p := lib.Paths[len(lib.Paths)-1]
	return pkgNameOf(p)
}

func pkgName(obj types.Object) string {
	if obj.Pkg() == nil {
		return ""
	}
	return obj.Pkg().Name()
}

// pkgNameOf returns the last element of an import path, or the one before
// a major-version suffix.
func pkgNameOf(path string) string {
	last, before := path, ""
	for i := len(path) - 1; i >= 0; i-- {
		if path[i] == '/' {
			last = path[i+1:]
			before = path[:i]
			break
		}
	}
	if len(last) > 1 && last[0] == 'v' && typesx.AllDigits(last[1:]) && before != "" {
		return pkgNameOf(before)
	}
	if i := len(last) - len("-go"); i > 0 && last[i:] == "-go" {
		return last[:i] // go-retry's package is retry; retry-go's too
	}
	if len(last) > 3 && last[:3] == "go-" {
		return last[3:]
	}
	return last
}

// tableBackoff returns the backoff the table gives a name of the
// library, when it says both its delay and its jitter.
func tableBackoff(lib *retryapi.Library, name string) (Backoff, bool) {
	d, ok := lib.Delays[name]
	if !ok {
		return Backoff{}, false
	}
	switch lib.Jitter[name] {
	case retryapi.Jittered:
		return Backoff{Delay: Delay(d), Jitter: true}, true
	case retryapi.NoJitter:
		return Backoff{Delay: Delay(d)}, true
	}
	return Backoff{}, false
}

// libraryBackoff reads the wait a library site is configured with: its
// policy argument (backoff.Retry(op, b), a k8s wait.Backoff, go-retry's
// Backoff), the option that replaces its backoff (retry.DelayType(...),
// backoff.WithBackOff(b)) among the call's options, its receiver's
// constructor's or a slice of options the package builds, or the field
// of a client that sets it (a retryablehttp client's Backoff). Without
// any, the entry's default stands, read where the call is when nothing
// else can set it. ok is false when the code does not say.
func (a *analyzer) libraryBackoff(cur inspector.Cursor, s *Site, e *retryapi.Entry) reading {
	lib := retryapi.Named(e.Library)
	if lib == nil {
		return reading{}
	}
	r := a.reader()
	def := reading{b: Backoff{Delay: Delay(e.Backoff.Delay), Jitter: e.Backoff.Jitter}, ok: true}
	if !def.b.Jitter && def.b.Delay != NoDelay {
		def.note = e.BackoffNote
	}
	switch n := s.Node.(type) {
	case *ast.CompositeLit:
		if e.BackoffField != "" {
			if v := astx.Field(n, e.BackoffField); v != nil {
				return r.clientBackoff(lib, v)
			}
		}
		return reading{} // a zero Backoff: the library's choice at run time
	case *ast.CallExpr:
		call := n
		def.at = call.Fun
		if e.Policy >= 0 {
			return r.value(arg(call, e.Policy))
		}
		opts, from := call, e.Options
		if e.OptionsOf == retryapi.Receiver {
			opts = nil
			if sel, ok := unparen(call.Fun).(*ast.SelectorExpr); ok {
				opts = a.constructorCall(sel.X)
			}
		}
		if from >= 0 {
			if opts == nil {
				return reading{}
			}
			out, seen, ok := r.options(lib, opts.Args[from:], opts.Ellipsis.IsValid())
			switch {
			case !ok:
				return reading{}
			case seen:
				return out
			}
			return def
		}
		if e.BackoffField != "" {
			return r.client(cur, lib, e, call, def)
		}
		return def
	}
	return reading{}
}

// options reads the options of a call for one that replaces the backoff
// (the last one wins); spread is set when the last argument is spread
// (opts...): its values are the slices the package builds. seen says that
// an option set the backoff; ok is false when some option cannot be seen.
func (r *backoffReader) options(lib *retryapi.Library, args []ast.Expr, spread bool) (out reading, seen, ok bool) {
	for i, x := range args {
		if spread && i == len(args)-1 {
			elems, ok := r.optionSlice(x)
			if !ok {
				return reading{}, false, false
			}
			o, s, ok := r.options(lib, elems, false)
			if !ok {
				return reading{}, false, false
			}
			if s {
				out, seen = o, true
			}
			continue
		}
		f, opt := r.option(lib, x)
		if f == nil {
			if _, isCall := unparen(x).(*ast.CallExpr); !isCall {
				return reading{}, false, false // an option value we cannot see
			}
			continue
		}
		if opt.Effect != retryapi.SetsBackoff {
			continue
		}
		oc := unparen(x).(*ast.CallExpr)
		v := arg(oc, 0)
		var got reading
		switch lib.Project {
		case retryapi.ProjectRetryGo:
			got = r.delayFunc(v)
			if got.ok && !got.b.Jitter {
				what := "retry.DelayType(" + types.ExprString(v) + ") has no random delay"
				if len(what) > 80 || !isNameOf(v) {
					what = "retry.DelayType has no random delay"
				}
				got.at, got.note = oc, what
			}
		default:
			got = r.value(v)
		}
		out, seen = got, true
	}
	return out, seen, true
}

// isNameOf reports whether x is a name or a qualified name.
func isNameOf(x ast.Expr) bool {
	switch unparen(x).(type) {
	case *ast.Ident, *ast.SelectorExpr:
		return true
	}
	return false
}

// optionSlice returns the options a slice of options holds: the elements
// of a literal, of an append, or of the literals and appends the package
// stores to a variable or field; ok is false when it cannot tell.
func (r *backoffReader) optionSlice(x ast.Expr) ([]ast.Expr, bool) {
	if r.depth > maxReadDepth {
		return nil, false
	}
	r.depth++
	defer func() { r.depth-- }()
	switch e := unparen(x).(type) {
	case *ast.CompositeLit:
		return e.Elts, true
	case *ast.CallExpr:
		id, ok := unparen(e.Fun).(*ast.Ident)
		if !ok || id.Name != "append" || len(e.Args) == 0 {
			return nil, false
		}
		if _, builtin := r.a.pass.TypesInfo.Uses[id].(*types.Builtin); !builtin {
			return nil, false
		}
		out, ok := r.optionSlice(e.Args[0])
		if !ok {
			return nil, false
		}
		rest := e.Args[1:]
		if e.Ellipsis.IsValid() && len(rest) > 0 {
			more, ok := r.optionSlice(rest[len(rest)-1])
			if !ok {
				return nil, false
			}
			rest = append(append([]ast.Expr{}, rest[:len(rest)-1]...), more...)
		}
		return append(append([]ast.Expr{}, out...), rest...), true
	}
	v, ok := r.a.objOf(x).(*types.Var)
	if !ok {
		if tv, ok := r.a.pass.TypesInfo.Types[x]; ok && tv.IsNil() {
			return nil, true
		}
		return nil, false
	}
	if v.IsField() && v.Exported() || !v.IsField() && v.Pkg() != r.a.pass.Pkg {
		return nil, false
	}
	u := r.a.vars.Of(v)
	if u == nil || u.Changed || u.Addr || len(u.Values) == 0 {
		return nil, false
	}
	if r.busy[v] {
		return nil, true // x = append(x, ...): its other values hold the rest
	}
	r.busy[v] = true
	defer delete(r.busy, v)
	var out []ast.Expr
	for _, val := range u.Values {
		elems, ok := r.optionSlice(val)
		if !ok {
			return nil, false
		}
		out = append(out, elems...)
	}
	return out, true
}

// client reads the backoff of a client a constructor makes
// (retryablehttp.NewClient()): the value the package sets its backoff
// field to, or the default when nothing can: the client is used in place,
// or kept in a local or an unexported field that the package never sets
// the field of and that does not leave the function (a local) or the
// package (a field).
func (r *backoffReader) client(cur inspector.Cursor, lib *retryapi.Library, e *retryapi.Entry, call *ast.CallExpr, def reading) reading {
	a := r.a
	lhs := assignedTo(cur)
	if lhs == nil {
		if _, ok := cur.Parent().Node().(*ast.SelectorExpr); ok {
			return withAt(def, call) // NewClient().StandardClient(): nobody can set it
		}
		return reading{} // handed on: it may get another
	}
	v, ok := a.objOf(lhs).(*types.Var)
	if !ok {
		return reading{}
	}
	u := a.vars.Of(v)
	if u == nil {
		return reading{}
	}
	for _, cf := range u.Configs {
		if cf.Field == e.BackoffField {
			return r.clientBackoff(lib, cf.Value)
		}
	}
	switch {
	case v.IsField():
		if v.Exported() {
			return reading{}
		}
	case isPkgVar(v):
		if v.Exported() {
			return reading{}
		}
	default:
		if a.escapes(cur, v) {
			return reading{}
		}
	}
	return withAt(def, call)
}

func withAt(r reading, at ast.Node) reading {
	r.at = at
	return r
}

// clientBackoff reads the value a client's backoff field is set to.
func (r *backoffReader) clientBackoff(lib *retryapi.Library, x ast.Expr) reading {
	out := r.delayFunc(x)
	if !out.ok || out.b.Jitter {
		return out
	}
	out.at = x
	if obj, ok := r.a.objOf(x).(*types.Func); ok && libraryOf(obj) == lib {
		out.note = libPkgName(lib) + "." + obj.Name() + " has no jitter"
	} else {
		out.note = "the " + libPkgName(lib) + " Backoff " + shortText(x) + " has no random term"
	}
	return out
}

func shortText(x ast.Expr) string {
	if _, ok := unparen(x).(*ast.FuncLit); ok {
		return "function"
	}
	if t := types.ExprString(x); len(t) <= 32 {
		return t
	}
	return "function"
}

// escapes reports whether a local variable holding a client leaves its
// function: returned, stored, sent, taken the address of, or handed to
// code other than the client's own library, any of which may set its
// fields elsewhere.
func (a *analyzer) escapes(cur inspector.Cursor, v *types.Var) bool {
	fn, ok := astx.Find(a.insp.Root(), astx.EnclosingFunc(cur))
	if !ok {
		return true
	}
	for u := range fn.Preorder((*ast.Ident)(nil)) {
		if a.pass.TypesInfo.Uses[u.Node().(*ast.Ident)] != v {
			continue
		}
		switch p := u.Parent().Node().(type) {
		case *ast.SelectorExpr:
			continue // c.RetryMax = 3, c.StandardClient(), c.Do(req)
		case *ast.CallExpr:
			if f := a.callee(p); f != nil && libraryOf(f) != nil {
				continue
			}
			return true
		default:
			return true
		}
	}
	return false
}

// setBackoff gives a library site the backoff its code configures.
func (a *analyzer) setBackoff(cur inspector.Cursor, s *Site, e *retryapi.Entry) {
	r := a.libraryBackoff(cur, s, e)
	if !r.ok {
		return
	}
	s.Backoff, s.BackoffAt, s.BackoffNote = r.b, r.at, r.note
}
