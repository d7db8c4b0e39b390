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
	hc     *http.Client
	base   string
	logger *log.Logger
}

var errGaveUp = errors.New("gave up")

// request builds one request with the method it is given and sends it once.
func (api *API) request(ctx context.Context, method, uri string) (*http.Response, error) { // want request:`idemKey\(sends=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, api.base+uri, nil)
	if err != nil {
		return nil, fmt.Errorf("HTTP request creation failed: %w", err)
	}
	return api.hc.Do(req)
}

// makeRequest retries whatever method it is given: the log line and the
// error name the method, they do not decide on it.
func (api *API) makeRequest(ctx context.Context, method, uri string) ([]byte, error) { // want makeRequest:`idemKey\(sendsMethod=\[1\]\)`
	for i := 0; i <= 3; i++ {
		if i > 0 {
			api.logger.Printf("retry attempt %d for request %s %s", i, method, uri)
			time.Sleep(time.Duration(i) * time.Second)
		}
		resp, err := api.request(ctx, method, uri)
		if err != nil || resp.StatusCode >= 500 {
			continue
		}
		defer resp.Body.Close()
		return io.ReadAll(resp.Body)
	}
	return nil, fmt.Errorf("%s %s: %w", method, uri, errGaveUp)
}

func (api *API) makeRequestContext(ctx context.Context, method, uri string) ([]byte, error) { // want makeRequestContext:`idemKey\(sendsMethod=\[1\]\)`
	return api.makeRequest(ctx, method, uri)
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
		resp, err := api.request(ctx, method, uri)
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
		resp, err := api.request(ctx, method, uri)
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
