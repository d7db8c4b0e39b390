// Package sdkchain is an API SDK whose calls go through wrappers to one
// retry loop that builds each attempt's request with the method it was
// given, and names the method in its log line and its error.
package sdkchain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"time"
)

type API struct {
	hc      *http.Client
	base    string
	headers http.Header // headers every request carries; no code gives it a key
	logger  *log.Logger
}

// copyHeader copies every header of src onto dst.
func copyHeader(dst, src http.Header) { // want copyHeader:`idemKey\(copies=\[\[0 1\]\]\)`
	for k, vs := range src {
		dst[k] = vs
	}
}

var errGaveUp = errors.New("gave up")

// request builds one request with the method it is given, carrying the
// client's headers and the caller's, and sends it once.
func (api *API) request(ctx context.Context, method, uri string, headers http.Header) (*http.Response, error) { // want request:`idemKey\(sends=\[1\], carries=\[3\]\)`
	req, err := http.NewRequestWithContext(ctx, method, api.base+uri, nil)
	if err != nil {
		return nil, fmt.Errorf("HTTP request creation failed: %w", err)
	}
	combined := make(http.Header)
	copyHeader(combined, api.headers)
	copyHeader(combined, headers)
	req.Header = combined
	req.Header.Set("Content-Type", "application/json")
	return api.hc.Do(req)
}

