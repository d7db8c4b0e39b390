// Package callerdeps retries URLs, hosts and clients its helpers are
// given: the dependency is known only to the callers.
package callerdeps

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/retrylint/retrylint/budget"
)

var postBudget = budget.New() // want `retry budget postBudget guards retries to inventory.internal and payments.internal: one failing dependency drains the other's credit`

// post retries its URL parameter with one budget.
func post(ctx context.Context, url string, body []byte) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post(url, "application/json", bytes.NewReader(body))
		if err == nil {
			return resp.Body.Close()
		}
		if !postBudget.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func reserve(ctx context.Context) error {
	return post(ctx, "https://inventory.internal/reserve", nil)
}

func charge(ctx context.Context) error {
	return post(ctx, "https://payments.internal/charge", nil)
}

// A request built from a base URL parameter, callers passing fields.
type Client struct {
	hc           *http.Client
	inventoryURL string
	paymentsURL  string
}

var getBudget = budget.New() // want `retry budget getBudget guards retries to inventoryURL and paymentsURL`

func (c *Client) get(ctx context.Context, base string) error {
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/v1/status", nil)
		if err != nil {
			return err
		}
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		if !getBudget.TryRetry() {
			return err
		}
	}
}

func (c *Client) Status(ctx context.Context) error {
	if err := c.get(ctx, c.inventoryURL); err != nil {
		return err
	}
	return c.get(ctx, c.paymentsURL)
}

// An address given to a transport's function, through fmt.Sprintf.
var dialBudget = budget.New() // want `retry budget dialBudget guards retries to cache-a and cache-b`

func dial(addr string) (net.Conn, error) {
	for {
		conn, err := net.Dial("tcp", fmt.Sprintf("%s:6379", addr))
		if err == nil || !dialBudget.TryRetry() {
			return conn, err
		}
	}
}

func connect() error {
	a, err := dial("cache-a")
	if err != nil {
		return err
	}
	defer a.Close()
	b, err := dial("cache-b")
	if err != nil {
		return err
	}
	return b.Close()
}

// The client a helper is given.
type Store interface {
	Put(ctx context.Context, key string) error
}

type Service struct {
	primary Store
	replica Store
}

var putBudget = budget.New() // want `retry budget putBudget guards retries to primary and replica`

func putWithRetry(ctx context.Context, s Store, key string) error {
	for {
		err := s.Put(ctx, key)
		if err == nil || !putBudget.TryRetry() {
			return err
		}
	}
}

func (s *Service) Put(ctx context.Context, key string) error {
	if err := putWithRetry(ctx, s.primary, key); err != nil {
		return err
	}
	return putWithRetry(ctx, s.replica, key)
}

// A budget and a URL both from the callers (with the budget package's
// per-dependency fields as look-alikes in lookalike.go).
func postWith(ctx context.Context, b *budget.Budget, url string) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post(url, "text/plain", nil)
		if err == nil {
			return resp.Body.Close()
		}
		if !b.TryRetry() {
			return err
		}
	}
	return errors.New("gave up")
}

func Sync(ctx context.Context) error {
	b := budget.New() // want `retry budget b guards retries to orders.internal and users.internal`
	if err := postWith(ctx, b, "https://orders.internal/sync"); err != nil {
		return err
	}
	return postWith(ctx, b, "https://users.internal/sync")
}
