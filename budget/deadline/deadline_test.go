package deadline_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/retrylint/retrylint/budget/deadline"
)

// hop is one service of a chain: a server behind Middleware whose handler
// records the deadline it sees, optionally applies its own timeout, and
// calls the next hop (if any) through Transport.
type hop struct {
	srv      *httptest.Server
	mu       sync.Mutex
	seen     []time.Time // the handler's context deadline, per request
	worked   atomic.Int64
	conns    atomic.Int64
	next     *hop
	own      time.Duration // the handler's own timeout, if any
	waitDone bool          // wait for the context to end before calling next
	client   *http.Client
}

func newHop(t *testing.T, next *hop, own time.Duration) *hop {
	h := &hop{next: next, own: own, client: &http.Client{Transport: deadline.Transport(nil)}}
	h.srv = httptest.NewUnstartedServer(deadline.Middleware(http.HandlerFunc(h.serve)))
	h.srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			h.conns.Add(1)
		}
	}
	h.srv.Start()
	t.Cleanup(h.srv.Close)
	return h
}

func (h *hop) serve(w http.ResponseWriter, r *http.Request) {
	h.worked.Add(1)
	ctx := r.Context()
	if h.own > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, h.own)
		defer cancel()
	}
	d, _ := ctx.Deadline()
	h.mu.Lock()
	h.seen = append(h.seen, d)
	h.mu.Unlock()
	if h.next == nil {
		w.WriteHeader(http.StatusOK)
		return
	}
	if h.waitDone {
		<-ctx.Done() // slow work that outlives the deadline
	}
	status, err := h.call(ctx)
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			w.WriteHeader(http.StatusGatewayTimeout)
			return
		}
		w.WriteHeader(http.StatusBadGateway)
		return
	}
	w.WriteHeader(status)
}

func (h *hop) call(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, h.next.srv.URL, nil)
	if err != nil {
		return 0, err
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func (h *hop) deadlines() []time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]time.Time(nil), h.seen...)
}

// edge calls the first hop the way the edge of a system does: it sets the
// deadline once, as its context.
func edge(t *testing.T, first *hop, timeout time.Duration) (time.Time, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	d, _ := ctx.Deadline()
	client := &http.Client{Transport: deadline.Transport(nil)}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, first.srv.URL, nil)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("edge request: %v", err)
	}
	resp.Body.Close()
	return d, resp.StatusCode
}

func TestChainNeverLater(t *testing.T) {
	// edge → a → b → c. Hop b has a timeout of its own, first longer
	// than the edge's (it must not extend it), then shorter (it wins).
	for _, own := range []time.Duration{time.Hour, 0, 500 * time.Millisecond} {
		c := newHop(t, nil, 0)
		b := newHop(t, c, own)
		a := newHop(t, b, 0)
		edgeDeadline, status := edge(t, a, 5*time.Second)
		if status != http.StatusOK {
			t.Fatalf("own %v: the chain answered %d", own, status)
		}
		want := edgeDeadline
		if own > 0 && own < 5*time.Second {
			want = b.deadlines()[0] // b's own, shorter deadline
		}
		for name, h := range map[string]*hop{"a": a, "b": b, "c": c} {
			ds := h.deadlines()
			if len(ds) != 1 || ds[0].IsZero() {
				t.Fatalf("own %v: hop %s saw deadlines %v, want one", own, name, ds)
			}
			if ds[0].After(edgeDeadline) {
				t.Errorf("own %v: hop %s saw %v, later than the edge's %v", own, name, ds[0], edgeDeadline)
			}
		}
		last := c.deadlines()[0]
		if last.After(want) || want.Sub(last) > time.Millisecond {
			t.Errorf("own %v: the last hop saw %v, want %v rounded down to the millisecond", own, last, want)
		}
	}
}

