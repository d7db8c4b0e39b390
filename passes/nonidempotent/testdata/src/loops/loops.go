// Package loops holds POST and PATCH requests retried by hand-written
// loops without an idempotency key.
package loops

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/url"
	"time"
)

const methodCharge = http.MethodPost

type payments struct {
	hc   *http.Client
	base string
}

// The request is built inside the loop.
func (p *payments) charge(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/charges", bytes.NewReader(body)) // want `POST is retried without an idempotency key: a retry after a lost response can apply it twice`
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := p.hc.Do(req)
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The request is built once, before the loop, and sent on every attempt.
func (p *payments) refund(ctx context.Context, body []byte) error {
	req, err := http.NewRequest("post", p.base+"/refunds", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
	if err != nil {
		return err
	}
	for attempt := range 4 {
		resp, err := p.hc.Do(req.WithContext(ctx))
		if err != nil {
			time.Sleep(time.Duration(attempt) * time.Second)
			continue
		}
		resp.Body.Close()
		return nil
	}
	return errors.New("gave up")
}

// PATCH, by a constant in another case, retried on connection errors only:
// the client cannot tell whether the request reached the server.
func (p *payments) update(ctx context.Context, body []byte) (*http.Response, error) {
	var lastErr error
	for {
		req, _ := http.NewRequestWithContext(ctx, "Patch", p.base+"/orders/1", bytes.NewReader(body)) // want `PATCH is retried without an idempotency key`
		resp, err := p.hc.Do(req)
		if err == nil {
			return resp, nil
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return nil, lastErr
		case <-time.After(time.Second):
		}
	}
}

// A constant that resolves to POST.
func (p *payments) capture(body []byte) error {
	var err error
	for i := 0; i < 5; i++ {
		req, _ := http.NewRequest(methodCharge, p.base+"/capture", bytes.NewReader(body)) // want `POST is retried without`
		var resp *http.Response
		if resp, err = p.hc.Do(req); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

// http.Post and http.PostForm cannot carry a header at all.
func notify(u string, body []byte) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post(u, "application/json", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func subscribe(c *http.Client, u string, form url.Values) error {
	for i := 0; i < 3; i++ {
		resp, err := c.PostForm(u, form) // want `POST is retried without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The loop's attempt is a local closure that builds and sends the request.
func (p *payments) payout(ctx context.Context, body []byte) error {
	attempt := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/payouts", bytes.NewReader(body)) // want `POST is retried without`
		if err != nil {
			return err
		}
		resp, err := p.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	var err error
	for i := 0; i < 3; i++ {
		if err = attempt(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// The request goes through the package's own send wrapper.
func (p *payments) send(req *http.Request) error {
	resp, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (p *payments) transfer(ctx context.Context, body []byte) error {
	var err error
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/transfers", bytes.NewReader(body)) // want `POST is retried without`
		if err = p.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
