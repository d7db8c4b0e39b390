package perdep

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"time"
)

// Send retries a request its caller built: the code names no host, so
// each request's host gets its own budget, from a registry keyed by it.
func Send(hc *http.Client, req *http.Request) (*http.Response, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var resp *http.Response
		resp, err = hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("send: %s", resp.Status)
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// Resend builds a new request for each attempt: the request the guard
// would ask about is not the one the loop started with, so no fix.
func Resend(hc *http.Client, url string) (*http.Response, error) {
	var req *http.Request
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		req, err = http.NewRequest("GET", url, nil)
		if err != nil {
			return nil, err
		}
		var resp *http.Response
		resp, err = hc.Do(req)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("resend: %s", resp.Status)
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// Upload sends a request built with a body on every attempt, which sends
// the body only once: reusedbody's fix builds the request in the attempt,
// where a budget keyed by it before the loop is out of reach, so no fix.
func Upload(hc *http.Client, url string, payload []byte) error {
	req, err := http.NewRequest("PUT", url, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var resp *http.Response
		resp, err = hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Transfer's retry helper is a function literal held by a local: it gets
// a budget parameter, and its two calls pass their own dependencies'.
func (s *Shop) Transfer(ctx context.Context, amount string) error {
	exec := func(run func() (bool, error)) error {
		var err error
		for attempt := 0; attempt < 3; attempt++ { // want `retry loop of retry helper exec makes up to 3 attempts`
			var retry bool
			retry, err = run()
			if !retry {
				return err
			}
			time.Sleep(time.Millisecond)
		}
		return err
	}
	if err := exec(func() (bool, error) {
		err := s.audit.Put(ctx, amount)
		return err != nil, err
	}); err != nil {
		return err
	}
	return exec(func() (bool, error) {
		err := s.ledger.Put(ctx, amount)
		return err != nil, err
	})
}
