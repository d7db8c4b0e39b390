// Package clients holds POST requests sent through retrying clients.
package clients

import (
	"bytes"
	"context"
	"net/http"
	"net/url"

	resty "github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
)

func retryable(ctx context.Context, body []byte) error {
	rc := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", body) // want `POST is retried by the retryablehttp client without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func retryablePost(body []byte) error {
	rc := &retryablehttp.Client{RetryMax: 3}
	resp, err := rc.Post("https://api.example.com/charges", "application/json", body) // want `POST is retried by the retryablehttp client`
	if err != nil {
		return err
	}
	resp.Body.Close()
	resp, err = retryablehttp.PostForm("https://api.example.com/forms", url.Values{}) // want `POST is retried by the default retryablehttp client`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A field set with a retrying client elsewhere in the package.
type api struct {
	rc   *retryablehttp.Client
	hc   *http.Client
	base string
}

func newAPI() *api {
	rc := retryablehttp.NewClient()
	return &api{rc: rc, hc: rc.StandardClient(), base: "https://api.example.com"}
}

// The standard client of a retryablehttp client retries too.
func (a *api) standard(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/charges", bytes.NewReader(body)) // want `POST is retried by the retryablehttp client without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// So does an http.Client whose transport is a retryablehttp round tripper.
func transport(ctx context.Context, body []byte) error {
	hc := &http.Client{Transport: &retryablehttp.RoundTripper{}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, "https://api.example.com/orders/1", bytes.NewReader(body)) // want `PATCH is retried by the retryablehttp round tripper`
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A request converted from a standard one.
func (a *api) converted(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/charges", bytes.NewReader(body)) // want `POST is retried by the retryablehttp client`
	if err != nil {
		return err
	}
	rreq, err := retryablehttp.FromRequest(req)
	if err != nil {
		return err
	}
	resp, err := a.rc.Do(rreq)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// resty retries every method once SetRetryCount is set.
func restyChain(body any) error {
	client := resty.New().SetRetryCount(3)
	_, err := client.R().SetBody(body).Post("https://api.example.com/charges") // want `POST is retried by resty without an idempotency key`
	return err
}

type shop struct {
	http *resty.Client
}

func newShop() *shop {
	s := &shop{http: resty.New()}
	s.http.SetRetryCount(2)
	return s
}

func (s *shop) order(body any) error {
	req := s.http.R().SetBody(body) // want `PATCH is retried by resty without`
	_, err := req.Execute("PATCH", "https://api.example.com/orders/1")
	return err
}

// A send wrapper of the package that retries whatever it is given.
func (a *api) doRetry(req *http.Request) (*http.Response, error) { // want doRetry:`idemKey\(retries=\[0\]\)`
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = http.DefaultClient.Do(req); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

func (a *api) viaWrapper(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/charges", bytes.NewReader(body)) // want `POST is retried by api.doRetry without an idempotency key`
	if err != nil {
		return err
	}
	req.Header = make(http.Header)
	resp, err := a.doRetry(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
