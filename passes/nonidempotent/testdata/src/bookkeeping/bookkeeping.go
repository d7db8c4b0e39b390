// Package bookkeeping resends requests through wrappers that read the
// method: one only to keep its cache, which chooses nothing, and one to
// choose what it retries.
package bookkeeping

import (
	"context"
	"net/http"
	"time"
)

type Executor struct {
	hc    *http.Client
	cache map[string]*http.Response
}

// Do drops its cache entry for anything but a GET, then retries the
// request whatever its method: the test of the method only keeps books.
func (e *Executor) Do(ctx context.Context, req *http.Request) (*http.Response, error) { // want Do:`idemKey\(retries=\[1\]\)`
	if req.Method != http.MethodGet {
		delete(e.cache, req.URL.String())
	}
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		if resp, err = e.hc.Do(req.WithContext(ctx)); err == nil {
			return resp, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// DoReads sends a POST once and retries the others: the method chooses
// what it retries.
func (e *Executor) DoReads(ctx context.Context, req *http.Request) (*http.Response, error) {
	if req.Method == http.MethodPost {
		return e.hc.Do(req)
	}
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		if resp, err = e.hc.Do(req.WithContext(ctx)); err == nil {
			return resp, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

func create(ctx context.Context, e *Executor, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil) // want `POST is retried by Executor.Do without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := e.Do(ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func createOnce(ctx context.Context, e *Executor, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	resp, err := e.DoReads(ctx, req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
