package fixloop

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
)

type payments struct {
	hc   *http.Client
	base string
}

func (p *payments) charge(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/charges", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
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

func (p *payments) createOrder(ctx context.Context, body []byte) error {
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/orders", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err != nil {
			return backoff.Permanent(err)
		}
		resp, err := p.hc.Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}, backoff.NewExponentialBackOff())
}

func (p *payments) refund(ctx context.Context) error {
	req, err := http.NewRequest(http.MethodPost, p.base+"/refunds", nil) // want `POST is retried without`
	if err != nil {
		return err
	}
retry:
	for attempt := range 4 {
		resp, err := p.hc.Do(req.WithContext(ctx))
		if err != nil {
			time.Sleep(time.Duration(attempt) * time.Second)
			continue retry
		}
		resp.Body.Close()
		return nil
	}
	return errors.New("gave up")
}

func (p *payments) payout(ctx context.Context, body []byte) error {
	attempt := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPatch, p.base+"/payouts/1", bytes.NewReader(body)) // want `PATCH is retried without`
		if err != nil {
			return err
		}
		if resp, err := p.hc.Do(req); err != nil {
			return err
		} else {
			return resp.Body.Close()
		}
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
