package retrysite

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/retrylint/retrylint/internal/astx"
	"github.com/retrylint/retrylint/internal/retryapi"
	"github.com/retrylint/retrylint/internal/typesx"
)

// Sends through a configured client. A go-retryablehttp client retries
// every request sent through it: each send (Client.Do, Get, Head, Post,
// PostForm, and the methods of an *http.Client that its StandardClient
// returns or whose Transport is a retryablehttp.RoundTripper of it) is a
// retry site, with the attempts, hooks and backoff that the client's
// configuration gives it (Site.Client). The configuration is the
// construction the send's client was stored from
// (retryablehttp.NewClient(), &retryablehttp.Client{...}), followed
// through the variables and fields it is stored in, keyed literals and
// the results of the package's own functions. A configuration with no
// send in the package (a constructor whose client its callers use) stays
// the site; one that some send reaches is reported at its sends. A send
// whose client this package does not configure is not a site here: it is
// reported where the client is made.

// clientSend says whether fn sends a request through a client that a
// configuration of the retryapi table may retry: a method of the
// go-retryablehttp Client, or of net/http's Client (std), which retries
// when a StandardClient returned it or its Transport is a RoundTripper.
func clientSend(fn *types.Func) (std bool, ok bool) {
	if !IsHTTPSend(fn) || typesx.RecvName(fn) != "Client" {
		return false, false
	}
	if typesx.PkgPath(fn) == "net/http" {
		return true, true
	}
	return false, inLib(fn, retryapi.RetryableHTTP)
}

// findSends turns the package's sends through the clients it configures
// (the calls findLibrary collected) into retry sites, and drops the
// configurations that a send reaches.
func (a *analyzer) findSends() {
	configs := map[ast.Node]*Site{}
	for _, s := range a.sites {
		if s.Kind == Library && s.Entry != nil && s.Entry.Form == retryapi.ClientConfig && s.Entry.Library == retryapi.RetryableHTTP {
			configs[s.Node] = s
		}
	}
	if len(configs) == 0 {
		return
	}
	reached := map[*Site]bool{}
	var sends []*Site
	for _, cur := range a.sends {
		call := cur.Node().(*ast.CallExpr)
		sel, ok := unparen(call.Fun).(*ast.SelectorExpr)
		if !ok {
			continue
		}
		fn := a.callee(call)
		std, _ := clientSend(fn)
		cs := a.clientConfig(sel.X, std, configs, 0)
		if cs == nil {
			continue
		}
		reached[cs] = true
		s := &Site{
			Kind:        Library,
			Node:        call,
			Pos:         call.Pos(),
			Func:        astx.EnclosingFunc(cur),
			API:         "retryablehttp.Client." + fn.Name(),
			Entry:       cs.Entry,
			Bound:       cs.Bound,
			Backoff:     cs.Backoff,
			BackoffAt:   cs.BackoffAt,
			BackoffNote: cs.BackoffNote,
			Guard:       cs.Guard,
			Exempt:      cs.Exempt,
			Client:      cs,
			Attempts:    []Attempt{{Call: call, Dep: a.depOf(call)}},
		}
		if std {
			s.API = "http.Client." + fn.Name() + " of a retryablehttp client"
		}
		sends = append(sends, s)
	}
	kept := a.sites[:0]
	for _, s := range a.sites {
		if !reached[s] {
			kept = append(kept, s)
		}
	}
	a.sites = append(kept, sends...)
}

// clientConfig returns the configuration site that the client x was made
// by, or nil when the package does not make it (a parameter, a field only
// other packages set) or makes it without retries. std says that x is the
// *http.Client of a StandardClient call.
func (a *analyzer) clientConfig(x ast.Expr, std bool, configs map[ast.Node]*Site, depth int) *Site {
	if depth > 6 {
		return nil
	}
	switch e := pointee(x).(type) {
	case *ast.CompositeLit:
		if !std {
			return configs[e]
		}
		// &http.Client{Transport: &retryablehttp.RoundTripper{Client: rc}}:
		// the client rc.
		for name, val := range astx.Fields(e) {
			if name == "Transport" {
				return a.roundTripperClient(val, configs, depth+1)
			}
		}
		return nil
	case *ast.CallExpr:
		fn := a.callee(e)
		if fn == nil {
			return nil
		}
		if std {
			// rc.StandardClient(): the client rc.
			if sel, ok := unparen(e.Fun).(*ast.SelectorExpr); ok && fn.Name() == "StandardClient" && inLib(fn, retryapi.RetryableHTTP) {
				return a.clientConfig(sel.X, false, configs, depth+1)
			}
			return nil
		}
		if s := configs[e]; s != nil {
			return s
		}
		// A function of the package that returns the client.
		fd := a.declOf(fn)
		if fd == nil || fd.Body == nil || fn.Signature().Results().Len() == 0 {
			return nil
		}
		var found *Site
		astx.InspectNoLit(fd.Body, func(n ast.Node) bool {
			if r, ok := n.(*ast.ReturnStmt); ok && found == nil && len(r.Results) > 0 {
				found = a.clientConfig(r.Results[0], false, configs, depth+1)
			}
			return found == nil
		})
		return found
	case *ast.Ident, *ast.SelectorExpr:
		for _, val := range a.stored(e) {
			if s := a.clientConfig(val, std, configs, depth+1); s != nil {
				return s
			}
		}
	}
	return nil
}

// roundTripperClient returns the configuration of the client that the
// transport x, a retryablehttp.RoundTripper literal or a variable holding
// one, sends through; nil otherwise (a RoundTripper with no Client makes
// its own with the defaults, at its first request).
func (a *analyzer) roundTripperClient(x ast.Expr, configs map[ast.Node]*Site, depth int) *Site {
	if depth > 6 {
		return nil
	}
	switch e := pointee(x).(type) {
	case *ast.CompositeLit:
		if !retryapi.IsType(a.pass.TypesInfo.TypeOf(e), retryapi.RetryableHTTP, "RoundTripper") {
			return nil
		}
		for name, val := range astx.Fields(e) {
			if name == "Client" {
				return a.clientConfig(val, false, configs, depth+1)
			}
		}
	case *ast.Ident, *ast.SelectorExpr:
		for _, val := range a.stored(e) {
			if s := a.roundTripperClient(val, configs, depth+1); s != nil {
				return s
			}
		}
	}
	return nil
}

// pointee returns x without its parentheses and a leading &.
func pointee(x ast.Expr) ast.Expr {
	x = unparen(x)
	if u, ok := x.(*ast.UnaryExpr); ok && u.Op == token.AND {
		x = unparen(u.X)
	}
	return x
}

// stored returns the values the package stores to the variable or field
// e names, its initialiser among them; nil for other expressions.
func (a *analyzer) stored(e ast.Expr) []ast.Expr {
	v, ok := a.objOf(e).(*types.Var)
	if !ok {
		return nil
	}
	if u := a.vars.Of(v); u != nil {
		return u.Values
	}
	return nil
}
