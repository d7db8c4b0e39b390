// Package reusedbody defines an Analyzer that reports an HTTP request with
// a body built once and sent again on every attempt of a retry.
//
// # Analyzer reusedbody
//
// reusedbody: report requests whose body is sent only once
//
// An *http.Request's body is a reader: the first Do reads it to the end
// (and closes it). A retry that sends the same request again sends what is
// left, nothing: over HTTP/2, the protocol HTTPS APIs speak, the server
// gets an empty body and the client no error; through a round tripper of
// other code, or with a body NewRequest gives no GetBody (an
// io.NopCloser, an io.MultiReader, a reader of the user's), an empty or
// partial body, or "http: ContentLength=N with Body length 0". (Over
// HTTP/1.1, net/http's Transport happens to rewind a body that has a
// GetBody when nothing of the request was written yet.) The retry meant to
// ride out an outage fails on its own, or, worse, succeeds with the wrong
// payload.
//
// The pass reports a request built by http.NewRequest or
// http.NewRequestWithContext with a body — a reader over data
// (bytes.NewReader, bytes.NewBuffer, bytes.NewBufferString,
// strings.NewReader, possibly wrapped by io.NopCloser, io.MultiReader or
// io.LimitReader), a filled bytes.Buffer (&buf), or a variable holding
// one — before a retry loop or a retry library's or helper's operation
// (the shared retry-site analysis), and sent inside it on every attempt
// by Do or RoundTrip of *http.Client, *http.Transport, http.RoundTripper
// or another interface (also through req.WithContext and req.Clone, which
// share the body), with nothing between the attempts that gives it a new
// body. The diagnostic is at the construction, with the send as related
// information.
//
// Bad:
//
//	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(payload))
//	if err != nil {
//		return err
//	}
//	for attempt := 0; attempt < 3; attempt++ {
//		resp, err := c.hc.Do(req) // the second attempt sends no body
//		...
//	}
//
// Good:
//
//	for attempt := 0; attempt < 3; attempt++ {
//		req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(payload))
//		if err != nil {
//			return err
//		}
//		resp, err := c.hc.Do(req)
//		...
//	}
//
// Not reported: requests without a body (nil, http.NoBody, a reader over
// constant empty data, which net/http turns into NoBody); requests built
// in the attempt; requests whose body the attempts reset (req.Body = ...,
// req.GetBody()) or whose reader they rewind or refill (any use of it);
// requests the attempts hand to other code, which may reset them (a
// signer, a helper); requests sent by a concrete client type of other
// code, which may replay the body itself, and go-retryablehttp requests,
// which do; bodies the pass cannot see into (a parameter, a reader from
// a call); sites whose retries are exempt by the model (conflict-only
// retries, go-retry operations that never mark an error retryable).
//
// Fix: move the construction into the attempt, with the check of its
// error right after it and the statements before the retry that set the
// request up (its headers), when its inputs do not change between
// attempts and its body is made from data rather than from a reader made
// before (a reader defined just for it moves too). The error variable
// stays declared where it was when code after the retry reads it. No fix
// when a moved statement would return out of a retry library's operation
// (a failed construction would then be retried), jump, or read a name
// that means something else inside the attempt, and none in generated
// files.
//
// Limitations: requests built by a helper of the user's code (a function
// returning the request) and retries in another function than the one
// that builds the request (a retrying RoundTripper given the request) are
// not followed.
package reusedbody
