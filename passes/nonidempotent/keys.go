package nonidempotent

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"

	"golang.org/x/tools/go/ast/edge"
	"golang.org/x/tools/go/ast/inspector"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// isGenerator reports whether call produces a new value on every call: a
// UUID, ULID, xid or KSUID, random bytes or numbers, the current time, or
// a function known (KeyFact) to return one.
func (c *checker) isGenerator(call *ast.CallExpr) bool {
	fn := c.callee(call)
	if fn == nil {
		return false
	}
	name, recv := fn.Name(), typesx.RecvName(fn)
	switch typesx.PkgPath(fn) {
	case "github.com/google/uuid":
		switch name {
		case "NewHash", "NewMD5", "NewSHA1", "NewDCESecurity", "NewDCEPerson", "NewDCEGroup":
			return false // derived from their arguments
		}
		return recv == "" && strings.HasPrefix(name, "New")
	case "github.com/gofrs/uuid", "github.com/gofrs/uuid/v5", "github.com/satori/go.uuid":
		return name == "NewV1" || name == "NewV4" || name == "NewV6" || name == "NewV7"
	case "github.com/hashicorp/go-uuid":
		return name == "GenerateUUID" || name == "GenerateRandomBytes"
	case "crypto/rand":
		return recv == "" && (name == "Read" || name == "Text" || name == "Int" || name == "Prime")
	case "math/rand", "math/rand/v2":
		switch name {
		case "New", "NewSource", "NewZipf", "NewPCG", "NewChaCha8", "Seed", "Shuffle", "Perm":
			return false
		}
		return recv == "" || recv == "Rand"
	case "github.com/oklog/ulid", "github.com/oklog/ulid/v2":
		return recv == "" && (name == "New" || name == "MustNew" || name == "Make" || name == "MustNewDefault" || name == "Now")
	case "github.com/rs/xid":
		return recv == "" && (name == "New" || name == "NewWithTime")
	case "github.com/segmentio/ksuid":
		return recv == "" && (name == "New" || name == "NewRandom" || name == "NewRandomWithTime")
	case "github.com/matoous/go-nanoid", "github.com/matoous/go-nanoid/v2", "github.com/teris-io/shortid":
		return name == "New" || name == "Generate" || name == "MustGenerate"
	case "time":
		return recv == "" && name == "Now"
	}
	f := c.keyFact(fn)
	return f != nil && f.Generates
}

// generatorsOf returns the generator calls whose values flow into e in
// function fn: calls in e itself, and through the local variables e uses,
// the calls in the values assigned to them or that fill them (rand.Read(b)).
func (c *checker) generatorsOf(e ast.Expr, fn ast.Node) []*ast.CallExpr {
	var out []*ast.CallExpr
	seen := make(map[types.Object]bool)
	body := astx.FuncBody(fn)
	if body != nil && !c.mayGenerate(body) {
		// No variable of the body can hold a generated value: look at e
		// alone, without the package's value index.
		body = nil
	}
	var visit func(n ast.Node, depth int)
	visit = func(n ast.Node, depth int) {
		astx.InspectNoLit(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if c.isGenerator(n) && !slices.Contains(out, n) {
					out = append(out, n)
				}
			case *ast.Ident:
				v, ok := c.pass.TypesInfo.Uses[n].(*types.Var)
				if !ok || seen[v] || depth > 6 || !isLocal(v) || body == nil || v.Pos() < body.Pos() || v.Pos() >= body.End() {
					return true
				}
				seen[v] = true
				ix := c.values()
				for _, val := range ix.vals(v) {
					visit(val, depth+1)
				}
				for _, fill := range ix.fills[v] {
					if !slices.Contains(out, fill) {
						out = append(out, fill)
					}
				}
			}
			return true
		})
	}
	visit(e, 0)
	return out
}

