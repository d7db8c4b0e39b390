// Package deadline propagates a request's deadline over HTTP, so that every
// service a request passes through stops working on it at the same instant
// instead of each starting a fresh timeout.
//
// The edge of the system sets the deadline once, as the context of the
// request it handles (context.WithTimeout). Transport sends it with every
// outbound request as an absolute instant, the header X-Request-Deadline
// in Unix milliseconds, and Middleware adopts it in the next service:
//
//	// At the edge and in every service: adopt an incoming deadline.
//	http.ListenAndServe(addr, deadline.Middleware(mux))
//
//	// In every service: send the deadline on.
//	client := &http.Client{Transport: deadline.Transport(http.DefaultTransport)}
//	req, _ := http.NewRequestWithContext(r.Context(), "GET", url, nil)
//	resp, err := client.Do(req)
//
// A deadline is adopted, never extended: Middleware gives the handler the
// earlier of the header's deadline and the one its context already has
// (from the server or an earlier middleware), and answers 504 Gateway
// Timeout at once, without calling the handler, when the deadline has
// already passed. Transport does not send a request whose deadline has
// passed. A malformed header is ignored, and counted (Counters), never
// trusted.
//
// Counters counts what Middleware and Transport did, for metrics; the
// modules …/budget/prometheus and …/budget/otel export them.
//
// # Tracing
//
// The package depends on no tracing library. To record the deadline on
// the request's span as the attribute request.deadline_ms (the deadline in
// Unix milliseconds, the header's value, so that a trace shows the same
// deadline at every hop), use the Middleware of …/budget/otel in place of
// this one, or set it in a handler inside Middleware:
//
//	if d, ok := r.Context().Deadline(); ok {
//		trace.SpanFromContext(r.Context()).SetAttributes(attribute.Int64("request.deadline_ms", d.UnixMilli()))
//	}
//
// The header is an absolute time, so the hosts' clocks must agree: skew
// between two hosts shifts the deadline by as much. Milliseconds are
// rounded down, so a deadline never moves later on the way.
//
// The package imports only the standard library.
package deadline

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Header is the name of the header that carries the deadline: the Unix
// time in milliseconds, a decimal integer.
const Header = "X-Request-Deadline"

// Stats counts what Middleware and Transport did since the program started,
// in every use of the package, for metrics.
//
// The signals to watch are the deadlines exceeded, Expired + NotSent (work
// refused because its deadline had passed), and the share of requests that
// arrive with a deadline, HeaderPresent / Requests: below 1 in a service
// behind the edge, some caller does not send its deadline on (the edge
// itself receives none).
type Stats struct {
	Requests      uint64 // requests that Middleware handled
	HeaderPresent uint64 // requests that carried a deadline in the header (a value that parsed)
	Adopted       uint64 // requests whose deadline the header set or shortened
	Expired       uint64 // requests answered 504 because their deadline had passed
	Malformed     uint64 // header values ignored because they did not parse
	NotSent       uint64 // outbound requests not sent because their deadline had passed
}

var counters struct {
	requests, present, adopted, expired, malformed, notSent atomic.Uint64
}

// Counters returns the package's counts. It does not lock.
func Counters() Stats {
	return Stats{
		Requests:      counters.requests.Load(),
		HeaderPresent: counters.present.Load(),
		Adopted:       counters.adopted.Load(),
		Expired:       counters.expired.Load(),
		Malformed:     counters.malformed.Load(),
		NotSent:       counters.notSent.Load(),
	}
}

// parse returns the earliest deadline in the header's values, and counts
// the values that do not parse.
func parse(values []string) (time.Time, bool) {
	var earliest time.Time
	found := false
	for _, v := range values {
		for _, field := range strings.Split(v, ",") {
			ms, ok := parseMillis(strings.TrimSpace(field))
			if !ok {
				counters.malformed.Add(1)
				continue
			}
			if t := time.UnixMilli(ms); !found || t.Before(earliest) {
				earliest, found = t, true
			}
		}
	}
	return earliest, found
}

// parseMillis accepts only a plain decimal integer: no sign, no spaces, no
// fraction, at most 18 digits (until the year 33 658 000).
func parseMillis(s string) (int64, bool) {
	if s == "" || len(s) > 18 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	ms, err := strconv.ParseInt(s, 10, 64)
	return ms, err == nil
}

// Middleware adopts the deadline of the X-Request-Deadline header: next
// runs with a context whose deadline is the earlier of the header's and the
// request context's own. When that deadline has already passed, the request
// is answered 504 Gateway Timeout at once and next is not called. Requests
// without the header, or with a malformed one (ignored and counted), keep
// their context.
func Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		counters.requests.Add(1)
		ctx := r.Context()
		if d, ok := parse(r.Header.Values(Header)); ok {
			counters.present.Add(1)
			if own, has := ctx.Deadline(); !has || d.Before(own) {
				counters.adopted.Add(1)
				var cancel context.CancelFunc
				ctx, cancel = context.WithDeadline(ctx, d)
				defer cancel()
				r = r.WithContext(ctx)
			}
		}
		if d, has := ctx.Deadline(); has && !time.Now().Before(d) {
			counters.expired.Add(1)
			http.Error(w, "deadline exceeded before the request was handled", http.StatusGatewayTimeout)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Transport returns a RoundTripper that sends each request with the
// deadline of its context in the X-Request-Deadline header, through next
// (http.DefaultTransport if nil). A request whose deadline has passed is
// not sent: RoundTrip returns an error wrapping context.DeadlineExceeded.
// A request without a deadline is sent as it is. The request is not
// modified: the header goes on a clone. If the request already carries an
// earlier deadline in the header, that one is kept.
func Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &transport{next: next}
}

type transport struct{ next http.RoundTripper }

func (t *transport) RoundTrip(r *http.Request) (*http.Response, error) {
	d, ok := r.Context().Deadline()
	if !ok {
		return t.next.RoundTrip(r)
	}
	if !time.Now().Before(d) {
		counters.notSent.Add(1)
		if r.Body != nil {
			r.Body.Close() // a RoundTripper closes the body, even on error
		}
		return nil, fmt.Errorf("deadline: %s %s not sent: %w", r.Method, r.URL.Redacted(), context.DeadlineExceeded)
	}
	if set, has := parse(r.Header.Values(Header)); has && set.Before(d) {
		d = set
	}
	out := r.Clone(r.Context())
	out.Header.Set(Header, strconv.FormatInt(d.UnixMilli(), 10))
	return t.next.RoundTrip(out)
}
