package negative

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"time"

	"github.com/cenkalti/backoff/v4"
	resty "github.com/go-resty/resty/v2"
	"github.com/google/uuid"
	"github.com/hashicorp/go-retryablehttp"
)

type keyed struct {
	client
	key string
}

// The key is a field: the same on every attempt.
func (k *keyed) fieldKey(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, k.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", k.key)
		if err := k.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The key is derived from the body: stable.
func (c *client) bodyHash(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		sum := sha256.Sum256(body)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", hex.EncodeToString(sum[:]))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A name-based UUID is derived from its input: stable.
func (c *client) nameUUID(ctx context.Context, orderID string, body []byte) error {
	for i := 0; i < 3; i++ {
		key := uuid.NewSHA1(uuid.Nil, []byte(orderID))
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("Idempotency-Key", key.String())
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A correlation id made per attempt is no idempotency key; the key is
// the caller's.
func (c *client) correlation(ctx context.Context, body []byte, key string) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		req.Header.Set("X-Request-ID", uuid.NewString())
		req.Header.Set("Idempotency-Key", key)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The key is set through an alias of the header map.
func (c *client) headerAlias(ctx context.Context, body []byte, key string) error {
	return backoff.Retry(func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.base, bytes.NewReader(body))
		if err != nil {
			return backoff.Permanent(err)
		}
		h := req.Header
		h.Add("X-Idempotency-Key", key)
		return c.send(req)
	}, backoff.NewExponentialBackOff())
}

// A local helper sets the key on the header map.
func withKeyHeader(h http.Header, key string) { // want withKeyHeader:`idemKey\(sets=\[0\]\)`
	h.Set("Idempotency-Key", key)
}

func (c *client) headerHelper(ctx context.Context, body []byte, key string) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
		withKeyHeader(req.Header, key)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A polling loop that gives up on the first error retries nothing.
func (c *client) poll(ctx context.Context, body []byte) error {
	for {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/jobs/next", bytes.NewReader(body))
		if err := c.send(req); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
}

// A loop over a channel: each message is its own request.
func (c *client) drain(ctx context.Context, in <-chan []byte) error {
	for msg := range in {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(msg))
		if err := c.send(req); err != nil {
			continue
		}
	}
	return nil
}

// The method is not a constant.
func (c *client) anyMethod(ctx context.Context, method string, body []byte) error { // want anyMethod:`idemKey\(sendsMethod=\[1\]\)`
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base, bytes.NewReader(body))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// "put" in lower case is still PUT.
func (c *client) lowerPut(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, "put", c.base, bytes.NewReader(body))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A deferred closure in the loop is no attempt.
func (c *client) deferred(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		defer func() {
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

// Plain clients do not retry.
func (c *client) plainClients(ctx context.Context, body []byte) error {
	hc := &http.Client{Transport: &http.Transport{}}
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
	if _, err := hc.Do(req); err != nil {
		return err
	}
	req2, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body))
	if _, err := http.DefaultClient.Do(req2); err != nil {
		return err
	}
	_, err := http.Post(c.base, "application/json", bytes.NewReader(body))
	return err
}

// A retrying client used for PUT, and one whose field has retries off.
type store struct {
	rc *retryablehttp.Client
}

func newStore() *store {
	s := &store{rc: retryablehttp.NewClient()}
	s.rc.RetryMax = 0
	return s
}

func (s *store) put(ctx context.Context, body []byte) error {
	req, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodPut, "https://api.example.com/items/1", body)
	if _, err := s.rc.Do(req); err != nil {
		return err
	}
	req2, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/items", body)
	_, err := s.rc.Do(req2)
	return err
}

// resty keys set verbatim or in a multi-value map.
func restyKeys(body any, key string) error {
	c := resty.New().SetRetryCount(2)
	if _, err := c.R().SetHeaderVerbatim("idempotency-key", key).SetBody(body).Post("https://api.example.com/charges"); err != nil {
		return err
	}
	r := c.R()
	r.SetHeaderMultiValues(map[string][]string{"Idempotency-Key": {key}})
	_, err := r.Patch("https://api.example.com/charges/1")
	return err
}

// The key is made on the first attempt only.
func (c *client) lazyKey(ctx context.Context, body []byte) error {
	var key string
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