func TestExpiredHeaderDoesNoWork(t *testing.T) {
	c := newHop(t, nil, 0)
	b := newHop(t, c, 0)
	before := deadline.Counters()
	req, _ := http.NewRequest(http.MethodGet, b.srv.URL, nil)
	req.Header.Set(deadline.Header, strconv.FormatInt(time.Now().Add(-time.Second).UnixMilli(), 10))
	start := time.Now()
	resp, err := http.DefaultClient.Do(req)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusGatewayTimeout {
		t.Fatalf("status %d, want 504", resp.StatusCode)
	}
	if b.worked.Load() != 0 || c.worked.Load() != 0 || c.conns.Load() != 0 {
		t.Fatalf("an expired request did work: b handled %d, c handled %d over %d connections", b.worked.Load(), c.worked.Load(), c.conns.Load())
	}
	if got := deadline.Counters().Expired - before.Expired; got != 1 {
		t.Fatalf("Expired counted %d, want 1", got)
	}
	t.Logf("504 over HTTP in %v", elapsed)
	if elapsed > 5*time.Second { // generous: the bound that matters is below, without the network
		t.Fatalf("504 took %v", elapsed)
	}
}

func TestExpiredAnsweredAtOnce(t *testing.T) {
	called := false
	h := deadline.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { called = true }))
	req := httptest.NewRequest(http.MethodGet, "/stock", nil)
	req.Header.Set(deadline.Header, strconv.FormatInt(time.Now().Add(-time.Millisecond).UnixMilli(), 10))
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, req)
	if elapsed := time.Since(start); elapsed > 50*time.Millisecond {
		t.Fatalf("the 504 took %v, want under 50 ms", elapsed)
	}
	if rec.Code != http.StatusGatewayTimeout || called {
		t.Fatalf("status %d, handler called %v; want 504 without the handler", rec.Code, called)
	}
}

func TestExpiredOnTheWayIsNotSent(t *testing.T) {
	// a adopts a deadline 50 ms away and works past it before calling b:
	// the request to b is not sent, and a answers 504. The caller sends
	// the header itself and waits for the answer, however late.
	b := newHop(t, nil, 0)
	a := newHop(t, b, 0)
	a.waitDone = true
	before := deadline.Counters()
	req, _ := http.NewRequest(http.MethodGet, a.srv.URL, nil)
	req.Header.Set(deadline.Header, strconv.FormatInt(time.Now().Add(50*time.Millisecond).UnixMilli(), 10))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusGatewayTimeout {
		t.Fatalf("a answered %d, want 504", resp.StatusCode)
	}
	if a.worked.Load() != 1 || b.worked.Load() != 0 || b.conns.Load() != 0 {
		t.Fatalf("a handled %d, b handled %d over %d connections; want b untouched", a.worked.Load(), b.worked.Load(), b.conns.Load())
	}
	if got := deadline.Counters().NotSent - before.NotSent; got != 1 {
		t.Fatalf("NotSent counted %d, want 1", got)
	}
}

func TestMalformedIgnoredAndCounted(t *testing.T) {
	var got []bool
	h := deadline.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, has := r.Context().Deadline()
		got = append(got, has)
	}))
	bad := []string{"soon", "-1", "+1700000000000", "1.5e12", " ", "0x1F", "1234567890123456789012"}
	before := deadline.Counters()
	for _, v := range bad {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		req.Header.Set(deadline.Header, v)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			t.Errorf("header %q: status %d, want the handler's 200", v, rec.Code)
		}
	}
	for i, has := range got {
		if has {
			t.Errorf("header %q gave the handler a deadline", bad[i])
		}
	}
	if len(got) != len(bad) {
		t.Fatalf("handler called %d times for %d requests", len(got), len(bad))
	}
	if n := deadline.Counters().Malformed - before.Malformed; n != uint64(len(bad)) {
		t.Errorf("Malformed counted %d, want %d", n, len(bad))
	}
	if n := deadline.Counters().Adopted - before.Adopted; n != 0 {
		t.Errorf("Adopted counted %d for malformed headers", n)
	}
}

func TestEarliestValueWins(t *testing.T) {
	soon := time.Now().Add(time.Minute).Truncate(time.Millisecond)
	later := soon.Add(time.Hour)
	var seen time.Time
	h := deadline.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ = r.Context().Deadline()
	}))
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Add(deadline.Header, strconv.FormatInt(later.UnixMilli(), 10)+", junk")
	req.Header.Add(deadline.Header, strconv.FormatInt(soon.UnixMilli(), 10))
	h.ServeHTTP(httptest.NewRecorder(), req)
	if !seen.Equal(soon) {
		t.Fatalf("deadline %v, want the earliest value %v", seen, soon)
	}
}