// mayGenerate reports whether body, function literals included, calls a
// generator or fills a buffer from crypto/rand through package io: without
// such a call no value of the body is generated.
func (c *checker) mayGenerate(body *ast.BlockStmt) bool {
	if found, ok := c.generates[body]; ok {
		return found
	}
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok && !found {
			found = c.isGenerator(call) || typesx.PkgPath(c.callee(call)) == "io"
		}
		return !found
	})
	if c.generates == nil {
		c.generates = map[*ast.BlockStmt]bool{}
	}
	c.generates[body] = found
	return found
}

// keyFact returns what is known about fn's handling of idempotency keys,
// or nil.
func (c *checker) keyFact(fn *types.Func) *KeyFact {
	fn = fn.Origin()
	if fn.Pkg() != nil && libOf(fn.Pkg().Path()) != "" {
		// A retry library's functions are known by its table: a fact
		// computed from its source, present only when the library is
		// analyzed in the same run (or is the package analyzed), must not
		// change what its callers get.
		return nil
	}
	if fn.Pkg() == c.pass.Pkg {
		return c.local[fn]
	}
	f := new(KeyFact)
	if c.facts.ReadsFacts(fn.Pkg()) && c.pass.ImportObjectFact(fn, f) {
		return f
	}
	return nil
}

// methodAware reports whether the function reads the request's Method:
// a send wrapper that retries only some methods. A read in a block that
// ends in a return and sends nothing (the method put in an error, a dry
// run's output) chooses nothing, nor does one in the condition of an if
// that only keeps books (keepsBooks: a cache dropped for writes).
func (c *checker) methodAware(r *request) bool {
	found := false
	var stack []ast.Node // the nodes holding the node visited
	ast.Inspect(astx.FuncBody(r.fn), func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if found {
			return false
		}
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "Method" && c.rootKind(r, sel.X, 0) == rootReq {
			found = true
			for i := len(stack) - 1; i >= 0; i-- {
				if ifs, ok := stack[i].(*ast.IfStmt); ok && astx.Within(sel, ifs.Cond) {
					found = !c.keepsBooks(r, ifs)
					break
				}
				if b, ok := stack[i].(*ast.BlockStmt); ok {
					found = !c.returnsUnsent(r, b)
					break
				}
			}
			if found {
				return false
			}
		}
		stack = append(stack, n)
		return true
	})
	return found
}

// keepsBooks reports whether an if statement that tests the request's
// method only keeps books (if req.Method != http.MethodGet {
// cache.Delete(key) }): it has no else, and its body neither sends the
// request nor leaves (no return, break, continue or goto), so every
// method goes on to the same sends.
func (c *checker) keepsBooks(r *request, ifs *ast.IfStmt) bool {
	if ifs.Else != nil || ifs.Init != nil {
		return false
	}
	for _, s := range r.sends {
		if astx.Within(s, ifs.Body) {
			return false
		}
	}
	leaves := false
	ast.Inspect(ifs.Body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ReturnStmt, *ast.BranchStmt:
			leaves = true
		case *ast.FuncLit:
			return false
		}
		return !leaves
	})
	return !leaves
}

// returnsUnsent reports whether block b ends in a return and holds no send
// of the request.
func (c *checker) returnsUnsent(r *request, b *ast.BlockStmt) bool {
	if len(b.List) == 0 {
		return false
	}
	if _, ok := b.List[len(b.List)-1].(*ast.ReturnStmt); !ok {
		return false
	}
	for _, s := range r.sends {
		if b.Pos() <= s.Pos() && s.Pos() < b.End() {
			return false
		}
	}
	return true
}

// reqParam classifies a parameter type: a request (or a request
// description, describe.go), a header map, or neither.
func (c *checker) reqParam(t types.Type) int {
	if k := reqParam(t); k != rootNone {
		return k
	}
	if c.descField(t) != nil {
		return rootReq
	}
	return rootNone
}

