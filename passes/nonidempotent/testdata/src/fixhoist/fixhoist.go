package fixhoist

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/google/uuid"
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

func (c *client) inline(ctx context.Context, body []byte, orderID string) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", orderID+"-"+uuid.NewString()) // want `idempotency key from uuid.NewString is generated anew`
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) variable(ctx context.Context, body []byte) error {
	return backoff.Retry(func() error {
		key := strconv.FormatInt(time.Now().UnixNano(), 10) // want `idempotency key from time.Now is generated anew`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Idempotency-Key", key)
		return c.send(req)
	}, backoff.NewExponentialBackOff())
}

// No fix: the key depends on the attempt, or is filled in place.
func (c *client) noFix(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		b := make([]byte, 8)
		crand.Read(b) // want `idempotency key from rand.Read is generated anew`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", hex.EncodeToString(b))
		req.Header.Set("X-Idempotency-Key", fmt.Sprint(uuid.NewString(), i)) // want `idempotency key from uuid.NewString is generated anew`
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
