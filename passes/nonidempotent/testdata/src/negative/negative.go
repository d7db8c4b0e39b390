// Package negative holds requests the pass must not report.
package negative

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
	resty "github.com/go-resty/resty/v2"
	"github.com/google/uuid"
	"github.com/hashicorp/go-retryablehttp"
	sv "github.com/sethvargo/go-retry"
	k8sretry "k8s.io/client-go/util/retry"
)

type client struct {
	hc   *http.Client
	base string
}

func (c *client) send(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *client) sendAll(reqs ...*http.Request) error {
	for _, req := range reqs {
		if err := c.send(req); err != nil {
			return err
		}
	}
	return nil
}

// The key is generated once, before the loop.
func (c *client) keyBeforeLoop(ctx context.Context, body []byte) error {
	key := uuid.NewString()
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The key comes from the caller.
func (c *client) keyFromCaller(ctx context.Context, body []byte, key string) error {
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Add("idempotency-key", key) // any case
		return c.send(req)
	}, backoff.NewExponentialBackOff())
}

// Not retried.
func (c *client) once(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
	if err != nil {
		return err
	}
	return c.send(req)
}

// Idempotent methods are retried safely.
func (c *client) idempotent(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		put, _ := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/items/1", bytes.NewReader(body))
		del, _ := http.NewRequestWithContext(ctx, "DELETE", c.base+"/items/2", nil)
		get, _ := http.NewRequest(http.MethodGet, c.base+"/items", nil)
		head, _ := http.NewRequest(http.MethodHead, c.base+"/items", nil)
		opts, _ := http.NewRequest(http.MethodOptions, c.base+"/items", nil)
		if err := c.sendAll(put, del, get, head, opts); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A retrying client used only for GET.
func retryingGet(ctx context.Context) error {
	rc := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "https://api.example.com/items", nil)
	if err != nil {
		return err
	}
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	resp, err = rc.Get("https://api.example.com/items")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Vendor header names count.
func (c *client) vendor(ctx context.Context, body []byte, requestID string) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("PayPal-Request-Id", requestID)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The key is set through the header map, or a whole header literal.
func (c *client) headerMap(ctx context.Context, body []byte, key string) error {
	for i := 0; i < 3; i++ {
		a, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		a.Header["Idempotency-Key"] = []string{key}
		b, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		b.Header = http.Header{"Cko-Idempotency-Key": {key}}
		h := a.Header
		h.Set("Content-Type", "application/json")
		if err := c.sendAll(a, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Headers the pass cannot name may hold the key: stay silent.
func (c *client) dynamic(ctx context.Context, body []byte, hdrs map[string]string, sign func(*http.Request)) error {
	for i := 0; i < 3; i++ {
		a, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		for k, v := range hdrs {
			a.Header.Set(k, v)
		}
		b, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		sign(b)
		if err := c.sendAll(a, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A local helper sets the key.
func setKey(req *http.Request, key string) { // want setKey:`idemKey\(sets=\[0\]\)`
	req.Header.Set("Idempotency-Key", key)
}

func (c *client) localHelper(ctx context.Context, body []byte, key string) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		setKey(req, key)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Each iteration posts a different order: a loop over a slice is no retry.
func (c *client) batch(ctx context.Context, orders [][]byte) error {
	for _, o := range orders {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(o))
		if err := c.send(req); err != nil {
			return err
		}
	}
	return nil
}

// Each attempt goes to a different endpoint (failover, not a retry of the
// same request).
func (c *client) failover(ctx context.Context, endpoints []string, body []byte) error {
	var err error
	for i := 0; i < len(endpoints); i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, endpoints[i], bytes.NewReader(body))
		if err = c.send(req); err == nil {
			return nil
		}
	}
	return err
}

// A retryablehttp client whose retries are switched off.
func noRetries(ctx context.Context, body []byte) error {
	rc := retryablehttp.NewClient()
	rc.RetryMax = 0
	req, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", body)
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	lit := &retryablehttp.Client{HTTPClient: http.DefaultClient}
	resp, err = lit.Post("https://api.example.com/charges", "application/json", body)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// resty without retries, with retries switched off, or with the key set.
func restyCases(body any, key string) error {
	plain := resty.New()
	if _, err := plain.R().SetBody(body).Post("https://api.example.com/charges"); err != nil {
		return err
	}
	off := resty.New().SetRetryCount(0)
	if _, err := off.R().SetBody(body).Post("https://api.example.com/charges"); err != nil {
		return err
	}
	on := resty.New().SetRetryCount(3)
	if _, err := on.R().SetHeader("Idempotency-Key", key).SetBody(body).Post("https://api.example.com/charges"); err != nil {
		return err
	}
	if _, err := on.R().SetHeaders(map[string]string{"X-Idempotency-Key": key}).Post("https://api.example.com/charges"); err != nil {
		return err
	}
	if _, err := on.R().SetBody(body).Put("https://api.example.com/items/1"); err != nil {
		return err
	}
	keyed := resty.New().SetRetryCount(3).SetHeader("Idempotency-Key", key)
	_, err := keyed.R().SetBody(body).Post("https://api.example.com/charges")
	return err
}

// go-retry retries only errors marked retryable; k8s RetryOnConflict
// retries conflicts only.
func (c *client) exempt(ctx context.Context, body []byte) error {
	sv.Do(ctx, sv.NewConstant(time.Second), func(ctx context.Context) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		return c.send(req)
	})
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		return c.send(req)
	})
}

// The POST is sent by a goroutine the loop starts, not by the attempt.
func (c *client) background(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		go func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/audit", bytes.NewReader(body))
			c.send(req)
		}()
		if err := c.send(nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The request is built in the loop but handed to someone else.
func (c *client) handedOver(ctx context.Context, body []byte, out chan<- *http.Request) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		out <- req
		if err := c.send(nil); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The key is generated inside the loop but before the request's own
// retries: every outer iteration is a new logical operation.
func (c *client) keyPerOperation(ctx context.Context, orders [][]byte) error {
	for _, o := range orders {
		key := uuid.NewString()
		err := backoff.Retry(func() error {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(o))
			if err != nil {
				return backoff.Permanent(err)
			}
			req.Header.Set("Idempotency-Key", key)
			return c.send(req)
		}, backoff.NewExponentialBackOff())
		if err != nil {
			return err
		}
	}
	return nil
}

// The target changes with the loop counter through a variable: failover.
func (c *client) failoverVar(ctx context.Context, replicas int, body []byte) error {
	var err error
	for i := 0; i < replicas; i++ {
		u := c.base + "/replica" + string(rune('0'+i))
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
		if err = c.send(req); err == nil {
			return nil
		}
	}
	return err
}

// A send wrapper that retries only idempotent methods.
func (c *client) doIdempotent(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet && req.Method != http.MethodPut {
		return c.hc.Do(req)
	}
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.hc.Do(req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Second)
	}
	return nil, err
}

func (c *client) viaWrappers(ctx context.Context, body []byte, key string) error {
	a, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
	if _, err := c.doIdempotent(a); err != nil {
		return fmt.Errorf("posting %v: %w", a, err)
	}
	return nil
}