// reqParam classifies a parameter type of the libraries: a request, a
// header map, or neither.
func reqParam(t types.Type) int {
	switch {
	case typesx.IsNamedPtr(t, "net/http", "Request"), isLibPtr(t, retryapi.RetryableHTTP, "Request"), isLibPtr(t, retryapi.Resty, "Request"):
		return rootReq
	case typesx.IsNamed(t, "net/http", "Header"):
		return rootHdr
	}
	return rootNone
}

// keyish reports whether a result type can carry a key: a string, a byte
// slice or array, or a named type of those (uuid.UUID).
func keyish(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Info()&types.IsString != 0
	case *types.Slice:
		return types.Identical(u.Elem(), types.Typ[types.Byte])
	case *types.Array:
		return types.Identical(u.Elem(), types.Typ[types.Byte])
	}
	return false
}

// mayHaveFact reports whether computeFact can find anything in fn: it takes
// a request or header, or returns a request or something a key could be.
func mayHaveFact(fn *types.Func) bool {
	sig := fn.Type().(*types.Signature)
	for i := range sig.Params().Len() {
		if reqParam(sig.Params().At(i).Type()) != rootNone {
			return true
		}
	}
	if sig.Recv() != nil && (holderField(sig.Recv().Type()) != nil || mayDescribe(sig.Recv().Type())) {
		return true
	}
	for i := range sig.Params().Len() {
		// A request description it sends or sets headers on.
		if mayDescribe(sig.Params().At(i).Type()) {
			return true
		}
	}
	for i := range sig.Params().Len() {
		// The method of a request it builds (KeyFact.Builds, SendsMethod).
		if b, ok := sig.Params().At(i).Type().Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 {
			return true
		}
	}
	return sig.Results().Len() > 0 && (keyish(sig.Results().At(0).Type()) || reqParam(sig.Results().At(0).Type()) == rootReq ||
		holderField(sig.Results().At(0).Type()) != nil || mayDescribe(sig.Results().At(0).Type()))
}

// holderField returns the request field of a request holder: a struct
// type of the user's code (or a pointer to one) with exactly one field
// that is a *http.Request or *retryablehttp.Request, as in
// type ClientRequest struct{ req *retryablehttp.Request; hc *retryablehttp.Client }.
// It returns nil for other types.
func holderField(t types.Type) *types.Var {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil {
		return nil
	}
	if path := typesx.TrimVendor(n.Obj().Pkg().Path()); path == "net/http" || isRetryable(path) || isResty(path) {
		return nil
	}
	st, ok := n.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	var f *types.Var
	for i := range st.NumFields() {
		fi := st.Field(i)
		if typesx.IsNamedPtr(fi.Type(), "net/http", "Request") || isLibPtr(fi.Type(), retryapi.RetryableHTTP, "Request") {
			if f != nil {
				return nil
			}
			f = fi
		}
	}
	return f
}

