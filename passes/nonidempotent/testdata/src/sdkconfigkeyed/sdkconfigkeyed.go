// Package sdkconfigkeyed is the request core of sdkconfig with one more
// implementation of its option interface: one that sets the idempotency
// key, or a header the pass cannot name. Its requests are not reported.
package sdkconfigkeyed

import (
	"context"
	"net/http"
)

type RequestOption interface {
	Apply(*RequestConfig) error
}

type RequestOptionFunc func(*RequestConfig) error

func (s RequestOptionFunc) Apply(r *RequestConfig) error { return s(r) }

// keyOption carries the caller's key onto the request.
type keyOption struct{ key string }

func (o keyOption) Apply(r *RequestConfig) error {
	r.Request.Header.Set("Idempotency-Key", o.key)
	return nil
}

// headerOption sets a header it is given.
type headerOption struct{ name, value string }

func (o headerOption) Apply(r *RequestConfig) error {
	r.Request.Header.Set(o.name, o.value)
	return nil
}

func WithIdempotencyKey(key string) RequestOption { return keyOption{key} }

func WithHeader(name, value string) RequestOption { return headerOption{name, value} }

type RequestConfig struct {
	Request    *http.Request
	HTTPClient *http.Client
}

func (cfg *RequestConfig) Apply(opts ...RequestOption) error { // want Apply:`idemKey\(recvHeaders\)`
	for _, opt := range opts {
		if err := opt.Apply(cfg); err != nil {
			return err
		}
	}
	return nil
}

func NewRequestConfig(ctx context.Context, method, u string, opts ...RequestOption) (*RequestConfig, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return nil, err
	}
	cfg := RequestConfig{Request: req, HTTPClient: http.DefaultClient}
	if err := cfg.Apply(opts...); err != nil {
		return nil, err
	}
	return &cfg, nil
}

func (cfg *RequestConfig) Execute() error { // want Execute:`idemKey\(recvRetries\)`
	var err error
	for i := 0; i < 3; i++ {
		var res *http.Response
		res, err = cfg.HTTPClient.Do(cfg.Request.Clone(cfg.Request.Context()))
		if err == nil {
			return res.Body.Close()
		}
	}
	return err
}

func ExecuteNewRequest(ctx context.Context, method, u string, opts ...RequestOption) error {
	cfg, err := NewRequestConfig(ctx, method, u, opts...)
	if err != nil {
		return err
	}
	return cfg.Execute()
}

// Create may be given a key by its caller's options.
func Create(ctx context.Context, opts ...RequestOption) error {
	return ExecuteNewRequest(ctx, http.MethodPost, "/v1/things", opts...)
}
