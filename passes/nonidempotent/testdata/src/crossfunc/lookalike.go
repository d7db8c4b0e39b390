package crossfunc

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"
	k8sretry "k8s.io/client-go/util/retry"
)

// A send wrapper taking a request, used by a retried and a non-retried
// caller: it builds nothing, and it does not make every caller's request
// a retried one (no fact, no report in create).
func (c *Client) send(req *http.Request) error {
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Client) create(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/items", bytes.NewReader(b))
	if err != nil {
		return err
	}
	return c.send(req)
}

func (c *Client) refresh(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/items", nil)
		if err != nil {
			return err
		}
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A POST made after the attempt succeeded runs once.
func (c *Client) notify(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/notify", nil)
	if err != nil {
		return err
	}
	return c.send(req)
}

func (c *Client) fetchThenNotify(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := c.refresh(ctx); err == nil {
			return c.notify(ctx)
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A POST made on the failure path reports each failure: not a retry of
// one request.
func (c *Client) report(ctx context.Context, err error) {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/errors", bytes.NewReader([]byte(err.Error())))
	c.send(req)
}

func (c *Client) fetchReporting(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		err := c.refresh(ctx)
		if err == nil {
			return nil
		}
		c.report(ctx, err)
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A POST made before the attempt, but only on the first iteration's
// branch.
func (c *Client) fetchAfterLogin(ctx context.Context, loggedIn bool) error {
	for i := 0; i < 3; i++ {
		if !loggedIn {
			c.login(ctx)
			loggedIn = true
		}
		if err := c.refresh(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *Client) login(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/login", nil)
	if err != nil {
		return err
	}
	return c.send(req)
}

// Started in a goroutine: runs apart from the attempts.
func (c *Client) fetchAndLog(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		go c.audit(ctx)
		if err := c.refresh(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *Client) audit(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/audit", nil)
	if err != nil {
		return err
	}
	return c.send(req)
}

// The attempt's function sets a key it is given: the caller made it once.
func (c *Client) chargeWith(ctx context.Context, key string, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/charges", bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Idempotency-Key", key)
	return c.send(req)
}

func (c *Client) Charge(ctx context.Context, b []byte) error {
	key := uuid.NewString()
	for i := 0; i < 3; i++ {
		if err := c.chargeWith(ctx, key, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// PUT is idempotent.
func (c *Client) put(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.base+"/items/1", bytes.NewReader(b))
	if err != nil {
		return err
	}
	return c.send(req)
}

func (c *Client) Put(ctx context.Context, b []byte) error {
	for i := 0; i < 3; i++ {
		if err := c.put(ctx, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Failover: each attempt posts to the next server.
func (c *Client) postTo(ctx context.Context, url string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, nil)
	if err != nil {
		return err
	}
	return c.send(req)
}

func (c *Client) failover(ctx context.Context, urls []string) error {
	for i := 0; i < len(urls); i++ {
		if err := c.postTo(ctx, urls[i]); err == nil {
			return nil
		}
	}
	return errors.New("all servers failed")
}

// Retries of optimistic-concurrency conflicts only.
func (c *Client) update(ctx context.Context) error {
	return k8sretry.RetryOnConflict(k8sretry.DefaultRetry, func() error {
		return c.postTo(ctx, c.base+"/update")
	})
}

// Not a retry loop: each iteration posts another item.
func (c *Client) createAll(ctx context.Context, items [][]byte) error {
	for _, it := range items {
		if err := c.create(ctx, it); err != nil {
			return err
		}
	}
	return nil
}

// An interface implemented by two types of the package: which one the
// call reaches is not known.
type Sink interface {
	Put(ctx context.Context, b []byte) error
}

type httpSink struct{ c *Client }

func (s httpSink) Put(ctx context.Context, b []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.c.base+"/sink", bytes.NewReader(b))
	if err != nil {
		return err
	}
	return s.c.send(req)
}

type memSink struct{ items [][]byte }

func (m *memSink) Put(ctx context.Context, b []byte) error {
	m.items = append(m.items, b)
	return nil
}

func drain(ctx context.Context, s Sink, b []byte) error {
	for i := 0; i < 3; i++ {
		if err := s.Put(ctx, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A function value: what it does is not known.
type Poster struct {
	post func(ctx context.Context, b []byte) error
}

func (p *Poster) run(ctx context.Context, b []byte) error {
	for i := 0; i < 3; i++ {
		if err := p.post(ctx, b); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A POST the attempt's function keeps for later.
func (c *Client) prepare(ctx context.Context) (*http.Request, error) {
	return http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/later", nil)
}

func (c *Client) prepared(ctx context.Context) (*http.Request, error) {
	for i := 0; i < 3; i++ {
		if req, err := c.prepare(ctx); err == nil {
			return req, nil
		}
		time.Sleep(time.Second)
	}
	return nil, errors.New("gave up")
}
