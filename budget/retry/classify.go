package retry

import (
	"context"
	"errors"
	"net"
	"net/http"
)

// The classifiers below are for Policy.ShouldRetry: each reports whether
// an error, or an error it wraps, is of a class worth retrying. Retry only
// requests that are safe to repeat: a POST that timed out may have been
// carried out.

// IsTransient reports whether err is worth retrying by the usual rules of
// HTTP clients: a server error (IsServerError), a 429 (IsTooManyRequests)
// or a timeout (IsTimeout). Any other error, such as a 404 or a refused
// TLS certificate, is final.
func IsTransient(err error) bool {
	return IsServerError(err) || IsTooManyRequests(err) || IsTimeout(err)
}

// IsServerError reports whether err wraps an *HTTPError with a 5xx status,
// other than 501 Not Implemented and 505 HTTP Version Not Supported, which
// no retry changes.
func IsServerError(err error) bool {
	var he *HTTPError
	if !errors.As(err, &he) {
		return false
	}
	s := he.StatusCode
	return s >= 500 && s <= 599 && s != http.StatusNotImplemented && s != http.StatusHTTPVersionNotSupported
}

// IsTooManyRequests reports whether err wraps an *HTTPError with the
// status 429 Too Many Requests. Do waits at least its Retry-After with
// Policy.RetryAfter set to HTTPRetryAfter.
func IsTooManyRequests(err error) bool {
	var he *HTTPError
	return errors.As(err, &he) && he.StatusCode == http.StatusTooManyRequests
}

// IsTimeout reports whether err is a network timeout: it wraps a net.Error
// whose Timeout method reports true (a dial, a TLS handshake, a read, the
// Timeout of an http.Client, os.ErrDeadlineExceeded) or
// context.DeadlineExceeded, as from a timeout that the operation set on
// its own attempt. When the context of Do itself expires, Do stops
// without asking ShouldRetry.
func IsTimeout(err error) bool {
	if errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// AnyOf returns a classifier that reports whether any of classifiers
// does, for example retry.AnyOf(retry.IsTransient, isConnectionRefused).
func AnyOf(classifiers ...func(error) bool) func(error) bool {
	return func(err error) bool {
		for _, c := range classifiers {
			if c != nil && c(err) {
				return true
			}
		}
		return false
	}
}
