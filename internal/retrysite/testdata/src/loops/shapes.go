package loops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

// Shapes found in real code. Each negative is a look-alike of a retry loop
// that retrylint once reported.

type tokenError struct{ code string }

func (e *tokenError) Error() string { return e.code }

type exchanger struct{ c *Client }

func (e *exchanger) send(ctx context.Context) (string, error) { return e.c.Get(ctx, "device") }

func (e *exchanger) parse(resp string) (string, error) {
	var tok struct{ Token string }
	if err := json.Unmarshal([]byte(resp), &tok); err != nil {
		return "", err
	}
	return tok.Token, nil
}

// Polling for a pending state: the request's own failure leaves the loop,
// only the parsed "pending" answer goes round again.
func devicePoll(ctx context.Context, e *exchanger) (string, error) {
	for {
		resp, err := e.send(ctx)
		if err != nil {
			return "", err
		}
		tok, err := e.parse(resp)
		if err == nil {
			return tok, nil
		}
		var te *tokenError
		if !errors.As(err, &te) || te.code != "pending" {
			return "", err
		}
		time.Sleep(time.Second)
	}
}

type logStore struct{ c *Client }

func (s *logStore) First(ctx context.Context) (string, error)   { return s.c.Get(ctx, "first") }
func (s *logStore) Fetch(ctx context.Context, idx string) error { return s.c.Put(ctx, idx, "") }

// A race with truncation: the loop goes round only when the first index
// moved, and gives up when it sees the index that failed before. No
// operation is attempted twice.
func oldest(ctx context.Context, s *logStore) error {
	var lastFailed string
	var lastErr error
	for {
		idx, err := s.First(ctx)
		if err != nil {
			return err
		}
		if idx == lastFailed {
			return lastErr
		}
		err = s.Fetch(ctx, idx)
		if err == nil {
			return nil
		}
		lastFailed, lastErr = idx, err
	}
}

// The same without the check: the fetch of a freshly looked-up index is
// retried on every failure.
func oldestRetried(ctx context.Context, s *logStore) error {
	for { // want `loop \[unbounded\] delay=none dep=s`
		idx, err := s.First(ctx)
		if err != nil {
			return err
		}
		if err := s.Fetch(ctx, idx); err == nil {
			return nil
		}
	}
}

// Reading results: a success does not always leave the loop.
func drain(ctx context.Context, c *Client, pending func() bool) {
	for pending() {
		v, err := c.Get(ctx, "result")
		if err != nil {
			println(err.Error())
		} else if v == "" {
			break
		}
	}
}

// A periodic refresh on a ticker.
func refresh(ctx context.Context, c *Client, out chan<- string) {
	t := time.NewTicker(time.Minute)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			v, err := c.Get(ctx, "targets")
			if err != nil {
				continue
			}
			select {
			case out <- v:
			case <-ctx.Done():
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

type pool struct{ c *Client }

func (p *pool) active() error { return p.c.Put(context.Background(), "ping", "") }

// Waiting on a ticker for a health check to pass retries the check every
// tick until it succeeds.
func waitActive(p *pool, stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for { // want `loop \[unbounded\] delay=fixed dep=p`
		select {
		case <-stop:
			return
		case <-t.C:
			if p.active() == nil {
				return
			}
		}
	}
}

// Each attempt asks for less: different work, not a retry.
func shrinkBuffer(c *net.UDPConn) error {
	size := 1 << 20
	var err error
	for size > 0 {
		if err = c.SetReadBuffer(size); err == nil {
			return nil
		}
		size /= 2
	}
	return err
}

// Walking an error chain.
func unwrapAll(err error, target error) bool {
	for {
		if err == target {
			return true
		}
		switch x := err.(type) {
		case interface{ Unwrap() error }:
			err = x.Unwrap()
			if err == nil {
				return false
			}
		default:
			return false
		}
	}
}

type server struct{ certFile string }

func (s *server) loadCert() error {
	data, err := os.ReadFile(s.certFile)
	if err != nil {
		return fmt.Errorf("reading certificate: %w", err)
	}
	if !strings.Contains(string(data), "CERTIFICATE") {
		return errors.New("no certificate")
	}
	return nil
}

// Reloading a local file while it is being written is a retry of the
// function that reads it: a function of the package that does local I/O
// is an attempt (the corpus labels OPA's TLS reload so), though a direct
// call of os or io is not.
func (s *server) reload() {
	for i := 0; i < 5; i++ { // want `loop \[5 attempts\] delay=fixed dep=s`
		if err := s.loadCert(); err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// ---- Bounds ----

type retryer interface {
	Retry(err error) (time.Duration, bool)
}

// A wait that takes the context bounds the loop by the context.
func contextSleep(ctx context.Context, c *Client, sleep func(context.Context, time.Duration) error) error {
	for { // want `loop \[time-bounded\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if err := sleep(ctx, time.Second); err != nil {
			return err
		}
	}
}

// A retry policy decides: the bound is unknown, not absent.
func policy(ctx context.Context, c *Client, r retryer) error {
	for { // want `loop \[unknown bound\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		d, ok := r.Retry(err)
		if !ok {
			return err
		}
		time.Sleep(d)
	}
}

// Classifying errors does not bound retries of the transient ones.
func classify(ctx context.Context, c *Client, permanent func(error) bool) error {
	for { // want `loop \[unbounded\]`
		err := c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if permanent(err) {
			return err
		}
		time.Sleep(time.Second)
	}
}

// A decremented counter.
func decrement(ctx context.Context, c *Client, retries int) error {
	var err error
	for { // want `loop \[retries\+1 attempts\]`
		err = c.Put(ctx, "k", "v")
		if err == nil || retries == 0 {
			break
		}
		retries--
	}
	return err
}

// What is left of the limit, worked out in the body: remain <= 0 is
// i >= max.
func remaining(ctx context.Context, c *Client, max int) error {
	var err error
	for i := 0; ; i++ { // want `loop \[max\+1 attempts\]`
		if err = c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		remain := max - i
		if remain <= 0 {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// Its look-alike takes from the limit what is no counter (the attempt's
// size): the loop has no count.
func remainingSize(ctx context.Context, c *Client, max int) error {
	var err error
	for i := 0; ; i++ { // want `loop \[unknown bound\]`
		var v string
		if v, err = c.Get(ctx, "k"); err == nil {
			return nil
		}
		n := len(v)
		remain := max - n
		if remain <= 0 {
			break
		}
		time.Sleep(time.Second)
	}
	return err
}

// The for statement's counter compared with a variable limit.
func limit(ctx context.Context, c *Client, retry int) error {
	var err error
	for i := 0; true; i++ { // want `loop \[retry\+1 attempts\]`
		err = c.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		if i == retry {
			break
		}
	}
	return err
}

// A counter that starts at 1.
func fromOne(ctx context.Context, c *Client, maxTries int) error {
	var err error
	for n := 1; ; n++ { // want `loop \[maxTries attempts\]`
		if err = c.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		if n >= maxTries {
			return err
		}
	}
}