// makeRequest retries whatever method it is given: the log line and the
// error name the method, they do not decide on it.
func (api *API) makeRequest(ctx context.Context, method, uri string, headers http.Header) ([]byte, error) { // want makeRequest:`idemKey\(sendsMethod=\[1\], carries=\[3\]\)`
	for i := 0; i <= 3; i++ {
		if i > 0 {
			api.logger.Printf("retry attempt %d for request %s %s", i, method, uri)
			time.Sleep(time.Duration(i) * time.Second)
		}
		resp, err := api.request(ctx, method, uri, headers)
		if err != nil || resp.StatusCode >= 500 {
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, fmt.Errorf("%s %s: %w", method, uri, errGaveUp)
}

func (api *API) makeRequestContext(ctx context.Context, method, uri string) ([]byte, error) { // want makeRequestContext:`idemKey\(sendsMethod=\[1\]\)`
	return api.makeRequest(ctx, method, uri, nil)
}

func (api *API) makeRequestWithHeaders(ctx context.Context, method, uri string, headers http.Header) ([]byte, error) { // want makeRequestWithHeaders:`idemKey\(sendsMethod=\[1\], carries=\[3\]\)`
	return api.makeRequest(ctx, method, uri, headers)
}

func uploadHeaders() http.Header {
	return http.Header{"Content-Type": {"multipart/form-data"}}
}

// Upload's headers name no key.
func (api *API) Upload(ctx context.Context) error {
	_, err := api.makeRequestWithHeaders(ctx, http.MethodPost, "/uploads", uploadHeaders()) // want `POST is retried by API.makeRequestWithHeaders without an idempotency key`
	return err
}

// Charge's headers carry a key, made once for every attempt.
func (api *API) Charge(ctx context.Context, key string) error {
	_, err := api.makeRequestWithHeaders(ctx, http.MethodPost, "/charges", http.Header{"Idempotency-Key": {key}})
	return err
}

// Refund fills a map of its own with a key.
func (api *API) Refund(ctx context.Context, key string) error {
	h := make(http.Header)
	h.Set("Idempotency-Key", key)
	_, err := api.makeRequestWithHeaders(ctx, http.MethodPost, "/refunds", h)
	return err
}

// Send passes on the caller's headers, which may hold a key.
func (api *API) Send(ctx context.Context, h http.Header) error {
	_, err := api.makeRequestWithHeaders(ctx, http.MethodPost, "/messages", h)
	return err
}

// CreateZone is retried by the chain.
func (api *API) CreateZone(ctx context.Context) error {
	_, err := api.makeRequestContext(ctx, http.MethodPost, "/zones") // want `POST is retried by API.makeRequestContext without an idempotency key`
	return err
}

// GetZone is a GET: never reported.
func (api *API) GetZone(ctx context.Context, id string) error {
	_, err := api.makeRequestContext(ctx, http.MethodGet, "/zones/"+id)
	return err
}

func describe(method string) string { return "request " + method }

// makeRequestRead retries only reads: it decides on the method.
func (api *API) makeRequestRead(ctx context.Context, method, uri string) ([]byte, error) {
	for i := 0; i <= 3; i++ {
		if i > 0 && method != http.MethodGet {
			break
		}
		resp, err := api.request(ctx, method, uri, nil)
		if err != nil {
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, errGaveUp
}

// makeRequestNamed hands the method to a function of its own, which may
// decide on it: it reads it.
func (api *API) makeRequestNamed(ctx context.Context, method, uri string) ([]byte, error) {
	for i := 0; i <= 3; i++ {
		api.logger.Print(describe(method))
		resp, err := api.request(ctx, method, uri, nil)
		if err != nil {
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, errGaveUp
}

// UpdateZone and RenameZone go through wrappers that read the method.
func (api *API) UpdateZone(ctx context.Context, id string) error {
	_, err := api.makeRequestRead(ctx, http.MethodPatch, "/zones/"+id)
	return err
}

func (api *API) RenameZone(ctx context.Context, id string) error {
	_, err := api.makeRequestNamed(ctx, http.MethodPatch, "/zones/"+id)
	return err
}

func withKey(h http.Header, key string) { // want withKey:`idemKey\(sets=\[0\]\)`
	h.Set("Idempotency-Key", key)
}

// Import's local headers name no key.
func (api *API) Import(ctx context.Context) error {
	h := http.Header{"Content-Type": {"text/plain"}}
	_, err := api.makeRequestWithHeaders(ctx, http.MethodPost, "/imports", h) // want `POST is retried by API.makeRequestWithHeaders without an idempotency key`
	return err
}

// Order's local headers are given a key by a function of the package.
func (api *API) Order(ctx context.Context, key string) error {
	h := http.Header{}
	withKey(h, key)
	_, err := api.makeRequestWithHeaders(ctx, http.MethodPost, "/orders", h)
	return err
}

type signer interface {
	Sign(h http.Header)
}

// Transfer's local headers are handed to an interface method, which may
// set anything on them.
func (api *API) Transfer(ctx context.Context, s signer) error {
	h := http.Header{}
	s.Sign(h)
	_, err := api.makeRequestWithHeaders(ctx, http.MethodPost, "/transfers", h)
	return err
}

// AuthSource names the authentication header of every request.
type AuthSource interface {
	Header(ctx context.Context) (key, value string, err error)
}

const jobTokenHeader = "JOB-TOKEN"

type TokenSource struct{ token string }

func (s TokenSource) Header(context.Context) (string, string, error) {
	return "Authorization", "Bearer " + s.token, nil
}

type JobSource struct{ token string }

func (s *JobSource) Header(context.Context) (string, string, error) {
	return jobTokenHeader, s.token, nil
}

// RenewingSource embeds another source, which it sets itself.
type RenewingSource struct {
	AuthSource
}

type AuthClient struct {
	hc   *http.Client
	auth AuthSource
}

// send sets the header the authentication source names, which is never
// a key: every source of the package returns a constant name.
func (c *AuthClient) send(ctx context.Context, method, url string) (*http.Response, error) { // want send:`idemKey\(sendsMethod=\[1\]\)`
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return nil, err
		}
		name, value, aerr := c.auth.Header(ctx)
		if aerr != nil {
			return nil, aerr
		}
		req.Header.Set(name, value)
		if resp, err = c.hc.Do(req); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

func (c *AuthClient) Create(ctx context.Context) error {
	resp, err := c.send(ctx, http.MethodPost, "/things") // want `POST is retried by AuthClient.send without an idempotency key`
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Namer is a source of header names, one of which is a key.
type Namer interface {
	Name() string
}

type keyNamer struct{}

func (keyNamer) Name() string { return "Idempotency-Key" }

type traceNamer struct{}

func (traceNamer) Name() string { return "X-Trace-Id" }

type NamedClient struct {
	hc    *http.Client
	namer Namer
}

// send sets a header a Namer names; one of the package's names a key.
func (c *NamedClient) send(ctx context.Context, method, url, v string) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		var req *http.Request
		req, err = http.NewRequestWithContext(ctx, method, url, nil)
		if err != nil {
			return nil, err
		}
		name := c.namer.Name()
		req.Header.Set(name, v)
		if resp, err = c.hc.Do(req); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

func (c *NamedClient) Create(ctx context.Context) error {
	resp, err := c.send(ctx, http.MethodPost, "/things", "k1")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}
