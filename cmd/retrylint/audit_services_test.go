package main_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/retrylint/retrylint/internal/rltest"
)

// monoDir is the fixture monorepo: an HTTP edge, two gRPC services with
// generated code checked in (orders, ledger, and ledger-replica, a second
// binary serving the ledger), an HTTP service on a ServeMux (notify) and
// a database (db, HTTP with Go 1.22 wildcards); payments is generated
// code that no binary implements.
func monoDir(t *testing.T) string {
	dir, err := filepath.Abs(filepath.Join("testdata", "audit", "mono"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func monoOutput(t *testing.T, format string, args ...string) string {
	t.Helper()
	return auditRun(t, monoDir(t), 0, append(append([]string{"-format", format}, args...), "./...")...)
}

// monoCopy copies the fixture to a new directory, its budget module
// replaced by the repository's.
func monoCopy(t *testing.T) string {
	t.Helper()
	dir := fixture(t, "mono")
	budget, err := filepath.Abs(filepath.Join("..", "..", "budget"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	data = []byte(strings.Replace(string(data), "=> ../../../../../budget", "=> "+budget, 1))
	if err := os.WriteFile(gomod, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// svcReport is the part of the JSON report the service tests read.
type svcReport struct {
	Services []struct {
		Binary, Name string
		Serves       []string
		Entry        bool
		Receives     struct{ Text string }
	}
	Links []svcLink
	Chain *struct {
		Product struct{ Text string }
		Deepest string `json:"deepest_dependency"`
		Hops    []struct {
			Binary, Function, Call, Method string
			Factor                         struct{ Text string }
			Calls                          struct{ Text string } `json:"calls_per_request"`
		}
	} `json:"service_chain"`
	Deps []struct {
		Dependency, Kind, Via string
		Calls                 struct{ Text string } `json:"calls_per_request"`
	} `json:"service_dependencies"`
	Rollout []struct {
		Step             int
		Binary, Function string
		Pos, Hop         string
		Before, After    struct{ Text string }
		Worst            struct{ Text string } `json:"worst_after"`
	}
	Sites []site
}

type svcLink struct {
	From, To, Method, Kind, Pos, Status, Reason string
	FromFunction                                string `json:"from_function"`
	ToFunction                                  string `json:"to_function"`
	ToMethod                                    string `json:"to_method"`
	Factor                                      struct{ Text string }
	Transport                                   *struct {
		Factor struct{ Text string }
		Reason string
	}
	Detached   bool
	Calls      struct{ Text string } `json:"calls_per_request"`
	Worst      struct{ Text string } `json:"worst_product"`
	Evidence   []string
	Suppressed *struct{ Directive, Reason string }
}

func parseSvc(t *testing.T, out string) *svcReport {
	t.Helper()
	var r svcReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%.500s", err, out)
	}
	return &r
}

const mono = "example.com/mono/cmd/"

// links returns the links from a binary's function with a method.
func (r *svcReport) links(from, fn, method string) []svcLink {
	var out []svcLink
	for _, l := range r.Links {
		if l.From == mono+from && l.FromFunction == fn && l.Method == method {
			out = append(out, l)
		}
	}
	return out
}

func TestAuditServicesGolden(t *testing.T) {
	for _, f := range []struct{ format, file string }{
		{"text", "mono.txt"},
		{"json", "mono.json"},
		{"sarif", "mono.sarif.json"},
		{"markdown", "mono.md"},
	} {
		t.Run(f.format, func(t *testing.T) { golden(t, f.file, monoOutput(t, f.format)) })
	}
}

// TestAuditServiceGraph checks the service graph of the fixture: the
// binaries and what they serve, the 27× chain across four binaries, the
// budgeted 1.1 × 1.1 × 1.1 chain, the HTTP hops with net/http's replay, a
// goroutine that does not multiply, a call that leaves the monorepo, a
// service served by two binaries (both listed, worst first), an HTTP
// path two handlers match (unresolved), and the rollout order.
func TestAuditServiceGraph(t *testing.T) {
	r := parseSvc(t, monoOutput(t, "json"))
	serves := map[string]string{}
	for _, s := range r.Services {
		serves[s.Name] = strings.Join(s.Serves, ", ")
		if s.Entry != (s.Name == "edge") {
			t.Errorf("%s: entry %v; only the edge is where requests enter", s.Name, s.Entry)
		}
	}
	for name, want := range map[string]string{
		"edge":           "POST /checkout, POST /checkout/budgeted, POST /pay, GET /readyz",
		"orders":         "/orders.v1.Orders/Place, /orders.v1.Orders/PlaceBudgeted",
		"ledger":         "/ledger.v1.Ledger/Post, /ledger.v1.Ledger/PostBudgeted",
		"ledger-replica": "/ledger.v1.Ledger/Post, /ledger.v1.Ledger/PostBudgeted",
		"notify":         "POST /v1/notify, GET /healthz",
		"db":             "GET /healthz, PUT /kv/{key}, GET /kv/{key}",
	} {
		if serves[name] != want {
			t.Errorf("%s serves %q, want %q", name, serves[name], want)
		}
	}
	if len(r.Services) != 6 {
		t.Errorf("%d binaries, want 6", len(r.Services))
	}

	// The 27× chain: edge ×3 → orders ×3 → ledger ×3 → db, each hop with
	// its position.
	c := r.Chain
	if c == nil || c.Product.Text != "27" || len(c.Hops) != 4 {
		t.Fatalf("worst chain %+v, want 27 over 4 hops", c)
	}
	var hops []string
	for _, h := range c.Hops {
		hops = append(hops, fmt.Sprintf("%s %s ×%s %s %s", strings.TrimPrefix(h.Binary, mono), h.Function, h.Factor.Text, h.Call, h.Calls.Text))
	}
	wantHops := []string{
		"edge edge.(*Server).Checkout ×3 internal/edge/edge.go:45:16 3",
		"orders orders.(*Server).Place ×3 internal/orders/orders.go:41:18 9",
		"ledger ledger.(*Server).Post ×3 internal/ledger/ledger.go:37:12 27",
		"db db.(*Store).Put ×1  27",
	}
	if strings.Join(hops, "\n") != strings.Join(wantHops, "\n") {
		t.Errorf("the worst chain's hops:\n%s\nwant\n%s", strings.Join(hops, "\n"), strings.Join(wantHops, "\n"))
	}

	// The budgeted chain: 1.1 at each hop, 1.33 end to end.
	for _, l := range []struct{ from, fn, method, calls string }{
		{"edge", "edge.(*Server).CheckoutBudgeted", "/orders.v1.Orders/PlaceBudgeted", "1.1"},
		{"orders", "orders.(*Server).PlaceBudgeted", "/ledger.v1.Ledger/PostBudgeted", "1.21"},
		{"ledger", "ledger.(*Server).PostBudgeted", "PUT /kv/…", "1.33"},
	} {
		ls := r.links(l.from, l.fn, l.method)
		if len(ls) == 0 || ls[0].Factor.Text != "1.1" || ls[0].Calls.Text != l.calls || ls[0].Worst.Text != "1.33" {
			t.Errorf("%s %s: %+v, want factor 1.1, %s calls per request, 1.33 end to end", l.fn, l.method, ls, l.calls)
		}
	}

	// The HTTP hops: orders → notify (POST, no replay), notify → db (GET,
	// replayed by net/http's Transport: ×2): 3 × 2 × 2 × 2 = 24.
	ls := r.links("notify", "notify.(*Server).Notify", "GET /kv/prefs")
	if len(ls) != 1 || ls[0].To != mono+"db" || ls[0].ToMethod != "GET /kv/{key}" || ls[0].Transport == nil ||
		ls[0].Transport.Factor.Text != "2" || !strings.Contains(ls[0].Transport.Reason, "replays an idempotent GET once") ||
		ls[0].Calls.Text != "24" {
		t.Errorf("notify → db: %+v, want GET /kv/{key} of db, transport ×2 (net/http's replay), 24 calls per request", ls)
	}
	if ls := r.links("orders", "orders.(*Server).notify", "POST /v1/notify"); len(ls) != 1 || ls[0].Transport != nil || ls[0].Worst.Text != "24" {
		t.Errorf("orders → notify: %+v, want a POST without replay, 24 end to end", ls)
	}

	// The goroutine: edge's track runs beside the retries of Checkout, so
	// its 3 attempts (× the replay of a POST with an idempotency key) are
	// not multiplied by them: 6 calls per request at notify, not 18; 24 end
	// to end, and the worst chain stays 27.
	ls = r.links("edge", "edge.(*Server).track", "POST /v1/notify")
	if len(ls) != 1 || !ls[0].Detached || ls[0].Factor.Text != "3" || ls[0].Calls.Text != "6" || ls[0].Worst.Text != "24" ||
		ls[0].Transport == nil || !strings.Contains(ls[0].Transport.Reason, "POST with an idempotency key") {
		t.Errorf("edge's goroutine → notify: %+v, want detached, 3 attempts × 2 by the transport = 6, 24 end to end", ls)
	}

	// A call no binary serves leaves the monorepo.
	ls = r.links("edge", "edge.(*Server).Pay", "/payments.v1.Payments/Charge")
	if len(ls) != 1 || ls[0].Status != "external" || ls[0].To != "" || !strings.Contains(ls[0].Reason, "leaves the monorepo") || ls[0].Worst.Text != "2" {
		t.Errorf("edge → payments: %+v, want external with the reason, 2 calls", ls)
	}

	// Two binaries serve the ledger: both are listed, the worst first.
	ls = r.links("orders", "orders.(*Server).Place", "/ledger.v1.Ledger/Post")
	if len(ls) != 2 || ls[0].To != mono+"ledger" || ls[0].Worst.Text != "27" || ls[1].To != mono+"ledger-replica" || ls[1].Worst.Text != "18" {
		t.Errorf("orders → ledger: %+v, want ledger (27) then ledger-replica (18)", ls)
	}
	if len(ls) == 2 && (ls[0].ToFunction != "ledger.(*Server).Post" || ls[1].ToFunction != "main.(*replica).Post") {
		t.Errorf("orders → ledger reaches %s and %s, want ledger.(*Server).Post and main.(*replica).Post", ls[0].ToFunction, ls[1].ToFunction)
	}

	// GET /healthz matches a handler in notify and in db: unresolved,
	// with the reason naming both.
	ls = r.links("edge", "edge.(*Server).Ready", "GET /healthz")
	if len(ls) != 1 || ls[0].Status != "unresolved" || ls[0].To != "" ||
		!strings.Contains(ls[0].Reason, "matches 2 handlers") || !strings.Contains(ls[0].Reason, "db GET /healthz") || !strings.Contains(ls[0].Reason, "notify GET /healthz") {
		t.Errorf("edge → /healthz: %+v, want unresolved, naming db's and notify's handlers", ls)
	}

	// Every link shows the code that made it.
	for _, l := range r.Links {
		if len(l.Evidence) == 0 || l.Status == "linked" && len(l.Evidence) < 2 {
			t.Errorf("link %s → %s %s at %s: evidence %q, want the send and the registration", l.From, l.To, l.Method, l.Pos, l.Evidence)
		}
	}
	if ls := r.links("edge", "edge.(*Server).Checkout", "/orders.v1.Orders/Place"); len(ls) == 1 {
		ev := strings.Join(ls[0].Evidence, " | ")
		if !strings.Contains(ev, "generated gRPC client ordersv1.OrdersClient.Place") || !strings.Contains(ev, `Invoke "/orders.v1.Orders/Place" at orders_grpc.pb.go:`) ||
			!strings.Contains(ev, "ordersv1.RegisterOrdersServer at orders.go:") {
			t.Errorf("edge → orders evidence: %s", ev)
		}
	}

	// Per dependency: the calls per request entering the system.
	deps := map[string]string{}
	for _, d := range r.Deps {
		if _, ok := deps[d.Dependency]; !ok {
			deps[d.Dependency] = d.Calls.Text + " " + d.Kind
		}
	}
	for dep, want := range map[string]string{
		"db PUT /kv/{key}":               "27 service",
		"ledger /ledger.v1.Ledger/Post":  "9 service",
		"orders /orders.v1.Orders/Place": "3 service",
		"/payments.v1.Payments/Charge":   "2 external",
		"GET /healthz":                   "2 unresolved",
	} {
		if deps[dep] != want {
			t.Errorf("dependency %s: %q, want %q", dep, deps[dep], want)
		}
	}

	// The rollout: the deepest hop of the worst chain first (ledger's
	// retries of the database), then outward; each step says what the
	// worst product comes down to.
	if len(r.Rollout) < 3 {
		t.Fatalf("rollout %+v, want at least 3 steps", r.Rollout)
	}
	first := r.Rollout[0]
	if first.Binary != "ledger" || first.Function != "ledger.(*Server).Post" || first.Pos != "internal/ledger/ledger.go:36:2" ||
		first.Before.Text != "3" || first.After.Text != "1.1" || first.Worst.Text != "24" {
		t.Errorf("rollout step 1: %+v, want ledger.(*Server).Post at internal/ledger/ledger.go:36:2, 3 → 1.1, worst 24", first)
	}
	pos := map[string]int{}
	for i, s := range r.Rollout {
		pos[s.Function+" "+s.Pos] = i
	}
	l, o, e := pos["ledger.(*Server).Post internal/ledger/ledger.go:36:2"], pos["orders.(*Server).Place internal/orders/orders.go:40:2"], pos["edge.(*Server).Checkout internal/edge/edge.go:43:2"]
	if !(l < o && o < e) {
		t.Errorf("rollout: ledger at %d, orders at %d, edge at %d; want the deepest hop first", l, o, e)
	}
	for i := 1; i < len(r.Rollout); i++ {
		prev, cur := r.Rollout[i-1].Worst.Text, r.Rollout[i].Worst.Text
		var a, b float64
		fmt.Sscan(prev, &a)
		fmt.Sscan(cur, &b)
		if b > a {
			t.Errorf("rollout step %d raises the worst product from %s to %s", i+1, prev, cur)
		}
	}

	// Every format says it.
	for _, format := range []string{"text", "markdown", "html", "sarif"} {
		out := monoOutput(t, format)
		for _, want := range []string{"27", "/ledger.v1.Ledger/Post", "ledger-replica", "/payments.v1.Payments/Charge", "GET /healthz matches 2 handlers", "internal/ledger/ledger.go:36:2"} {
			if !strings.Contains(out, want) {
				t.Errorf("-format %s does not mention %q", format, want)
			}
		}
	}
	text := monoOutput(t, "text")
	for _, want := range []string{
		"worst end-to-end: 27 calls per request at db: edge ×3 → orders ×3 → ledger ×3 → db, from internal/edge/edge.go:45:16",
		"budget first: ledger.(*Server).Post at internal/ledger/ledger.go:36:2 (ledger → db PUT /kv/…): worst end-to-end 27 → 24",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text summary lacks %q", want)
		}
	}
}

// TestAuditServicesOff: with -services=false the audit is that of each
// process alone: no graph, and a call of a generated client is a call
// through an interface the analysis cannot follow (≥3); linking resolves
// it (3 here, 27 across services).
func TestAuditServicesOff(t *testing.T) {
	on := parseSvc(t, monoOutput(t, "json"))
	off := parseSvc(t, monoOutput(t, "json", "-services=false"))
	if len(off.Services) != 0 || len(off.Links) != 0 || off.Chain != nil {
		t.Errorf("-services=false: %d services, %d links, chain %v; want none", len(off.Services), len(off.Links), off.Chain)
	}
	totals := func(r *svcReport) map[string]string {
		m := map[string]string{}
		for _, s := range r.Sites {
			m[s.Function] = s.Total.Text
		}
		return m
	}
	if got := totals(off)["edge.(*Server).Checkout"]; got != "≥3" {
		t.Errorf("without linking, edge's retries of the generated client: %s, want ≥3", got)
	}
	if got := totals(on)["edge.(*Server).Checkout"]; got != "3" {
		t.Errorf("with linking, edge's retries of the generated client: %s, want 3", got)
	}
}

// TestAuditServiceThreshold: -max-amplification applies to the end-to-end
// products: 10 fails on the 27× chain (every site alone is within it).
func TestAuditServiceThreshold(t *testing.T) {
	dir := monoDir(t)
	_, stderr, code := run(t, dir, "audit", "-max-amplification", "10", "-o", filepath.Join(t.TempDir(), "a.txt"), "./...")
	if code != 3 || !strings.Contains(stderr, "the chain edge ×3 → orders ×3 → ledger ×3 → db from internal/edge/edge.go:45:16 can send 27 calls per request entering the system to db, more than -max-amplification 10") {
		t.Errorf("-max-amplification 10: exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = run(t, dir, "audit", "-max-amplification", "30", "-o", filepath.Join(t.TempDir(), "a.txt"), "./...")
	if code != 0 {
		t.Errorf("-max-amplification 30: exit %d, want 0:\n%s", code, stderr)
	}
}

// TestAuditServiceSuppressed: a directive at the call silences a wrong
// link: it is listed as suppressed with its reason, last, and does not
// count.
func TestAuditServiceSuppressed(t *testing.T) {
	dir := monoCopy(t)
	path := filepath.Join(dir, "internal", "edge", "edge.go")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "	resp, err := http.Get(s.ordersURL + \"/healthz\")",
		"	//lint:ignore services the orders URL points at the orders load balancer's health check\n	resp, err := http.Get(s.ordersURL + \"/healthz\")", 1)
	if edited == string(src) {
		t.Fatal("the fixture changed: no http.Get of /healthz")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	r := parseSvc(t, auditRun(t, dir, 0, "-format", "json", "./..."))
	last := r.Links[len(r.Links)-1]
	if last.Method != "GET /healthz" || last.Status != "suppressed" || last.Suppressed == nil ||
		last.Suppressed.Reason != "the orders URL points at the orders load balancer's health check" {
		t.Errorf("the last link %+v, want GET /healthz suppressed with its reason", last)
	}
	for _, d := range r.Deps {
		if d.Dependency == "GET /healthz" {
			t.Errorf("a suppressed link counts as a dependency: %+v", d)
		}
	}
}

// TestAuditServicesSchema validates the fixture's JSON and SARIF reports.
func TestAuditServicesSchema(t *testing.T) {
	schema, err := os.ReadFile("audit.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	out := monoOutput(t, "json")
	errs, err := rltest.ValidateJSON(schema, []byte(out))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("mono: %s", e)
	}
	// The schema is strict about links: an external link needs its reason.
	mutated := strings.Replace(out, `"reason": "no binary of the run serves /payments.v1.Payments/Charge: the call leaves the monorepo",`, "", 1)
	if mutated == out {
		t.Fatal("the external link's reason is not in the report")
	}
	if errs, _ := rltest.ValidateJSON(schema, []byte(mutated)); len(errs) == 0 {
		t.Error("the schema accepts an external link without its reason")
	}
	sarifSchema, err := os.ReadFile(filepath.Join("testdata", "sarif-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	errs, err = rltest.ValidateJSON(sarifSchema, []byte(monoOutput(t, "sarif")))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range errs {
		t.Errorf("mono SARIF: %s", e)
	}
}

// TestAuditServicesDeterministic: the same input gives byte-identical
// reports in every format, analyzed in parallel on one core or more, or
// sequentially.
func TestAuditServicesDeterministic(t *testing.T) {
	dir := monoDir(t)
	for _, format := range []string{"text", "json", "sarif", "html", "markdown"} {
		var outs []string
		for _, env := range [][]string{{"GOMAXPROCS=1"}, {"GOMAXPROCS=4"}, {"GOMAXPROCS=2"}} {
			args := []string{"audit", "-format", format, "./..."}
			if env[0] == "GOMAXPROCS=2" {
				args = []string{"audit", "-p", "-format", format, "./..."}
			}
			stdout, stderr, code := runEnv(t, dir, append([]string{"GOWORK=off", "GOFLAGS=-mod=mod"}, env...), args...)
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s", env, code, stderr)
			}
			outs = append(outs, stdout)
		}
		for i := 1; i < len(outs); i++ {
			if outs[i] != outs[0] {
				t.Errorf("-format %s differs between runs:\n%s", format, lineDiff(outs[0], outs[i]))
			}
		}
	}
}

// TestAuditServicesChromium opens the fixture's HTML report in headless
// Chromium: no console error, no request but the page itself, the service
// graph drawn (one box per binary and per call out of the monorepo or
// unresolved, arrows labelled ×N and coloured by risk), and a click on a
// box leads to its row. The screenshot of the graph is kept in
// $RETRYLINT_ARTIFACTS when set, else in the test's temporary directory.
func TestAuditServicesChromium(t *testing.T) {
	browser := findChromium(t)
	out := monoOutput(t, "html")
	artifacts := os.Getenv("RETRYLINT_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(artifacts, "audit-services.html")
	if err := os.WriteFile(page, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	b := startChromium(t, browser)
	res := b.open(t, "file://"+page, 1400, 1000)
	for _, e := range res.console {
		t.Errorf("console: %s", e)
	}
	for _, u := range res.requests {
		if u != "file://"+page {
			t.Errorf("the page fetched %s", u)
		}
	}
	checks := b.eval(t, `(function () {
  var svg = document.getElementById("service-graph");
  var r = {svg: !!svg};
  if (!svg) return JSON.stringify(r);
  var nodes = svg.querySelectorAll("a.node");
  r.nodes = [];
  for (var i = 0; i < nodes.length; i++) r.nodes.push(nodes[i].querySelector("text").textContent);
  var labels = svg.querySelectorAll("g.edge text");
  r.labels = [];
  for (var i = 0; i < labels.length; i++) r.labels.push(labels[i].textContent + " " + labels[i].getAttribute("fill"));
  var box = svg.getBoundingClientRect();
  r.width = box.width; r.height = box.height;
  // Every box lies inside the drawing, and no two overlap.
  var rects = svg.querySelectorAll("a.node rect"), over = 0, out = 0;
  for (var i = 0; i < rects.length; i++) {
    var a = rects[i].getBoundingClientRect();
    if (a.left < box.left || a.right > box.right + 1 || a.top < box.top || a.bottom > box.bottom + 1) out++;
    for (var j = i + 1; j < rects.length; j++) {
      var c = rects[j].getBoundingClientRect();
      if (a.left < c.right && c.left < a.right && a.top < c.bottom && c.top < a.bottom) over++;
    }
  }
  r.overlapping = over; r.outside = out;
  var orders = document.getElementById("g-orders");
  orders.dispatchEvent(new MouseEvent("click", {bubbles: true, cancelable: true}));
  r.hash = location.hash;
  var row = document.getElementById("svc-orders");
  r.row = row ? row.textContent.replace(/\s+/g, " ").trim() : "";
  var rb = row ? row.getBoundingClientRect() : null;
  r.rowInView = !!rb && rb.top >= 0 && rb.top < window.innerHeight;
  window.scrollTo(0, 0);
  svg.scrollIntoView();
  return JSON.stringify(r);
})()`)
	var c struct {
		SVG                  bool
		Nodes, Labels        []string
		Width, Height        float64
		Overlapping, Outside int
		Hash, Row            string
		RowInView            bool
	}
	if err := json.Unmarshal([]byte(checks), &c); err != nil {
		t.Fatalf("%v: %s", err, checks)
	}
	t.Logf("page checks: %s", checks)
	if !c.SVG {
		t.Fatal("no service graph in the page")
	}
	nodes := strings.Join(c.Nodes, ",")
	for _, want := range []string{"edge", "orders", "ledger", "ledger-replica", "notify", "db", "payments.v1.Payments", "GET /healthz"} {
		if !strings.Contains(","+nodes+",", ","+want+",") {
			t.Errorf("no box %q among %s", want, nodes)
		}
	}
	if len(c.Nodes) != 8 {
		t.Errorf("%d boxes, want 8 (6 binaries, 1 external, 1 unresolved)", len(c.Nodes))
	}
	labels := strings.Join(c.Labels, ",")
	for _, want := range []string{"×3 #dc2626", "×2 #d97706", "×4 #dc2626", "×6 (go) #dc2626"} {
		if !strings.Contains(labels, want) {
			t.Errorf("no arrow labelled %q among %s", want, labels)
		}
	}
	if c.Overlapping != 0 || c.Outside != 0 {
		t.Errorf("%d boxes overlap, %d lie outside the drawing", c.Overlapping, c.Outside)
	}
	if c.Hash != "#svc-orders" || !strings.Contains(c.Row, "/orders.v1.Orders/Place") || !c.RowInView {
		t.Errorf("a click on orders: hash %q, row %q (in view %v); want its row", c.Hash, c.Row, c.RowInView)
	}
	png := b.screenshot(t)
	shot := filepath.Join(artifacts, "audit-services.png")
	if err := os.WriteFile(shot, png, 0o644); err != nil {
		t.Fatal(err)
	}
	if len(png) < 20000 {
		t.Errorf("screenshot %s is nearly empty (%d bytes)", shot, len(png))
	}
	t.Logf("screenshot: %s", shot)
}

// TestAuditServicesDocs: docs/audit.md shows the fixture's service graph
// and rollout order as the audit prints them.
func TestAuditServicesDocs(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "audit.md"))
	if err != nil {
		t.Fatal(err)
	}
	text := monoOutput(t, "text")
	start, end := strings.Index(text, "SERVICES ("), strings.Index(text, "\nNESTING CHAINS")
	if start < 0 || end < start {
		t.Fatalf("no service sections in the text report:\n%s", text)
	}
	block := strings.TrimRight(text[start:end], "\n") + "\n"
	if !strings.Contains(string(doc), "```\n"+block+"```\n") {
		t.Errorf("docs/audit.md does not show the fixture's service sections as printed; they are:\n%s", block)
	}
	var head []string
	for _, line := range strings.Split(text, "\n") {
		for _, p := range []string{"services:", "worst end-to-end:", "budget first:"} {
			if strings.HasPrefix(line, p) {
				head = append(head, line)
			}
		}
	}
	if h := strings.Join(head, "\n") + "\n"; len(head) != 3 || !strings.Contains(string(doc), "```\n"+h+"```\n") {
		t.Errorf("docs/audit.md does not show the fixture's service headlines; they are:\n%s", h)
	}
}

// TestAuditServicesRPC: the rpc fixture has connect-go and Twirp code as
// their generators write it: a connect client links to the connect
// handler, a Twirp client to the Twirp server, and neither to the other.
func TestAuditServicesRPC(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "audit", "rpc"))
	if err != nil {
		t.Fatal(err)
	}
	r := parseSvc(t, auditRun(t, dir, 0, "-format", "json", "./..."))
	const rpc = "example.com/rpc/cmd/"
	var got []string
	for _, l := range r.Links {
		got = append(got, fmt.Sprintf("%s → %s %s %s ×%s %s", strings.TrimPrefix(l.From, rpc), strings.TrimPrefix(l.To, rpc), l.Kind, l.Method, l.Factor.Text, l.ToFunction))
	}
	want := []string{
		"api → ledger-connect connect /ledger.v1.Ledger/Post ×3 main.server.Post",
		"api → ledger-twirp twirp /ledger.v1.Ledger/Post ×2 main.(*server).Post",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("links:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range r.Links {
		ev := strings.Join(l.Evidence, " | ")
		switch l.Kind {
		case "connect":
			if !strings.Contains(ev, `connect CallUnary "/ledger.v1.Ledger/Post" at ledger.connect.go:`) || !strings.Contains(ev, "ledgerv1connect.NewLedgerHandler at main.go:") {
				t.Errorf("connect evidence: %s", ev)
			}
		case "twirp":
			if !strings.Contains(ev, "twirp client method ledgerv1.(*ledger") || !strings.Contains(ev, "ledgerv1.NewLedgerServer at main.go:") {
				t.Errorf("Twirp evidence: %s", ev)
			}
		}
	}
}
