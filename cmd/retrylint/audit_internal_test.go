package main

import (
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/amplify"
	"github.com/retrylint/retrylint/internal/retrysite"
)

// TestReportBound: a count bound has a number or an expression; one with
// neither is reported as unknown, never as " attempts".
func TestReportBound(t *testing.T) {
	for _, c := range []struct {
		b          retrysite.Bound
		kind, text string
	}{
		{retrysite.Bound{Kind: retrysite.BoundCount, N: 4}, "count", "4 attempts"},
		{retrysite.Bound{Kind: retrysite.BoundCount, Expr: "args.MaxTries"}, "count", "args.MaxTries attempts"},
		{retrysite.Bound{Kind: retrysite.BoundCount}, "unknown", "unknown"},
		{retrysite.Bound{Kind: retrysite.BoundTime, Note: "MaxElapsedTime 15m by default"}, "time", "time-bounded"},
		{retrysite.Bound{Kind: retrysite.Unbounded}, "unbounded", "unbounded"},
	} {
		got := reportBound(c.b)
		if got.Kind != c.kind || got.Text != c.text || strings.HasPrefix(got.Text, " ") {
			t.Errorf("reportBound(%+v) = %+v, want kind %s, text %q", c.b, got, c.kind, c.text)
		}
		if got.Kind == "count" && got.N == 0 && got.Expr == "" {
			t.Errorf("reportBound(%+v): a count with neither a number nor an expression", c.b)
		}
	}
}

func TestMatchPattern(t *testing.T) {
	for _, c := range []struct {
		pattern, path string
		want          bool
	}{
		{"example.com/a", "example.com/a", true},
		{"example.com/a", "example.com/ab", false},
		{"example.com/a/...", "example.com/a", true},
		{"example.com/a/...", "example.com/a/b/c", true},
		{"example.com/a/...", "example.com/ab", false},
		{"example.com/.../store", "example.com/x/y/store", true},
		{"example.com/.../store", "example.com/x/y/stores", false},
		{"...", "anything", true},
		{"./...", "anything", true},
	} {
		if got := matchesAny(c.path, []string{c.pattern}); got != c.want {
			t.Errorf("matchesAny(%q, %q) = %v, want %v", c.path, c.pattern, got, c.want)
		}
	}
}

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n     int
		forms []string
		want  string
	}{
		{0, []string{"chain"}, "0 chains"},
		{1, []string{"chain"}, "1 chain"},
		{2, []string{"retry site"}, "2 retry sites"},
		{1, []string{"package was", "packages were"}, "1 package was"},
		{3, []string{"package was", "packages were"}, "3 packages were"},
	} {
		if got := plural(c.n, c.forms...); got != c.want {
			t.Errorf("plural(%d, %q) = %q, want %q", c.n, c.forms, got, c.want)
		}
	}
}

// TestBrk: breaks go after punctuation and between camel-case words.
func TestBrk(t *testing.T) {
	for in, want := range map[string]string{
		"short.Name":                             "short.Name",
		"backoff.RetryNotifyWithTimer":           "backoff.<wbr>RetryNotify<wbr>With<wbr>Timer",
		"p0.(*InventoryReservationService).Get":  "p0.<wbr>(*Inventory<wbr>Reservation<wbr>Service).<wbr>Get",
		"example.com/gen/p0":                     "example.com/gen/p0",
		"example.com/generated/p0":               "example.<wbr>com/<wbr>generated/<wbr>p0",
		"warehouseInventoryBackendClient7 < 3 &": "warehouse<wbr>Inventory<wbr>Backend<wbr>Client7 &lt; 3 &amp;",
	} {
		if got := string(brk(in)); got != want {
			t.Errorf("brk(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestLabelDeps: a dependency is named by its short name unless another
// dependency of the report shares it; then both are qualified by their
// owner, and by their whole key when even that is shared. Chain steps are
// named as the sites are, and a helper's site is its callers'.
func TestLabelDeps(t *testing.T) {
	field := func(owner, name string) retrysite.Dep {
		return retrysite.Dep{Kind: retrysite.DepField, Key: "field:" + owner + "." + name, Name: name}
	}
	svcClient := field("example.com/shop/orders.Service", "client")
	toolClient := field("example.com/shop/tools.Tool", "client")
	inventory := field("example.com/shop/orders.Service", "inventory")
	aDB := field("example.com/a/store.DB", "conn")
	bDB := field("example.com/b/store.DB", "conn")
	sites := []*auditSite{
		{deps: []retrysite.Dep{svcClient, inventory}, Steps: []amplify.Step{{Deps: []retrysite.Dep{svcClient, inventory}}, {Deps: []retrysite.Dep{toolClient}}}},
		{deps: []retrysite.Dep{toolClient}, Steps: []amplify.Step{{Deps: []retrysite.Dep{toolClient}}}},
		{deps: []retrysite.Dep{aDB}},
		{deps: []retrysite.Dep{bDB}},
		{deps: []retrysite.Dep{callersDep}},
		{},
	}
	labelDeps(sites)
	for i, want := range []struct{ dep, deepest string }{
		{"orders.Service.client, inventory", "tools.Tool.client"},
		{"tools.Tool.client", "tools.Tool.client"},
		{"example.com/a/store.DB.conn", "example.com/a/store.DB.conn"},
		{"example.com/b/store.DB.conn", "example.com/b/store.DB.conn"},
		{"(each caller's)", "(each caller's)"},
		{"", ""},
	} {
		if s := sites[i]; s.Dependency != want.dep || s.Deepest != want.deepest {
			t.Errorf("site %d: dependency %q, deepest %q; want %q, %q", i, s.Dependency, s.Deepest, want.dep, want.deepest)
		}
	}
	if got := sites[0].Steps[1].Dep; got != "tools.Tool.client" {
		t.Errorf("chain step: %q, want tools.Tool.client", got)
	}
	if got := sites[4].Dependencies; len(got) != 1 || got[0].Kind != "callers" {
		t.Errorf("a helper's dependencies: %+v, want one of kind callers", got)
	}
	if got := sites[5].Dependencies; got == nil || len(got) != 0 {
		t.Errorf("no dependency: %+v, want an empty list", got)
	}
}
