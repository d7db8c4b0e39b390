// Package perdep holds retries to several dependencies: every fix guards
// each with its own dependency's budget, and sharedbudget finds nothing to
// report after the fixes (TestFixedShareNothing).
package perdep

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

// Store is a dependency.
type Store interface {
	Put(ctx context.Context, v string) error
	Ping(ctx context.Context) error
}

type Shop struct {
	inventory Store
	payments  Store
	orders    Store
	ledger    Store
	audit     Store
	shipments Store
}

// retry is a helper used for three dependencies: it gets a budget
// parameter, and each caller passes its own dependency's.
func retry(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

func (s *Shop) Reserve(ctx context.Context, item string) error {
	return retry(ctx, func(ctx context.Context) error { return s.inventory.Put(ctx, item) })
}

func (s *Shop) Charge(ctx context.Context, amount string) error {
	return retry(ctx, func(ctx context.Context) error { return s.payments.Put(ctx, amount) })
}

func (s *Shop) Check(ctx context.Context) error {
	return retry(ctx, s.orders.Ping)
}

// Client is one client type for several services: the dependency is the
// base URL each value holds, so the budgets are a registry keyed by it.
type Client struct {
	baseURL string
	hc      *http.Client
}

var (
	users   = &Client{baseURL: "https://users.internal", hc: http.DefaultClient}
	billing = &Client{baseURL: "https://billing.internal", hc: http.DefaultClient}
)

func (c *Client) Get(path string) (*http.Response, error) {
	var lastErr error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		resp, err := c.hc.Get(c.baseURL + path)
		if err == nil && resp.StatusCode < 500 {
			return resp, nil
		}
		if err == nil {
			resp.Body.Close()
			err = errors.New(resp.Status)
		}
		lastErr = err
		time.Sleep(time.Millisecond)
	}
	return nil, fmt.Errorf("get %s: %w", path, lastErr)
}

func (c *Client) Delete(path string) error {
	req, err := http.NewRequest(http.MethodDelete, c.baseURL+path, nil)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		resp, err := c.hc.Do(req)
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		resp.Body.Close()
		if resp.StatusCode < 500 {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("delete %s: gave up", path)
}

// ledgerBudget is a misnomer: it guards the audit log's retries, so the
// ledger's retries get a budget of their own.
var ledgerBudget = budget.New()

func (s *Shop) Audit(ctx context.Context, entry string) error {
	var err error
	ledgerBudget.OnRequest()
	for i := 0; i < 3; i++ {
		if err = s.audit.Put(ctx, entry); err == nil {
			return nil
		}
		if !ledgerBudget.TryRetry() {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

func (s *Shop) Settle(ctx context.Context, entry string) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = s.ledger.Put(ctx, entry); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return fmt.Errorf("settle: %w", err)
}

// A local of the name the new budget would take: the budget is named
// otherwise.
func (s *Shop) Ship(ctx context.Context, parcel string) error {
	shipmentsBudget := 3
	var err error
	for i := 0; i < shipmentsBudget; i++ { // want `up to 3 attempts`
		if err = s.shipments.Put(ctx, parcel); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}
