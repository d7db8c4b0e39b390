// Package perattempt holds idempotency keys generated anew on every
// attempt, which defeats them.
package perattempt

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
	resty "github.com/go-resty/resty/v2"
	"github.com/google/uuid"
	"github.com/oklog/ulid/v2"
	"github.com/rs/xid"
	"github.com/segmentio/ksuid"
)

type client struct {
	hc   *http.Client
	rc   *resty.Client
	base string
}

func (c *client) send(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *client) inline(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", uuid.NewString()) // want `idempotency key from uuid.NewString is generated anew on every attempt: the server cannot tell a retry from a new POST, so it can apply it twice`
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) variable(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		key := uuid.New() // want `idempotency key from uuid.New is generated anew`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("X-Idempotency-Key", key.String())
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) randomBytes(ctx context.Context, body []byte) error {
	return backoff.Retry(func() error {
		b := make([]byte, 16)
		crand.Read(b) // want `idempotency key from rand.Read is generated anew`
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header.Set("Idempotency-Key", hex.EncodeToString(b))
		return c.send(req)
	}, backoff.NewExponentialBackOff())
}

func (c *client) text(ctx context.Context, body []byte) error {
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base, bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		req.Header["Idempotency-Key"] = []string{crand.Text()} // want `idempotency key from rand.Text is generated anew on every attempt: the server cannot tell a retry from a new PATCH`
		return c.send(req)
	}, backoff.NewExponentialBackOff())
}

func (c *client) clock(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		key := strconv.FormatInt(time.Now().UnixNano(), 10) // want `idempotency key from time.Now is generated anew`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) others(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header = http.Header{
			"Idempotency-Key":          {ulid.Make().String()}, // want `idempotency key from ulid.Make is generated anew`
			"X-Idempotency-Key":        {xid.New().String()},   // want `idempotency key from xid.New is generated anew`
			"Repeatability-Request-Id": {ksuid.New().String()}, // want `idempotency key from ksuid.New is generated anew`
		}
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The key depends on the attempt number: reported, but it cannot move.
func (c *client) counted(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", fmt.Sprintf("%s-%d", uuid.NewString(), i)) // want `idempotency key from uuid.NewString is generated anew`
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) resty(body any) error {
	for i := 0; i < 3; i++ {
		_, err := c.rc.R().SetHeader("Idempotency-Key", uuid.NewString()).SetBody(body).Post(c.base) // want `idempotency key from uuid.NewString is generated anew`
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
