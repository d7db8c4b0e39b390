package services

import (
	"strings"
)

// A route is an HTTP handler's pattern in a common form: net/http's
// ServeMux patterns (Go 1.22: "POST /v1/notify", "GET /kv/{key}",
// "/static/", "/exact/{$}", "/files/{path...}"), chi's ("/kv/{key}",
// "/kv/{key:[0-9]+}", "/static/*"), gorilla/mux's ("/kv/{key}",
// "/kv/{key:[0-9]+}") and gin's and echo's ("/kv/:key", "/static/*path").
type route struct {
	method string // "" for every method
	host   string // net/http patterns may name a host; "" for any
	segs   []rseg
	// prefix says the route matches every path below its segments (a
	// ServeMux pattern that ends in a slash, a trailing wildcard).
	prefix bool
}

type rseg struct {
	lit  string // a literal segment, when wild is false
	wild bool   // one segment, whatever it is
}

// Routers, as registrations name them.
const (
	routerNetHTTP = "net/http"
	routerChi     = "chi"
	routerGorilla = "gorilla/mux"
	routerGin     = "gin"
	routerEcho    = "echo"
)

// parseRoute reads a pattern as the router reads it, with a method given
// apart (chi's r.Post, gin's r.POST; "" when the router takes it from the
// pattern or serves every method).
func parseRoute(router, method, pattern string) (route, bool) {
	r := route{method: strings.ToUpper(method)}
	p := pattern
	if router == routerNetHTTP {
		// "[METHOD ][HOST]/[PATH]"
		if m, rest, ok := strings.Cut(p, " "); ok {
			r.method, p = m, strings.TrimLeft(rest, " \t")
		}
		if i := strings.IndexByte(p, '/'); i > 0 {
			r.host, p = p[:i], p[i:]
		}
	}
	if !strings.HasPrefix(p, "/") {
		return route{}, false
	}
	parts := strings.Split(p[1:], "/")
	for i, part := range parts {
		last := i == len(parts)-1
		switch {
		case last && part == "" && len(parts) > 1:
			// A trailing slash: net/http serves the subtree; the other
			// routers match the path with its slash only.
			if router == routerNetHTTP {
				r.prefix = true
			} else {
				r.segs = append(r.segs, rseg{lit: ""})
			}
		case last && part == "" && len(parts) == 1:
			// "/": net/http's catch-all; the root elsewhere.
			if router == routerNetHTTP {
				r.prefix = true
			} else {
				r.segs = append(r.segs, rseg{lit: ""})
			}
		case router == routerNetHTTP && part == "{$}" && last:
			r.segs = append(r.segs, rseg{lit: ""})
		case router == routerNetHTTP && strings.HasPrefix(part, "{") && strings.HasSuffix(part, "...}") && last:
			r.prefix = true
		case (router == routerGin || router == routerEcho) && strings.HasPrefix(part, "*") && last,
			router == routerChi && part == "*" && last:
			r.prefix = true
		case strings.HasPrefix(part, "{") && strings.HasSuffix(part, "}"),
			(router == routerGin || router == routerEcho) && strings.HasPrefix(part, ":"):
			r.segs = append(r.segs, rseg{wild: true})
		default:
			r.segs = append(r.segs, rseg{lit: part})
		}
	}
	return r, true
}

// A reqPath is the path a request sends: its segments after the base URL,
// and whether a value that is not a constant follows them ("/kv/" + key).
type reqPath struct {
	segs    []string
	varTail bool
}

func parseReqPath(p string, varTail bool) (reqPath, bool) {
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p, varTail = p[:i], false
	}
	if !strings.HasPrefix(p, "/") {
		return reqPath{}, false
	}
	rp := reqPath{varTail: varTail}
	rest := p[1:]
	if varTail {
		// "/kv/" + key: the variable starts a segment of its own only
		// after a slash.
		if !strings.HasSuffix(p, "/") {
			return reqPath{}, false
		}
		rest = strings.TrimSuffix(rest, "/")
		if rest == "" {
			return reqPath{}, false // "/" + value: no constant segment to match
		}
	}
	rp.segs = strings.Split(rest, "/")
	return rp, true
}

// String gives the path as the reports show it: "/v1/notify", "/kv/…".
func (p reqPath) String() string {
	s := "/" + strings.Join(p.segs, "/")
	if p.varTail {
		if len(p.segs) > 0 {
			s += "/"
		}
		s += "…"
	}
	return s
}

// match reports whether a request with method and path reaches the route,
// and how specific the route is for it: a route with more literal
// segments wins, then one with more segments, then one with a method.
// GET routes serve HEAD too, as net/http's do.
func (r route) match(method string, p reqPath) (int, bool) {
	switch {
	case r.method == "" || r.method == method:
	case r.method == "GET" && method == "HEAD":
	default:
		return 0, false
	}
	n := len(p.segs)
	if p.varTail {
		// The variable fills one segment (or more, under a prefix).
		n++
	}
	if r.prefix {
		if n < len(r.segs) {
			return 0, false
		}
	} else if n != len(r.segs) {
		return 0, false
	}
	lits := 0
	for i, s := range r.segs {
		if i >= len(p.segs) {
			// The variable tail: only a wildcard takes it.
			if !s.wild {
				return 0, false
			}
			continue
		}
		if s.wild {
			if p.segs[i] == "" {
				return 0, false // a wildcard matches a segment with something in it
			}
			continue
		}
		if s.lit != p.segs[i] {
			return 0, false
		}
		lits++
	}
	score := lits*1000 + len(r.segs)*10
	if !r.prefix {
		score += 5
	}
	if r.method != "" {
		score++
	}
	return score, true
}
