// Package restywrap builds its resty requests with a wrapper of its own
// over a client field: the diagnostic goes to the wrapper's R() call, the
// construction.
package restywrap

import (
	"errors"
	"time"

	resty "github.com/go-resty/resty/v2"
)

type API struct {
	client *resty.Client
	plain  *resty.Client
	keyed  *resty.Client
	extra  map[string]string // given a key by WithKey
	labels map[string]string // never given one
}

// WithKey puts a key among the extra headers.
func (a *API) WithKey(key string) {
	a.extra["Idempotency-Key"] = key
}

// LabelR sets headers from a field no code of the package gives a key:
// they carry none.
func (a *API) LabelR() *resty.Request { // want LabelR:`idemKey\(resty\(retries\)\)`
	return a.client.R().SetHeaders(a.labels)
}

func (a *API) labelled(body any) {
	a.LabelR().SetBody(body).Post("https://api.example.com/orders") // want `POST is retried by the resty client of API.LabelR without an idempotency key`
}

func NewAPI() *API {
	return &API{
		client: resty.New().SetRetryCount(3),
		plain:  resty.New(),
		keyed:  resty.New().SetRetryCount(3).SetHeader("Idempotency-Key", "fixed"),
	}
}

// R returns a new request of the retrying client.
func (a *API) R() *resty.Request { // want R:`idemKey\(resty\(retries\)\)`
	return a.client.R().SetHeader("User-Agent", "restywrap")
}

// Plain returns a new request of a client that does not retry.
func (a *API) Plain() *resty.Request { // want Plain:`idemKey\(resty\)`
	req := a.plain.R()
	req.SetHeader("Accept", "application/json")
	return req
}

// Traced wraps R.
func (a *API) Traced() *resty.Request { // want Traced:`idemKey\(resty\(retries\)\)`
	return a.R().SetHeader("X-Trace", "on")
}

func (a *API) Create(body any) error {
	_, err := a.R().SetBody(body).Post("https://api.example.com/orders") // want `POST is retried by the resty client of API.R without an idempotency key`
	return err
}

func (a *API) Update(body any) error {
	resp, err := a.Traced(). // want `PATCH is retried by the resty client of API.Traced without`
					SetBody(body).
					Patch("https://api.example.com/orders/1")
	_ = resp
	return err
}

func (a *API) Send(body any) error {
	req := a.R() // want `POST is retried by the resty client of API.R without`
	req.SetBody(body)
	_, err := req.Execute("POST", "https://api.example.com/orders")
	return err
}

// A client that does not retry, in a retry loop.
func (a *API) Loop(body any) error {
	for i := 0; i < 3; i++ {
		if _, err := a.Plain().SetBody(body).Post("https://api.example.com/orders"); err == nil { // want `POST is retried without an idempotency key`
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Look-alikes.

// KeyedR sets a key: not a wrapper whose requests lack one.
func (a *API) KeyedR(key string) *resty.Request {
	return a.client.R().SetHeader("Idempotency-Key", key)
}

// ExtraR sets headers from a field the package gives a key.
func (a *API) ExtraR() *resty.Request {
	return a.client.R().SetHeaders(a.extra)
}

// ClientKeyR is a request of a client that sets the key on every request.
func (a *API) ClientKeyR() *resty.Request {
	return a.keyed.R()
}

// Maybe returns a request it was given.
func (a *API) Maybe(r *resty.Request) *resty.Request {
	if r != nil {
		return r
	}
	return a.client.R()
}

func (a *API) lookalikes(body any, key string) {
	a.Plain().SetBody(body).Post("https://api.example.com/once")
	a.R().SetBody(body).Put("https://api.example.com/orders/1")
	a.R().SetHeader("Idempotency-Key", key).SetBody(body).Post("https://api.example.com/orders")
	a.KeyedR(key).SetBody(body).Post("https://api.example.com/orders")
	a.ExtraR().SetBody(body).Post("https://api.example.com/orders")
	a.ClientKeyR().SetBody(body).Post("https://api.example.com/orders")
	a.Maybe(nil).SetBody(body).Post("https://api.example.com/orders")
}

// Tenant's client lets its caller set headers on every request
// (SetHeader): the package names no key through it.
type Tenant struct {
	client *resty.Client
}

func NewTenant() *Tenant {
	t := &Tenant{client: resty.New().SetRetryCount(3)}
	t.SetHeader("X-Tenant", "default")
	return t
}

// SetHeader sets a header its caller names on every request.
func (t *Tenant) SetHeader(name, value string) {
	t.client.SetHeader(name, value)
}

func (t *Tenant) R() *resty.Request { // want R:`idemKey\(resty\(retries\)\)`
	return t.client.R()
}

func (t *Tenant) Create(body any) {
	t.R().SetBody(body).Post("https://api.example.com/tenants") // want `POST is retried by the resty client of Tenant.R without an idempotency key`
}

// Account's client is given a key through its SetHeader by the package
// itself: every request may carry it.
type Account struct {
	client *resty.Client
}

func NewAccount(key string) *Account {
	a := &Account{client: resty.New().SetRetryCount(3)}
	a.SetHeader("Idempotency-Key", key)
	return a
}

func (a *Account) SetHeader(name, value string) {
	a.client.SetHeader(name, value)
}

func (a *Account) R() *resty.Request {
	return a.client.R()
}

func (a *Account) Open(body any) {
	a.R().SetBody(body).Post("https://api.example.com/accounts")
}