// exportFacts computes a KeyFact for every function of the package that
// sets an idempotency key on a request or header parameter, sets headers
// it cannot name on one, or returns a freshly generated key. Functions of
// the package may call each other, so the computation repeats until
// nothing changes.
func (c *checker) exportFacts() {
	type cand struct {
		decl *ast.FuncDecl
		cur  inspector.Cursor
		fn   *types.Func
	}
	var cands []cand
	for cur := range c.insp.Root().Preorder((*ast.FuncDecl)(nil)) {
		fd := cur.Node().(*ast.FuncDecl)
		if fd.Body == nil {
			continue
		}
		fn, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func)
		if !ok || !mayHaveFact(fn) {
			continue
		}
		cands = append(cands, cand{fd, cur, fn})
	}
	// A function's fact depends on the facts of the functions of this
	// package it calls; after the first round only the callers of a function
	// whose fact changed are computed again.
	index := make(map[*types.Func]int, len(cands))
	for i, cd := range cands {
		index[cd.fn] = i
	}
	callers := make([][]int, len(cands))
	for i, cd := range cands {
		seen := map[int]bool{}
		for cur := range cd.cur.ChildAt(edge.FuncDecl_Body, -1).Preorder((*ast.Ident)(nil)) {
			fn, ok := c.pass.TypesInfo.Uses[cur.Node().(*ast.Ident)].(*types.Func)
			if !ok {
				continue
			}
			// A method of an interface of the package runs its
			// implementations (implsClean).
			callees := []*types.Func{fn.Origin()}
			if typesx.IsInterfaceMethod(fn) {
				for _, fd := range c.implementations(fn) {
					if m, ok := c.pass.TypesInfo.Defs[fd.Name].(*types.Func); ok {
						callees = append(callees, m)
					}
				}
			}
			for _, fn := range callees {
				if j, ok := index[fn]; ok && !seen[j] {
					seen[j] = true
					callers[j] = append(callers[j], i)
				}
			}
		}
	}
	// Callees before their callers (a depth-first postorder of the calls),
	// so that a chain of wrappers, each calling the next, is settled in
	// one round whatever its length and the functions' order in the
	// source; only calls that go round a cycle need the rounds after.
	callees := make([][]int, len(cands))
	for j, cs := range callers {
		for _, i := range cs {
			callees[i] = append(callees[i], j)
		}
	}
	order := make([]int, 0, len(cands))
	visited := make([]bool, len(cands))
	var visit func(i int)
	visit = func(i int) {
		visited[i] = true
		for _, j := range callees[i] {
			if !visited[j] {
				visit(j)
			}
		}
		order = append(order, i)
	}
	for i := range cands {
		if !visited[i] {
			visit(i)
		}
	}
	dirty := make([]bool, len(cands))
	for i := range dirty {
		dirty[i] = true
	}
	for round := 0; round < 4; round++ {
		next := make([]bool, len(cands))
		changed := false
		for _, i := range order {
			cd := cands[i]
			if !dirty[i] {
				continue
			}
			f := c.computeFact(cd.decl, cd.fn)
			old := c.local[cd.fn]
			if f.Generates != (old != nil && old.Generates) {
				c.generates = nil // a call of cd.fn is a generator now, or no longer
			}
			converts := f.Converts != (func() string {
				if old != nil {
					return old.Converts
				}
				return ""
			}())
			switch {
			case f.empty() && old == nil:
				continue
			case f.empty():
				delete(c.local, cd.fn)
			case old == nil || old.String() != f.String():
				c.local[cd.fn] = f
			default:
				continue
			}
			changed = true
			c.hooks = nil // the functions of a hook type may judge otherwise now
			c.ifaces = nil
			if converts {
				// A type is a request description now, or no longer:
				// every function that takes, builds or sends one may
				// change.
				c.descs = nil
				for j := range next {
					next[j] = true
				}
			}
			for _, j := range callers[i] {
				next[j] = true
			}
		}
		if !changed {
			break
		}
		dirty = next
	}
	for _, cd := range cands {
		if f := c.local[cd.fn]; f != nil {
			c.pass.ExportObjectFact(cd.fn, f)
		}
	}
}

// paramRequest follows what fn does to its parameter p when p is a
// request or its headers (kind), and returns what it found; nil and
// rootNone for another parameter.
func (c *checker) paramRequest(fn ast.Node, p *types.Var) (*request, int) {
	kind := c.reqParam(p.Type())
	if kind == rootNone {
		return nil, rootNone
	}
	r := &request{fn: fn, vars: map[types.Object]bool{}, hdrs: map[types.Object]bool{}}
	if kind == rootReq {
		r.vars[p] = true
	} else {
		r.hdrs[p] = true
	}
	c.collect(r)
	return r, kind
}

