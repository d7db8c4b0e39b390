package retry

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// An HTTPError is the error of an HTTP response whose status the caller
// treats as a failure, with the delay its Retry-After header asks for and
// the request it answered. HTTPErrorOf makes one from a response,
// HTTPStatusError from a status alone.
type HTTPError struct {
	StatusCode int
	// RetryAfter is the delay from the Retry-After header of a 429 or
	// 503 response (delay-seconds or an HTTP-date), 0 when there is
	// none, it does not parse, or the status is another.
	RetryAfter time.Duration
	// Method and URL are those of the request, when known; the URL's
	// password, if any, is redacted.
	Method, URL string
	// Service names the dependency that answered, when the caller sets
	// it (on the result of NewHTTPError, or in a literal).
	Service string
}

// NewHTTPError returns the HTTPError of resp, whatever its status, reading
// Retry-After relative to the current time, and the method and URL of
// resp.Request when it is set. It does not read or close the body.
func NewHTTPError(resp *http.Response) *HTTPError {
	e := &HTTPError{StatusCode: resp.StatusCode}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			e.RetryAfter = d
		}
	}
	if r := resp.Request; r != nil {
		e.Method = r.Method
		if r.URL != nil {
			e.URL = r.URL.Redacted()
		}
	}
	return e
}

// HTTPErrorOf returns the *HTTPError of resp if its status is a failure
// (400 or more), and nil otherwise or if resp is nil, so that a client
// checks a response in one line:
//
//	if err := retry.HTTPErrorOf(resp); err != nil {
//		return err
//	}
//
// Like NewHTTPError, it reads Retry-After, the method and the URL, and
// does not read or close the body.
func HTTPErrorOf(resp *http.Response) error {
	if resp == nil || resp.StatusCode < 400 {
		return nil
	}
	return NewHTTPError(resp)
}

// HTTPStatusError returns an *HTTPError of the status alone if it is a
// failure (400 or more), and nil otherwise: for a client that only has
// the status, such as one generated from an API description.
func HTTPStatusError(status int) error {
	if status < 400 {
		return nil
	}
	return &HTTPError{StatusCode: status}
}

// Error returns the service, the request and the status, such as
// `payments: POST "https://payments.internal/charge": HTTP 503 Service
// Unavailable (Retry-After 2s)`; the parts that are not known are left out.
func (e *HTTPError) Error() string {
	var sb strings.Builder
	if e.Service != "" {
		sb.WriteString(e.Service)
		sb.WriteString(": ")
	}
	if e.Method != "" {
		sb.WriteString(e.Method)
		sb.WriteString(" ")
	}
	if e.URL != "" {
		sb.WriteString(strconv.Quote(e.URL))
		sb.WriteString(": ")
	} else if e.Method != "" {
		sb.WriteString("request: ")
	}
	sb.WriteString("HTTP ")
	sb.WriteString(strconv.Itoa(e.StatusCode))
	if text := http.StatusText(e.StatusCode); text != "" {
		sb.WriteString(" ")
		sb.WriteString(text)
	}
	if e.RetryAfter > 0 {
		fmt.Fprintf(&sb, " (Retry-After %v)", e.RetryAfter)
	}
	return sb.String()
}

// HTTPRetryAfter is a Policy.RetryAfter for errors that wrap an HTTPError:
// the delay of a 429 or 503 response that carried Retry-After.
func HTTPRetryAfter(err error) (time.Duration, bool) {
	var he *HTTPError
	if errors.As(err, &he) && he.RetryAfter > 0 {
		return he.RetryAfter, true
	}
	return 0, false
}

// ParseRetryAfter parses the value of a Retry-After header: a number of
// seconds, or an HTTP-date, taken relative to now (a date in the past is a
// delay of 0). It reports false for an empty or malformed value.
func ParseRetryAfter(value string, now time.Time) (time.Duration, bool) {
	value = strings.TrimSpace(value)
	if value == "" {
		return 0, false
	}
	if value[0] >= '0' && value[0] <= '9' {
		secs, err := strconv.ParseInt(value, 10, 64)
		if err != nil || secs > int64(maxDuration/time.Second) {
			return 0, false
		}
		return time.Duration(secs) * time.Second, true
	}
	t, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(0, t.Sub(now)), true
}