func TestMiddlewareNeverExtends(t *testing.T) {
	// The server's own deadline (here from an outer middleware) is shorter
	// than the header's: it stays.
	var seen time.Time
	inner := deadline.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen, _ = r.Context().Deadline()
	}))
	own := time.Now().Add(time.Second)
	outer := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithDeadline(r.Context(), own)
		defer cancel()
		inner.ServeHTTP(w, r.WithContext(ctx))
	})
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req.Header.Set(deadline.Header, strconv.FormatInt(time.Now().Add(time.Hour).UnixMilli(), 10))
	before := deadline.Counters()
	outer.ServeHTTP(httptest.NewRecorder(), req)
	if !seen.Equal(own) {
		t.Fatalf("the handler saw %v, want the server's own %v", seen, own)
	}
	if deadline.Counters().Adopted != before.Adopted {
		t.Fatal("a later header was counted as adopted")
	}
}

// recordRT records the requests it is asked to send.
type recordRT struct{ reqs []*http.Request }

func (r *recordRT) RoundTrip(req *http.Request) (*http.Response, error) {
	r.reqs = append(r.reqs, req)
	return &http.Response{StatusCode: 200, Body: http.NoBody, Request: req}, nil
}

func TestTransport(t *testing.T) {
	rec := &recordRT{}
	rt := deadline.Transport(rec)

	// No deadline: sent as it is.
	req, _ := http.NewRequest(http.MethodGet, "http://inventory/stock", nil)
	if _, err := rt.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if rec.reqs[0] != req || req.Header.Get(deadline.Header) != "" {
		t.Fatal("a request without a deadline was changed")
	}

	// A deadline: set on a clone, rounded down to the millisecond.
	d := time.Now().Add(time.Minute)
	ctx, cancel := context.WithDeadline(context.Background(), d)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/stock", nil)
	if _, err := rt.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	sent := rec.reqs[1]
	if sent == req || req.Header.Get(deadline.Header) != "" {
		t.Fatal("Transport modified the caller's request")
	}
	if got := sent.Header.Get(deadline.Header); got != strconv.FormatInt(d.UnixMilli(), 10) {
		t.Fatalf("header %q, want %d", got, d.UnixMilli())
	}

	// An earlier deadline already in the header is kept; a later one is not.
	for _, tc := range []struct {
		header time.Time
		want   int64
	}{
		{d.Add(-time.Second), d.Add(-time.Second).UnixMilli()},
		{d.Add(time.Hour), d.UnixMilli()},
	} {
		req, _ = http.NewRequestWithContext(ctx, http.MethodGet, "http://inventory/stock", nil)
		req.Header.Set(deadline.Header, strconv.FormatInt(tc.header.UnixMilli(), 10))
		if _, err := rt.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
		if got := rec.reqs[len(rec.reqs)-1].Header.Get(deadline.Header); got != strconv.FormatInt(tc.want, 10) {
			t.Errorf("header %v: sent %s, want %d", tc.header, got, tc.want)
		}
	}

	// Past its deadline: not sent.
	past, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()
	req, _ = http.NewRequestWithContext(past, http.MethodGet, "http://inventory/stock", nil)
	n := len(rec.reqs)
	if _, err := rt.RoundTrip(req); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RoundTrip past the deadline = %v, want context.DeadlineExceeded", err)
	}
	if len(rec.reqs) != n {
		t.Fatal("a request past its deadline was sent")
	}
}

func TestHeaderPresentCounted(t *testing.T) {
	h := deadline.Middleware(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	later := strconv.FormatInt(time.Now().Add(time.Hour).UnixMilli(), 10)
	before := deadline.Counters()
	for _, v := range []string{later, "", "soon", later + ",junk"} {
		req := httptest.NewRequest(http.MethodGet, "/", nil)
		if v != "" {
			req.Header.Set(deadline.Header, v)
		}
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	after := deadline.Counters()
	// Four requests; two carry a deadline that parses (one next to a
	// malformed value), one only a malformed value, one none.
	if n := after.Requests - before.Requests; n != 4 {
		t.Errorf("Requests counted %d, want 4", n)
	}
	if n := after.HeaderPresent - before.HeaderPresent; n != 2 {
		t.Errorf("HeaderPresent counted %d, want 2", n)
	}
	if n := after.Malformed - before.Malformed; n != 2 {
		t.Errorf("Malformed counted %d, want 2", n)
	}
}
