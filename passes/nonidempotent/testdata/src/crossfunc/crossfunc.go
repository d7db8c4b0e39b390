// Package crossfunc holds POSTs built in a function of the package that a
// retry site's attempt calls: each attempt builds and sends the request
// again.
package crossfunc

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/google/uuid"
)

type Client struct {
	http *http.Client
	base string
}

func (c *Client) upload(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/upload", bytes.NewReader(b)) // want `POST is retried without an idempotency key: a retry after a lost response can apply it twice`
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A 3-attempt loop whose attempt builds the request in another function.
func (c *Client) Upload(ctx context.Context, b []byte) error {
	for i := 0; i < 3; i++ {
		if err := c.upload(ctx, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Two calls deep: sync calls push, which builds the PATCH.
func (c *Client) push(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base+"/state", bytes.NewReader(b)) // want `PATCH is retried without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) sync(ctx context.Context, b []byte) error {
	if len(b) == 0 {
		return nil
	}
	return c.push(ctx, b)
}

func (c *Client) Sync(ctx context.Context, b []byte) error {
	return backoff.Retry(func() error { return c.sync(ctx, b) }, backoff.NewExponentialBackOff())
}

// An operation passed as a method value.
func (c *Client) register() error {
	req, err := http.NewRequest(http.MethodPost, c.base+"/register", nil) // want `POST is retried without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) Register() error {
	return backoff.Retry(c.register, backoff.NewExponentialBackOff())
}

// A token exchange retried by a loop that returns on success, on a
// permanent error or after the last attempt, and waits on a timer.
type token struct{ value string }

func exchange(ctx context.Context, hc *http.Client, url string) (token, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(nil)) // want `POST is retried without an idempotency key`
	if err != nil {
		return token{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return token{}, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return token{}, errors.New("exchange failed")
	}
	return token{value: "t"}, nil
}

func retryable(err error) bool { return !errors.Is(err, context.Canceled) }

const maxAttempts = 3

func (c *Client) exchangeWithRetry(ctx context.Context) (token, error) {
	for attempt := 0; ; attempt++ {
		tok, err := exchange(ctx, c.http, c.base+"/oauth/token")
		if err == nil || !retryable(err) || attempt+1 >= maxAttempts {
			return tok, err
		}
		timer := time.NewTimer(time.Duration(attempt+1) * time.Second)
		select {
		case <-ctx.Done():
			timer.Stop()
			return token{}, ctx.Err()
		case <-timer.C:
		}
	}
}

// The attempt goes through an interface that only one type of the
// package implements, inside a closure run by a retry helper.
type Store interface {
	Store(ctx context.Context, b []byte) error
}

type remote struct {
	hc  *http.Client
	url string
}

func (r *remote) Store(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.url, bytes.NewReader(b)) // want `POST is retried without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := r.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func withRetry(ctx context.Context, attempt func(try int) error) error {
	for try := 0; ; try++ {
		err := attempt(try)
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
}

type Queue struct{ store Store }

func (q *Queue) send(ctx context.Context, b []byte) error {
	attemptStore := func(try int) error {
		return q.store.Store(ctx, b)
	}
	return withRetry(ctx, attemptStore)
}

// A key generated anew in the function each attempt calls.
func (c *Client) chargeOnce(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charges", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", uuid.NewString()) // want `idempotency key from uuid.NewString is generated anew on every attempt`
	return c.send(req)
}

func (c *Client) ChargeNewKey(ctx context.Context, b []byte) error {
	for i := 0; i < 3; i++ {
		if err := c.chargeOnce(ctx, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
