package main_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// The key helper and the retry helper live in one package, their callers
// in another: both drivers must carry the facts across.
const keysPkg = `package keys

import (
	"net/http"
	"time"
)

func Set(req *http.Request, k string) { req.Header.Set("Idempotency-Key", k) }

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
`

const payPkg = `package pay

import (
	"bytes"
	"net/http"

	"example.com/m/keys"
)

func send(c *http.Client, req *http.Request) error {
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func Keyed(c *http.Client, u string, body []byte, key string) error {
	return keys.Retry(func() error {
		req, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
		keys.Set(req, key)
		return send(c, req)
	})
}

func Unkeyed(c *http.Client, u string, body []byte) error {
	return keys.Retry(func() error {
		req, _ := http.NewRequest(http.MethodPost, u, bytes.NewReader(body))
		return send(c, req)
	})
}
`

func TestNonIdempotentDrivers(t *testing.T) {
	dir := module(t, map[string]string{"keys/keys.go": keysPkg, "pay/pay.go": payPkg})
	const want = "pay.go:28:13: POST is retried without an idempotency key"

	_, stderr, code := run(t, dir, "-nonidempotent", "./...")
	if code != 3 || !strings.Contains(stderr, want) || strings.Count(stderr, "POST is retried") != 1 {
		t.Errorf("retrylint -nonidempotent: exit %d, want 3 and one diagnostic %q; stderr:\n%s", code, want, stderr)
	}

	cmd := exec.Command("go", "vet", "-vettool="+retrylint, "-nonidempotent", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), want) || strings.Count(string(out), "POST is retried") != 1 {
		t.Errorf("go vet -vettool: err %v, want one diagnostic %q; output:\n%s", err, want, out)
	}

	// With another header list, the key the helper sets no longer counts.
	_, stderr, _ = run(t, dir, "-nonidempotent", "-nonidempotent.headers=X-Txn-Id", "./...")
	if n := strings.Count(stderr, "POST is retried"); n != 2 {
		t.Errorf("-nonidempotent.headers=X-Txn-Id: %d diagnostics, want 2; stderr:\n%s", n, stderr)
	}
}
