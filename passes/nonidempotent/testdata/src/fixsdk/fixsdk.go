// Package fixsdk holds SDK shapes and their fixes: a request handed to a
// callback after a retrying client sent it gets one; a request value
// returned by a builder and a literal whose method is assigned after it
// get none (a literal may have no header map).
package fixsdk

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

var errGaveUp = errors.New("gave up")

func newRequest(method string, u *url.URL) http.Request { // want newRequest:`idemKey\(builds=\[0\]\)`
	req := http.Request{URL: u, Header: http.Header{}}
	req.Method = method
	return req
}

func create(ctx context.Context, hc *http.Client, u *url.URL) error {
	req := newRequest(http.MethodPost, u) // want `POST is retried without an idempotency key`
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(&req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

func cancel(ctx context.Context, hc *http.Client, u *url.URL) error {
	req := &http.Request{URL: u, Header: http.Header{}} // want `POST is retried without an idempotency key`
	req.Method = http.MethodPost
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

type notifier struct {
	hooks []func(*http.Request, *http.Response)
}

func (n *notifier) sent(req *http.Request, resp *http.Response) { // want sent:`idemKey\(dynamic=\[0\]\)`
	for _, h := range n.hooks {
		h(req, resp)
	}
}

func importAll(ctx context.Context, n *notifier, u string) error {
	rc := retryablehttp.NewClient().StandardClient()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, nil) // want `POST is retried by the retryablehttp client without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	n.sent(req, resp)
	return resp.Body.Close()
}
