package retry_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/retrylint/retrylint/budget/retry"
)

func TestHTTPErrorOf(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/busy":
			w.Header().Set("Retry-After", "3")
			w.WriteHeader(http.StatusServiceUnavailable)
		case "/missing":
			w.WriteHeader(http.StatusNotFound)
		case "/moved":
			w.WriteHeader(http.StatusNotModified)
		}
	}))
	defer srv.Close()
	get := func(path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		req.URL.User = url.UserPassword("user", "secret")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}

	err := retry.HTTPErrorOf(get("/busy"))
	var he *retry.HTTPError
	if !errors.As(err, &he) {
		t.Fatalf("HTTPErrorOf(503) = %v, want an *HTTPError", err)
	}
	if he.StatusCode != 503 || he.RetryAfter != 3*time.Second || he.Method != "GET" || !strings.HasSuffix(he.URL, "/busy") {
		t.Fatalf("HTTPErrorOf(503) = %+v, want 503, Retry-After 3s, GET and the URL", he)
	}
	if strings.Contains(he.URL, "secret") || !strings.Contains(he.URL, "user:xxxxx@") {
		t.Fatalf("URL %q: the password is not redacted", he.URL)
	}
	want := fmt.Sprintf("GET %q: HTTP 503 Service Unavailable (Retry-After 3s)", he.URL)
	if err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}
	he.Service = "inventory"
	if !strings.HasPrefix(he.Error(), "inventory: GET ") {
		t.Fatalf("message %q does not start with the service", he)
	}

	if err := retry.HTTPErrorOf(get("/missing")); !errors.As(err, &he) || he.StatusCode != 404 || he.RetryAfter != 0 {
		t.Fatalf("HTTPErrorOf(404) = %v, want an *HTTPError of 404", err)
	}
	for _, path := range []string{"/", "/moved"} {
		if err := retry.HTTPErrorOf(get(path)); err != nil {
			t.Fatalf("HTTPErrorOf(%s) = %v, want nil", path, err)
		}
	}
	if err := retry.HTTPErrorOf(nil); err != nil {
		t.Fatalf("HTTPErrorOf(nil) = %v, want nil", err)
	}
}

func TestHTTPStatusError(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string // "" for nil
	}{
		{200, ""},
		{399, ""},
		{400, "HTTP 400 Bad Request"},
		{502, "HTTP 502 Bad Gateway"},
		{599, "HTTP 599"},
	} {
		err := retry.HTTPStatusError(tc.status)
		if tc.want == "" {
			if err != nil {
				t.Errorf("HTTPStatusError(%d) = %v, want nil", tc.status, err)
			}
			continue
		}
		var he *retry.HTTPError
		if !errors.As(err, &he) || he.StatusCode != tc.status || err.Error() != tc.want {
			t.Errorf("HTTPStatusError(%d) = %v, want an *HTTPError %q", tc.status, err, tc.want)
		}
	}
}

// fakeNetError is a net.Error of a chosen kind.
type fakeNetError struct{ timeout bool }

func (e fakeNetError) Error() string   { return fmt.Sprintf("net (timeout %v)", e.timeout) }
func (e fakeNetError) Timeout() bool   { return e.timeout }
func (e fakeNetError) Temporary() bool { return e.timeout }

func TestClassifiers(t *testing.T) {
	wrap := func(err error) error { return fmt.Errorf("inventory: %w", err) }
	type want struct{ server, many, timeout, transient bool }
	for _, tc := range []struct {
		name string
		err  error
		want want
	}{
		{"500", retry.HTTPStatusError(500), want{server: true, transient: true}},
		{"wrapped 503", wrap(retry.HTTPStatusError(503)), want{server: true, transient: true}},
		{"501", retry.HTTPStatusError(501), want{}},
		{"505", retry.HTTPStatusError(505), want{}},
		{"429", retry.HTTPStatusError(429), want{many: true, transient: true}},
		{"404", retry.HTTPStatusError(404), want{}},
		{"net timeout", &net.OpError{Op: "dial", Net: "tcp", Err: fakeNetError{true}}, want{timeout: true, transient: true}},
		{"net error, not a timeout", &net.OpError{Op: "dial", Net: "tcp", Err: fakeNetError{false}}, want{}},
		{"os deadline", wrap(os.ErrDeadlineExceeded), want{timeout: true, transient: true}},
		{"attempt's own timeout", wrap(context.DeadlineExceeded), want{timeout: true, transient: true}},
		{"cancelled", wrap(context.Canceled), want{}},
		{"plain", errors.New("parse error"), want{}},
	} {
		got := want{retry.IsServerError(tc.err), retry.IsTooManyRequests(tc.err), retry.IsTimeout(tc.err), retry.IsTransient(tc.err)}
		if got != tc.want {
			t.Errorf("%s: server, 429, timeout, transient = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestClientTimeoutIsTimeout(t *testing.T) {
	// The error of a real http.Client whose Timeout expires.
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	client := srv.Client()
	client.Timeout = 20 * time.Millisecond
	_, err := client.Get(srv.URL)
	if err == nil || !retry.IsTimeout(err) || !retry.IsTransient(err) {
		t.Fatalf("client timeout %v: IsTimeout %v, want true", err, retry.IsTimeout(err))
	}
}

func TestAnyOf(t *testing.T) {
	refused := errors.New("connection refused")
	isRefused := func(err error) bool { return errors.Is(err, refused) }
	c := retry.AnyOf(retry.IsTooManyRequests, nil, isRefused)
	if !c(refused) || !c(retry.HTTPStatusError(429)) || c(retry.HTTPStatusError(500)) {
		t.Fatal("AnyOf does not report exactly the union of its classifiers")
	}
	if retry.AnyOf()(refused) {
		t.Fatal("AnyOf() reported an error retryable")
	}
}

func TestDoWithIsTransient(t *testing.T) {
	// A 503, then a 404: the 404 is final.
	statuses := []int{503, 404, 200}
	calls := 0
	err := retry.Do(context.Background(), retry.Policy{MaxAttempts: 5, ShouldRetry: retry.IsTransient}, func(context.Context) error {
		calls++
		return retry.HTTPStatusError(statuses[calls-1])
	})
	var he *retry.HTTPError
	if !errors.Is(err, retry.ErrFinal) || !errors.As(err, &he) || he.StatusCode != 404 || calls != 2 {
		t.Fatalf("Do = %v after %d attempts, want the final 404 after 2", err, calls)
	}
}
