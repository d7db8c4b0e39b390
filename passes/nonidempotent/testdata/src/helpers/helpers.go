// Package helpers holds the user's own retry helper and helpers that set
// idempotency keys; their facts travel to package helperuse.
package helpers

import (
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Retry retries op up to three times.
func Retry(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// WithKey sets a key the caller made.
func WithKey(req *http.Request, key string) { // want WithKey:`idemKey\(sets=\[0\]\)`
	req.Header.Set("Idempotency-Key", key)
}

// WithNewKey makes a key on every call.
func WithNewKey(req *http.Request) { // want WithNewKey:`idemKey\(sets=\[0\], fresh=\[0\]\)`
	req.Header.Set("Idempotency-Key", uuid.NewString())
}

// SetKey sets the key on a header map, through WithKey's sibling.
func SetKey(h http.Header, key string) { // want SetKey:`idemKey\(sets=\[0\]\)`
	h["Idempotency-Key"] = []string{key}
}

// Sign sets it through SetKey.
func Sign(req *http.Request, key string) { // want Sign:`idemKey\(sets=\[0\]\)`
	SetKey(req.Header, key)
}

// Copy sets headers it cannot name.
func Copy(req *http.Request, from map[string]string) { // want Copy:`idemKey\(dynamic=\[0\]\)`
	for k, v := range from {
		req.Header.Set(k, v)
	}
}

// NewKey returns a new key on every call.
func NewKey() string { // want NewKey:`idemKey\(generates\)`
	return "k-" + strconv.FormatInt(time.Now().UnixNano(), 36)
}

// Do sends req until it succeeds, three times at most.
func Do(c *http.Client, req *http.Request) (*http.Response, error) { // want Do:`idemKey\(retries=\[1\]\)`
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}
