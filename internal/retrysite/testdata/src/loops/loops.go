package loops

import (
	"context"
	"errors"
	"io"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context, key string) (string, error) { return "", nil }
func (c *Client) Put(ctx context.Context, key, v string) error        { return nil }
func (c *Client) Try(ctx context.Context) (retry bool, err error)     { return false, nil }

type Service struct {
	inventory *Client
	payments  *Client
}

var errGaveUp = errors.New("gave up")

// The classic: a counted loop that sleeps between attempts.
func (s *Service) counted(ctx context.Context) (string, error) {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=fixed dep=inventory`
		v, err := s.inventory.Get(ctx, "k")
		if err == nil {
			return v, nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return "", errGaveUp
}

// for range n, immediate retries without delay.
func (s *Service) rangeInt(ctx context.Context) error {
	for range 4 { // want `loop \[4 attempts\] delay=none dep=payments`
		if err := s.payments.Put(ctx, "k", "v"); err == nil {
			return nil
		}
	}
	return errGaveUp
}

// Inclusive bound starting at 1, with an else branch.
func (s *Service) inclusive(ctx context.Context) error {
	var err error
	for attempt := 1; attempt <= 5; attempt++ { // want `loop \[5 attempts\] delay=exponential\+jitter`
		if err = s.payments.Put(ctx, "k", "v"); err != nil {
			d := time.Duration(1<<attempt) * time.Millisecond
			time.Sleep(d + time.Duration(rand.Intn(10)))
		} else {
			break
		}
	}
	return err
}

// A variable bound.
func (s *Service) variable(ctx context.Context, maxAttempts int) error {
	for i := 0; i < maxAttempts; i++ { // want `loop \[maxAttempts attempts\]`
		err := s.payments.Put(ctx, "k", "v")
		if err != nil {
			continue
		}
		return nil
	}
	return errGaveUp
}

// for {} with a counter on the failure path.
func (s *Service) counter(ctx context.Context) error {
	attempts := 0
	for { // want `loop \[3 attempts\] delay=fixed`
		err := s.payments.Put(ctx, "k", "v")
		if err == nil {
			return nil
		}
		attempts++
		if attempts >= 3 {
			return err
		}
		time.Sleep(time.Second)
	}
}

// for {} bounded by the context.
func (s *Service) withContext(ctx context.Context) error {
	for { // want `loop \[time-bounded\] delay=fixed`
		err := s.payments.Put(ctx, "k", "v")
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

// A deadline in the condition.
func (s *Service) deadline(ctx context.Context) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) { // want `loop \[time-bounded\]`
		if err := s.payments.Put(ctx, "k", "v"); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

// Unbounded, labeled, with an HTTP status check.
func unbounded(client *http.Client, req *http.Request) *http.Response {
retry:
	for { // want `loop \[unbounded\] delay=fixed`
		resp, err := client.Do(req)
		if err != nil || resp.StatusCode >= 500 {
			time.Sleep(time.Second)
			continue retry
		}
		return resp
	}
}

// The condition tests the error; the attempt before the loop counts.
func condErr(ctx context.Context, c *Client) error {
	err := c.Put(ctx, "k", "v")
	for i := 0; err != nil && i < 2; i++ { // want `loop \[3 attempts\]`
		time.Sleep(time.Second)
		err = c.Put(ctx, "k", "v")
	}
	return err
}

// An HTTP request to a constant host.
func httpHost(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=fixed dep=api.example.com`
		resp, err := http.Get("https://api.example.com/v1/items")
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

// ---- Look-alikes that are not retry loops ----

// Range over a slice: each iteration does different work.
func overSlice(ctx context.Context, c *Client, keys []string) error {
	for _, k := range keys {
		if _, err := c.Get(ctx, k); err == nil {
			return nil
		}
	}
	return errGaveUp
}

// Failover over a list by index is a retry: up to one attempt per client.
func failover(ctx context.Context, clients []*Client) error {
	for i := 0; i < len(clients); i++ { // want `loop \[len\(clients\) attempts\]`
		if _, err := clients[i].Get(ctx, "k"); err == nil {
			return nil
		}
	}
	return errGaveUp
}

// A reading loop: exits on error, iterates on success.
func reading(r io.Reader) error {
	buf := make([]byte, 512)
	for {
		_, err := r.Read(buf)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Paging: exits on error, iterates on success.
func paging(ctx context.Context, c *Client) error {
	token := ""
	for {
		next, err := c.Get(ctx, token)
		if err != nil {
			return err
		}
		if next == "" {
			return nil
		}
		token = next
	}
}

// Polling for a state change: exits on error.
func polling(ctx context.Context, c *Client) error {
	for {
		state, err := c.Get(ctx, "state")
		if err != nil {
			return err
		}
		if state == "done" {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// An accept-style loop: keeps going after success.
func serve(ctx context.Context, c *Client) {
	for {
		v, err := c.Get(ctx, "job")
		if err != nil {
			time.Sleep(time.Second)
			continue
		}
		_ = v
	}
}

// The attempt has no error to test.
func noError(ch chan int) int {
	for i := 0; i < 3; i++ {
		if v := <-ch; v > 0 {
			return v
		}
	}
	return 0
}

// Local work only: parsing, files.
func localWork(lines []string) int {
	for i := 0; i < 3; i++ {
		n, err := strconv.Atoi(lines[0])
		if err == nil {
			return n
		}
	}
	for i := 0; i < 3; i++ {
		if err := os.Remove("/tmp/x"); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return 0
}

// Each error is handled the same way on both paths.
func bothFlowOn(ctx context.Context, c *Client, keys []string) {
	for i := 0; i < 3; i++ {
		_, err := c.Get(ctx, "k")
		if err != nil {
			println(err.Error())
		}
	}
}

// The break leaves the switch, not the loop.
func breakInSwitch(ctx context.Context, c *Client) {
	for i := 0; i < 3; i++ {
		_, err := c.Get(ctx, "k")
		switch {
		case err == nil:
			break
		}
		time.Sleep(time.Second)
	}
}
