package libfix

import (
	"context"
	"net/http"

	resty "github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
)

// A go-retryablehttp client with the default policy: its CheckRetry wraps
// DefaultRetryPolicy and asks the client's own budget.
type Catalog struct {
	client *retryablehttp.Client
	url    string
}

func NewCatalog(url string, rt http.RoundTripper) *Catalog {
	c := retryablehttp.NewClient()
	c.RetryMax = 3
	c.RetryWaitMin, c.RetryWaitMax = 0, 0
	c.HTTPClient = &http.Client{Transport: rt}
	return &Catalog{client: c, url: url}
}

func (c *Catalog) Item(ctx context.Context) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, c.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := c.client.Do(req) // want `retryablehttp.Client.Do makes up to 4 attempts`
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}

// A policy of the client's own: the budget is asked after it.
func retryServerErrors(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	return err != nil || resp.StatusCode >= 500, nil
}

type Search struct {
	http *retryablehttp.Client
	url  string
}

func NewSearch(url string, rt http.RoundTripper) *Search {
	s := &Search{url: url}
	s.http = retryablehttp.NewClient()
	s.http.CheckRetry = retryServerErrors
	s.http.RetryWaitMin, s.http.RetryWaitMax = 0, 0
	s.http.HTTPClient = &http.Client{Transport: rt}
	return s
}

func (s *Search) Query(ctx context.Context) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := s.http.Do(req) // want `retryablehttp.Client.Do makes up to 5 attempts \(RetryMax 4 by default\)`
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}

// A resty v2 client: a retry condition asks the client's own budget.
type Profiles struct {
	api *resty.Client
	url string
}

func NewProfiles(url string, hc *http.Client) *Profiles {
	api := resty.NewWithClient(hc).SetRetryCount(3) // want `resty.SetRetryCount makes up to 4 attempts`
	api.SetRetryWaitTime(0)
	return &Profiles{api: api, url: url}
}

func (p *Profiles) Get(ctx context.Context) (string, error) {
	resp, err := p.api.R().SetContext(ctx).Get(p.url)
	if err != nil {
		return "", err
	}
	return resp.Status(), nil
}

// A go-retryablehttp client literal kept in a field: its CheckRetry
// wraps the one the literal sets and asks a budget made before it.
type Ledger struct {
	http *retryablehttp.Client
	url  string
}

func NewLedger(url string, rt http.RoundTripper) *Ledger {
	l := &Ledger{url: url}
	l.http = &retryablehttp.Client{
		HTTPClient: &http.Client{Transport: rt},
		RetryMax:   3,
		CheckRetry: retryablehttp.DefaultRetryPolicy,
		Backoff:    retryablehttp.DefaultBackoff,
	}
	return l
}

func (l *Ledger) Balance(ctx context.Context) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, l.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := l.http.Do(req) // want `retryablehttp.Client.Do makes up to 4 attempts`
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}

// A literal returned as it is made, with a policy literal that retries a
// 503 with no error: the refusal names the status.
func newBilling(rt http.RoundTripper) *retryablehttp.Client {
	return &retryablehttp.Client{
		HTTPClient: &http.Client{Transport: rt},
		RetryMax:   2,
		CheckRetry: func(ctx context.Context, resp *http.Response, err error) (bool, error) {
			return err != nil || resp.StatusCode >= 500, nil
		},
		Backoff: retryablehttp.DefaultBackoff,
	}
}

type Billing struct {
	http *retryablehttp.Client
	url  string
}

func NewBilling(url string, rt http.RoundTripper) *Billing {
	return &Billing{http: newBilling(rt), url: url}
}

func (b *Billing) Invoice(ctx context.Context) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, b.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := b.http.Do(req) // want `retryablehttp.Client.Do makes up to 3 attempts`
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}

// A client made in a keyed field of the literal kept in a local, and
// configured through it after: the fix sets the CheckRetry on the line
// after the literal, and the settings that follow stay as they are.
type Shipping struct {
	http *retryablehttp.Client
	url  string
}

func NewShipping(url string, rt http.RoundTripper) *Shipping {
	s := &Shipping{url: url, http: retryablehttp.NewClient()}
	s.http.RetryMax = 2
	s.http.RetryWaitMin, s.http.RetryWaitMax = 0, 0
	s.http.HTTPClient = &http.Client{Transport: rt}
	return s
}

func (s *Shipping) Track(ctx context.Context) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, s.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := s.http.Do(req) // want `retryablehttp.Client.Do makes up to 3 attempts`
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}

// A client declared with var.
type Rates struct {
	http *retryablehttp.Client
	url  string
}

func NewRates(url string, rt http.RoundTripper) *Rates {
	var hc = retryablehttp.NewClient()
	hc.RetryMax = 2
	hc.RetryWaitMin, hc.RetryWaitMax = 0, 0
	hc.HTTPClient = &http.Client{Transport: rt}
	return &Rates{http: hc, url: url}
}

func (r *Rates) Rate(ctx context.Context) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, r.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := r.http.Do(req) // want `retryablehttp.Client.Do makes up to 3 attempts`
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}

// VaultConfig holds what the caller chose, the retry policy included.
type VaultConfig struct {
	Transport  http.RoundTripper
	RetryMax   int
	CheckRetry retryablehttp.CheckRetry
}

// A client literal kept in a keyed field of a struct literal, its policy
// the caller's: the budget is named after the field.
type Vault struct {
	url      string
	retrying *retryablehttp.Client
}

func NewVault(url string, cfg VaultConfig) *Vault {
	v := Vault{
		url: url,
		retrying: &retryablehttp.Client{
			HTTPClient:   &http.Client{Transport: cfg.Transport},
			RetryMax:     cfg.RetryMax,
			RetryWaitMin: 0,
			RetryWaitMax: 0,
			CheckRetry:   cfg.CheckRetry,
			Backoff:      retryablehttp.DefaultBackoff,
		},
	}
	return &v
}

func (v *Vault) Read(ctx context.Context) (string, error) {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, v.url, nil)
	if err != nil {
		return "", err
	}
	resp, err := v.retrying.Do(req) // want `retryablehttp.Client.Do makes up to cfg.RetryMax\+1 attempts`
	if err != nil {
		return "", err
	}
	resp.Body.Close()
	return resp.Status, nil
}
