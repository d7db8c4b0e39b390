// Package send sends requests: Retried sends its request inside a retry
// loop, whatever the method; SetKey sets an idempotency key (key facts).
package send

import (
	"net/http"
	"time"
)

// Retried sends req up to 3 times.
func Retried(hc *http.Client, req *http.Request) (*http.Response, error) {
	var (
		resp *http.Response
		err  error
	)
	for i := 0; i < 3; i++ {
		if resp, err = hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

// Once sends req once (the look-alike of Retried).
func Once(hc *http.Client, req *http.Request) (*http.Response, error) {
	return hc.Do(req)
}

// SetKey sets the request's idempotency key.
func SetKey(req *http.Request, key string) { req.Header.Set("Idempotency-Key", key) }
