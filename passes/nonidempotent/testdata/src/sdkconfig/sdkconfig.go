// Package sdkconfig is the request core of an API SDK: a request config
// holds the request it builds with the method it is given, applies the
// caller's options to it, and sends a copy of it on every attempt through
// a chain of middlewares of the client's Do type.
package sdkconfig

import (
	"context"
	"net/http"
	"time"
)

type middlewareNext = func(*http.Request) (*http.Response, error)

type middleware = func(*http.Request, middlewareNext) (*http.Response, error)

type RequestOption interface {
	Apply(*RequestConfig) error
}

type RequestOptionFunc func(*RequestConfig) error

func (s RequestOptionFunc) Apply(r *RequestConfig) error { return s(r) }

// PreRequestOptionFunc is made only by the package's callers: what its
// functions set is theirs, as the options they pass are.
type PreRequestOptionFunc func(*RequestConfig) error

func (s PreRequestOptionFunc) Apply(r *RequestConfig) error { return s(r) }

// JoinedOption applies other options: it adds no header of its own.
type JoinedOption []RequestOption

func (opts JoinedOption) Apply(r *RequestConfig) error { return r.Apply(opts...) }

// CredentialOption applies one option or another.
type CredentialOption struct {
	Settings, Credential RequestOption
}

func (o CredentialOption) Apply(r *RequestConfig) error {
	if o.Settings == nil {
		return o.Credential.Apply(r)
	}
	return r.Apply(o.Settings, o.Credential)
}

type RequestConfig struct {
	MaxRetries  int
	Context     context.Context
	Request     *http.Request
	HTTPClient  *http.Client
	Middlewares []middleware
	Into        any
}

func NewRequestConfig(ctx context.Context, method string, u string, dst any, opts ...RequestOption) (*RequestConfig, error) { // want NewRequestConfig:`idemKey\(builds=\[1\]\)`
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	cfg := RequestConfig{
		MaxRetries: 2,
		Context:    ctx,
		Request:    req,
		HTTPClient: http.DefaultClient,
	}
	cfg.Into = dst
	if err := cfg.Apply(opts...); err != nil {
		return nil, err
	}
	return &cfg, nil
}

func (cfg *RequestConfig) Apply(opts ...RequestOption) error {
	for _, opt := range opts {
		if err := opt.Apply(cfg); err != nil {
			return err
		}
	}
	return nil
}

func applyMiddleware(m middleware, next middlewareNext) middlewareNext {
	return func(req *http.Request) (*http.Response, error) {
		return m(req, next)
	}
}

func (cfg *RequestConfig) handler() middlewareNext {
	handler := cfg.HTTPClient.Do
	for i := len(cfg.Middlewares) - 1; i >= 0; i-- {
		handler = applyMiddleware(cfg.Middlewares[i], handler)
	}
	return handler
}

func shouldRetry(res *http.Response) bool {
	return res == nil || res.StatusCode >= 500
}

func (cfg *RequestConfig) Execute() error { // want Execute:`idemKey\(recvRetries\)`
	return cfg.sendInSpan()
}

func (cfg *RequestConfig) sendInSpan() error { // want sendInSpan:`idemKey\(recvRetries\)`
	ctx := cfg.Request.Context()
	return cfg.send(ctx)
}

func (cfg *RequestConfig) send(ctx context.Context) error { // want send:`idemKey\(recvRetries\)`
	handler := cfg.handler()
	var res *http.Response
	var err error
	for retryCount := 0; ; retryCount++ {
		req := cfg.Request.Clone(ctx)
		lastAttempt := retryCount >= cfg.MaxRetries
		res, err = handler(req)
		retry := shouldRetry(res)
		if lastAttempt || !retry {
			break
		}
		if res != nil {
			res.Body.Close()
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	if err != nil {
		return err
	}
	return res.Body.Close()
}

func ExecuteNewRequest(ctx context.Context, method string, u string, dst any, opts ...RequestOption) error { // want ExecuteNewRequest:`idemKey\(sendsMethod=\[1\]\)`
	cfg, err := NewRequestConfig(ctx, method, u, dst, opts...)
	if err != nil {
		return err
	}
	return cfg.Execute()
}

// WithHeader sets a header its caller names.
func WithHeader(key, value string) RequestOption {
	return RequestOptionFunc(func(r *RequestConfig) error {
		r.Request.Header.Set(key, value)
		return nil
	})
}

// WithRetryCount sets a header the pass can name.
func WithRetryCount(n int) RequestOption {
	return RequestOptionFunc(func(r *RequestConfig) error {
		r.Request.Header.Set("X-Retry-Count", "0")
		return nil
	})
}

var last *RequestConfig

// newKeptConfig keeps the config it builds where any code may set
// headers on its request: no builder.
func newKeptConfig(ctx context.Context, method, u string) (*RequestConfig, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return nil, err
	}
	cfg := RequestConfig{Request: req, HTTPClient: http.DefaultClient}
	last = &cfg
	return &cfg, nil
}

func executeKept(ctx context.Context, method, u string) error {
	cfg, err := newKeptConfig(ctx, method, u)
	if err != nil {
		return err
	}
	return cfg.Execute()
}

func keptPost(ctx context.Context) error {
	return executeKept(ctx, http.MethodPost, "/v1/kept")
}

var shared *RequestConfig

// newSharedConfig builds its config in a package variable: no builder.
func newSharedConfig(ctx context.Context, method, u string) (*RequestConfig, error) {
	req, err := http.NewRequestWithContext(ctx, method, u, nil)
	if err != nil {
		return nil, err
	}
	shared = &RequestConfig{Request: req, HTTPClient: http.DefaultClient}
	return shared, nil
}

func sharedPost(ctx context.Context) error {
	cfg, err := newSharedConfig(ctx, http.MethodPost, "/v1/shared")
	if err != nil {
		return err
	}
	return cfg.Execute()
}
