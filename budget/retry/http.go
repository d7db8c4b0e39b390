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
// treats as a failure, with the delay its Retry-After header asks for.
type HTTPError struct {
	StatusCode int
	// RetryAfter is the delay from the Retry-After header of a 429 or
	// 503 response (delay-seconds or an HTTP-date), 0 when there is
	// none, it does not parse, or the status is another.
	RetryAfter time.Duration
}

// NewHTTPError returns the HTTPError of resp, reading Retry-After
// relative to the current time.
func NewHTTPError(resp *http.Response) *HTTPError {
	e := &HTTPError{StatusCode: resp.StatusCode}
	if resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable {
		if d, ok := ParseRetryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			e.RetryAfter = d
		}
	}
	return e
}

func (e *HTTPError) Error() string {
	s := fmt.Sprintf("HTTP %d %s", e.StatusCode, http.StatusText(e.StatusCode))
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (Retry-After %v)", e.RetryAfter)
	}
	return s
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
