package services

import "testing"

func TestRouteMatch(t *testing.T) {
	for _, c := range []struct {
		router, method, pattern string
		request                 string
		match                   bool
	}{
		// net/http's ServeMux, Go 1.22 patterns.
		{routerNetHTTP, "", "POST /v1/notify", "POST /v1/notify", true},
		{routerNetHTTP, "", "POST /v1/notify", "GET /v1/notify", false},
		{routerNetHTTP, "", "/v1/notify", "DELETE /v1/notify", true},
		{routerNetHTTP, "", "GET /kv/{key}", "GET /kv/a", true},
		{routerNetHTTP, "", "GET /kv/{key}", "HEAD /kv/a", true}, // GET serves HEAD
		{routerNetHTTP, "", "GET /kv/{key}", "GET /kv/a/b", false},
		{routerNetHTTP, "", "GET /kv/{key}", "GET /kv/", false},
		{routerNetHTTP, "", "GET /kv/{key}", "GET /kv/…", true},
		{routerNetHTTP, "", "GET /kv/{key}", "GET /kv/a/…", false},
		{routerNetHTTP, "", "/static/", "GET /static/a/b", true},
		{routerNetHTTP, "", "/static/", "GET /staticx", false},
		{routerNetHTTP, "", "/", "GET /anything/at/all", true},
		{routerNetHTTP, "", "/exact/{$}", "GET /exact/", true},
		{routerNetHTTP, "", "/exact/{$}", "GET /exact/a", false},
		{routerNetHTTP, "", "/files/{path...}", "GET /files/a/b", true},
		{routerNetHTTP, "", "example.com/v1/x", "GET /v1/x", true},
		{routerNetHTTP, "", "/v1/x", "GET /v1/y", false},
		// chi, gorilla/mux, gin and echo.
		{routerChi, "GET", "/kv/{key:[0-9]+}", "GET /kv/1", true},
		{routerChi, "GET", "/kv/{key}", "POST /kv/1", false},
		{routerChi, "", "/static/*", "GET /static/a/b", true},
		{routerChi, "", "/v1/x/", "GET /v1/x", false}, // chi keeps the slash
		{routerGorilla, "POST", "/v1/notify", "POST /v1/notify", true},
		{routerGorilla, "", "/items/{id}", "PUT /items/7", true},
		{routerGin, "GET", "/kv/:key", "GET /kv/a", true},
		{routerGin, "GET", "/files/*path", "GET /files/a/b", true},
		{routerEcho, "GET", "/kv/:key", "GET /kv", false},
	} {
		s := Served{Kind: HTTP, Router: c.router, RouteMethod: c.method, Pattern: c.pattern}
		if _, ok := MatchHTTP(s, c.request); ok != c.match {
			t.Errorf("%s %q %q: request %q matches %v, want %v", c.router, c.method, c.pattern, c.request, ok, c.match)
		}
	}
}

// TestRouteSpecific: a literal segment is more specific than a wildcard,
// a wildcard than a prefix, a method than none, as ServeMux decides.
func TestRouteSpecific(t *testing.T) {
	score := func(pattern, req string) int {
		n, ok := MatchHTTP(Served{Kind: HTTP, Router: routerNetHTTP, Pattern: pattern}, req)
		if !ok {
			t.Fatalf("%q does not match %q", pattern, req)
		}
		return n
	}
	for _, c := range [][3]string{
		{"GET /kv/special", "GET /kv/{key}", "GET /kv/special"},
		{"GET /kv/{key}", "/kv/", "GET /kv/a"},
		{"GET /kv/{key}", "/kv/{key}", "GET /kv/a"},
		{"/v1/notify", "/", "POST /v1/notify"},
	} {
		if a, b := score(c[0], c[2]), score(c[1], c[2]); a <= b {
			t.Errorf("for %q, %q (%d) should beat %q (%d)", c[2], c[0], a, c[1], b)
		}
	}
}

func TestReqPath(t *testing.T) {
	for _, c := range []struct {
		path    string
		varTail bool
		want    string
		ok      bool
	}{
		{"/v1/notify", false, "/v1/notify", true},
		{"/v1/notify?x=1", false, "/v1/notify", true},
		{"/kv/", true, "/kv/…", true},
		{"/kv", true, "", false}, // the value does not start a segment
		{"/", true, "", false},   // no constant segment
		{"v1/notify", false, "", false},
	} {
		p, ok := parseReqPath(c.path, c.varTail)
		if ok != c.ok || ok && p.String() != c.want {
			t.Errorf("parseReqPath(%q, %v) = %q, %v; want %q, %v", c.path, c.varTail, p.String(), ok, c.want, c.ok)
		}
	}
	if m, p, ok := ParseHTTPMethod("PUT /kv/…"); !ok || m != "PUT" || !p.varTail || p.String() != "/kv/…" {
		t.Errorf("ParseHTTPMethod: %q %q %v", m, p.String(), ok)
	}
	if _, _, ok := ParseHTTPMethod("/ledger.v1.Ledger/Post"); ok {
		t.Error("a full method name is no HTTP request")
	}
}

func TestJoinRoute(t *testing.T) {
	for _, c := range [][3]string{
		{"/v1", "/notify", "/v1/notify"},
		{"/v1/", "notify", "/v1/notify"},
		{"", "POST /x", "POST /x"},
		{"/api", "/", "/api"},
	} {
		if got := joinRoute(c[0], c[1]); got != c[2] {
			t.Errorf("joinRoute(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
