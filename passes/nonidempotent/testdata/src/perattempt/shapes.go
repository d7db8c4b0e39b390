package perattempt

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/google/uuid"
)

// Keys generated inside the attempt of each kind of retry loop the
// retry-site analysis finds.

// A loop that retries a failure status.
func (c *client) status(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `idempotency key from uuid.NewString is generated anew on every attempt`
		resp, err := c.hc.Do(req)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode < 500 {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// for range over an integer.
func (c *client) ranged(ctx context.Context, body []byte) error {
	for range 3 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", crand.Text()) // want `idempotency key from rand.Text is generated anew`
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Bounded by the context, waiting in a select.
func (c *client) untilDone(ctx context.Context, body []byte) error {
	for {
		key := strconv.FormatInt(time.Now().UnixNano(), 36) // want `idempotency key from time.Now is generated anew`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		err := c.send(req)
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

// A verdict returned with the attempt.
func (c *client) try(req *http.Request) (retry bool, err error) {
	resp, err := c.hc.Do(req)
	if err != nil {
		return true, err
	}
	resp.Body.Close()
	return resp.StatusCode >= 500, nil
}

func (c *client) verdict(ctx context.Context, body []byte) error {
	for i := 0; ; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", uuid.New().String()) // want `idempotency key from uuid.New is generated anew`
		retry, err := c.try(req)
		if !retry || i == 2 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// The attempt is a closure of the function, called by the loop.
func (c *client) closure(ctx context.Context, body []byte) error {
	attempt := func() error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `idempotency key from uuid.NewString is generated anew`
		return c.send(req)
	}
	for i := 0; i < 3; i++ {
		if err := attempt(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Look-alikes: one key per logical operation.

// The key is made in an outer loop over items, outside the retries.
func (c *client) perItem(ctx context.Context, items [][]byte) error {
	for _, body := range items {
		key := uuid.NewString()
		var err error
		for i := 0; i < 3; i++ {
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
			req.Header.Set("Idempotency-Key", key)
			if err = c.send(req); err == nil {
				break
			}
			time.Sleep(time.Second)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Made on the first attempt only.
func (c *client) lazy(ctx context.Context, body []byte) error {
	key := ""
	for i := 0; i < 3; i++ {
		if key == "" {
			key = uuid.NewString()
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A loop that posts a new event each tick is no retry loop.
func (c *client) ticker(ctx context.Context, t *time.Ticker) error {
	for range t.C {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, nil)
		req.Header.Set("Idempotency-Key", uuid.NewString())
		if err := c.send(req); err != nil {
			return err
		}
	}
	return nil
}

// A loop that leaves on every failure is no retry loop.
func (c *client) batches(ctx context.Context, n int) error {
	for i := 0; i < n; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, nil)
		req.Header.Set("Idempotency-Key", uuid.NewString())
		if err := c.send(req); err != nil {
			return err
		}
	}
	return nil
}

// The key comes from the caller's one logical operation.
func (c *client) given(ctx context.Context, key string, body []byte) error {
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

// Made once, before a for range loop.
func (c *client) before(ctx context.Context, body []byte) error {
	key := crand.Text()
	for range 3 {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Derived from the body: the same on every attempt.
func (c *client) derived(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", hex.EncodeToString(sha256.New().Sum(body)))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
