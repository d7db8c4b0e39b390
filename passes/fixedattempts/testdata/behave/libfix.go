package libfix

// The driver of rltest.Behave for the libfix package, run with the
// behaving fakes of backoff v4 and v5, retry-go v4 and v5, go-retry,
// k8s client-go's retry, go-retryablehttp and resty v2.

import (
	"context"
	"time"

	"github.com/hashicorp/go-retryablehttp"

	"rlbehave"
)

// fake adapts a fake dependency to Store.
type fake struct{ d *rlbehave.Dep }

func (f fake) Get(ctx context.Context) (string, error) { return f.d.Get() }
func (f fake) Put(ctx context.Context) error           { return f.d.Call() }

// clients holds the client made for each fake dependency: a service
// makes its client once, and the client's budget lives as long as it.
var clients = map[*rlbehave.Dep]any{}

func once[T any](d *rlbehave.Dep, make func() T) T {
	c, ok := clients[d].(T)
	if !ok {
		c = make()
		clients[d] = c
	}
	return c
}

func BehaveCases() []rlbehave.Case {
	ctx := context.Background()
	down := []rlbehave.Mode{rlbehave.Down}
	return []rlbehave.Case{
		{Name: "Lookup", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return (&Service{inventory: fake{d}}).Lookup(ctx)
		}},
		{Name: "Save", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Service{payments: fake{d}}).Save(ctx)
		}},
		{Name: "Refresh", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Service{stock: fake{d}}).Refresh(ctx)
		}},
		{Name: "Audit", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Service{audit: fake{d}}).Audit(ctx)
		}},
		{Name: "Quote", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return (&Quoter{quotes: fake{d}}).Quote(ctx)
		}},
		{Name: "Place", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Service{orders: fake{d}}).Place(ctx)
		}},
		// retry-go's error lists the attempts made: a refused retry's
		// lists one.
		{Name: "Refund", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Service{refunds: fake{d}}).Refund(ctx)
		}},
		{Name: "Settle", Modes: down,
			Refused: map[rlbehave.Mode]string{rlbehave.Down: `All attempts fail:(\n#\d: dependency down)+`},
			Run: func(d *rlbehave.Dep) (string, error) {
				return "", (&Service{ledger: fake{d}}).Settle(ctx)
			}},
		// go-retryablehttp's error names the attempts made: a refused
		// retry's, fewer.
		{Name: "Item", Modes: []rlbehave.Mode{rlbehave.Down, rlbehave.Status},
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   `GET http://catalog/ giving up after \d+ attempt\(s\): Get "http://catalog/": dependency down`,
				rlbehave.Status: `GET http://catalog/ giving up after \d+ attempt\(s\): unexpected HTTP status 503 Service Unavailable`,
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				return once(d, func() *Catalog { return NewCatalog("http://catalog/", d) }).Item(ctx)
			}},
		// A policy that retries a 503 with no error: the original gives
		// up with none to wrap; a refusal names the status.
		{Name: "Query", Modes: []rlbehave.Mode{rlbehave.Down, rlbehave.Status},
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   `GET http://search/ giving up after \d+ attempt\(s\): Get "http://search/": dependency down`,
				rlbehave.Status: `GET http://search/ giving up after \d+ attempt\(s\): unexpected status: 503 Service Unavailable`,
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				return once(d, func() *Search { return NewSearch("http://search/", d) }).Query(ctx)
			}},
		// A client literal's CheckRetry wraps the literal's policy.
		{Name: "Balance", Modes: []rlbehave.Mode{rlbehave.Down, rlbehave.Status},
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   `GET http://ledger/ giving up after \d+ attempt\(s\): Get "http://ledger/": dependency down`,
				rlbehave.Status: `GET http://ledger/ giving up after \d+ attempt\(s\): unexpected HTTP status 503 Service Unavailable`,
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				return once(d, func() *Ledger { return NewLedger("http://ledger/", d) }).Balance(ctx)
			}},
		{Name: "Invoice", Modes: []rlbehave.Mode{rlbehave.Down, rlbehave.Status},
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   `GET http://billing/ giving up after \d+ attempt\(s\): Get "http://billing/": dependency down`,
				rlbehave.Status: `GET http://billing/ giving up after \d+ attempt\(s\): unexpected status: 503 Service Unavailable`,
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				return once(d, func() *Billing { return NewBilling("http://billing/", d) }).Invoice(ctx)
			}},
		// A client literal in a keyed field of a struct literal, with the
		// caller's policy: the CheckRetry wrapping it asks the field's
		// budget.
		{Name: "Read", Modes: []rlbehave.Mode{rlbehave.Down, rlbehave.Status},
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   `GET http://vault/ giving up after \d+ attempt\(s\): Get "http://vault/": dependency down`,
				rlbehave.Status: `GET http://vault/ giving up after \d+ attempt\(s\): unexpected HTTP status 503 Service Unavailable`,
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				return once(d, func() *Vault {
					return NewVault("http://vault/", VaultConfig{Transport: d, RetryMax: 3, CheckRetry: retryablehttp.DefaultRetryPolicy})
				}).Read(ctx)
			}},
		// A client kept in a keyed field of a literal, and one declared
		// with var: the CheckRetry set after them asks their budgets.
		{Name: "Track", Modes: []rlbehave.Mode{rlbehave.Down, rlbehave.Status},
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   `GET http://shipping/ giving up after \d+ attempt\(s\): Get "http://shipping/": dependency down`,
				rlbehave.Status: `GET http://shipping/ giving up after \d+ attempt\(s\): unexpected HTTP status 503 Service Unavailable`,
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				return once(d, func() *Shipping { return NewShipping("http://shipping/", d) }).Track(ctx)
			}},
		{Name: "Rate", Modes: []rlbehave.Mode{rlbehave.Down, rlbehave.Status},
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   `GET http://rates/ giving up after \d+ attempt\(s\): Get "http://rates/": dependency down`,
				rlbehave.Status: `GET http://rates/ giving up after \d+ attempt\(s\): unexpected HTTP status 503 Service Unavailable`,
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				return once(d, func() *Rates { return NewRates("http://rates/", d) }).Rate(ctx)
			}},
		// go-retry: the wrapped backoff stops when the budget refuses,
		// and Do returns the last error, unwrapped.
		{Name: "User", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Hooks{users: fake{d}}).User(ctx)
		}},
		{Name: "Cart", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return (&Hooks{carts: fake{d}}).Cart(ctx)
		}},
		// go-retry Constant retries until its context ends, and then
		// returns the context's error; a refusal returns the last
		// attempt's. The context lasts long enough that a retry the
		// budget allows does not meet its end on a loaded machine.
		{Name: "Price", Modes: down,
			Refused: map[rlbehave.Mode]string{rlbehave.Down: `dependency down`},
			Run: func(d *rlbehave.Dep) (string, error) {
				ctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
				defer cancel()
				return "", (&Hooks{prices: fake{d}}).Price(ctx)
			}},
		// k8s OnError returns the error its predicate refuses to retry,
		// as the last one after its last attempt.
		{Name: "Node", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Hooks{nodes: fake{d}}).Node(ctx)
		}},
		{Name: "Pod", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Hooks{pods: fake{d}}).Pod(ctx)
		}},
		{Name: "Release", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Volumes{volumes: fake{d}}).Release(ctx, errRejected)
		}},
		// retry-go v5, as v4: the error lists the attempts made, unless
		// LastErrorOnly.
		{Name: "Ship", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return "", (&Hooks{shipping: fake{d}}).Ship(ctx)
		}},
		{Name: "Bill", Modes: down,
			Refused: map[rlbehave.Mode]string{rlbehave.Down: `All attempts fail:(\n#\d: dependency down)+`},
			Run: func(d *rlbehave.Dep) (string, error) {
				return (&Hooks{billing: fake{d}}).Bill(ctx)
			}},
		// resty v2 retries errors, not statuses.
		{Name: "Profile", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			return once(d, func() *Profiles { return NewProfiles("http://profiles/", d.Client()) }).Get(ctx)
		}},
	}
}