// withCarrying runs judge with c.carrying set to params (those true), and
// returns the parameters it met (c.carried), in their order; the state
// of an outer computation is restored after.
func (c *checker) withCarrying(params map[types.Object]bool, judge func()) []types.Object {
	outer, outerMet := c.carrying, c.carried
	c.carrying, c.carried = params, map[types.Object]bool{}
	judge()
	var met []types.Object
	for p := range c.carried {
		met = append(met, p)
	}
	c.carrying, c.carried = outer, outerMet
	slices.SortFunc(met, func(a, b types.Object) int { return int(a.Pos() - b.Pos()) })
	return met
}

func (c *checker) computeFact(fd *ast.FuncDecl, fn *types.Func) *KeyFact {
	f := &KeyFact{}
	sig := fn.Type().(*types.Signature)
	hdrParams := map[types.Object]int{}
	for i := range sig.Params().Len() {
		if p := sig.Params().At(i); reqParam(p.Type()) == rootHdr {
			hdrParams[p] = i
		}
	}
	// carry judges fd's header-map parameters (but skip) as holding no
	// key while judge runs, and returns those it met.
	carry := func(skip types.Object, judge func()) []int {
		params := map[types.Object]bool{}
		for p := range hdrParams {
			params[p] = p != skip
		}
		var met []int
		for _, p := range c.withCarrying(params, judge) {
			met = append(met, hdrParams[p])
		}
		slices.Sort(met)
		return met
	}
	for i := range sig.Params().Len() {
		p := sig.Params().At(i)
		var r *request
		var kind int
		from := carry(p, func() { r, kind = c.paramRequest(fd, p) })
		if r == nil {
			continue
		}
		if kind == rootReq && !isRestyRequest(p.Type()) && !c.methodAware(r) {
			if c.resends(r) {
				f.Retries = append(f.Retries, i)
			} else if q := c.resendsWhen(r, sig); q >= 0 {
				f.RetriesWhen = append(f.RetriesWhen, [2]int{i, q})
			}
		}
		if r.dynamic {
			f.Dynamic = append(f.Dynamic, i)
			continue
		}
		for _, j := range from {
			f.Copies = append(f.Copies, [2]int{i, j})
		}
		if len(r.keys) == 0 {
			continue
		}
		f.Sets = append(f.Sets, i)
		for _, k := range r.keys {
			if k.helper != nil || k.value != nil && len(c.generatorsOf(k.value, fd)) > 0 {
				f.Fresh = append(f.Fresh, i)
				break
			}
		}
	}
	if recv := sig.Recv(); recv != nil && (holderField(recv.Type()) != nil || c.descField(recv.Type()) != nil) {
		r := &request{fn: fd, vars: map[types.Object]bool{recv: true}, hdrs: map[types.Object]bool{}}
		c.collect(r)
		f.RecvHeaders = r.dynamic || len(r.keys) > 0
		f.RecvRetries = !f.RecvHeaders && !c.methodAware(r) && c.resends(r)
	}
	f.Converts = c.converterField(fd, fn)
	var builds, retried, once []methodParam
	carried := carry(nil, func() {
		builds = c.builderParams(fd, fn)
		retried, once = c.sendsMethodParams(fd, fn)
	})
	var lists [][]int
	lists, f.MethodField = methodParams(builds, retried, once)
	f.Builds, f.SendsMethod, f.Sends = lists[0], lists[1], lists[2]
	if len(f.Builds)+len(f.SendsMethod)+len(f.Sends) > 0 {
		f.Carries = carried
	}
	f.Resty, f.RestyRetries = c.restyWrapper(fd, fn)
	if res := sig.Results(); res.Len() > 0 && keyish(res.At(0).Type()) && c.mayGenerate(fd.Body) {
		astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
			if ret, ok := n.(*ast.ReturnStmt); ok && len(ret.Results) > 0 && !f.Generates {
				if len(c.generatorsOf(ret.Results[0], fd)) > 0 {
					f.Generates = true
				}
			}
			return !f.Generates
		})
	}
	return f
}
