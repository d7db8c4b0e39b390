package fix

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error { return nil }
func (c *Client) Get(ctx context.Context) (string, error)    { return "", nil }

func backoff(i int) time.Duration { return time.Duration(i+1) * 100 * time.Millisecond }

func send(ctx context.Context, c *Client, msg string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = c.Send(ctx, msg); err == nil {
			return nil
		}
		time.Sleep(backoff(attempt)) // want `retry loop waits with time.Sleep`
	}
	return err
}

func get(ctx context.Context, c *Client) (string, error) {
	for i := 0; i < 3; i++ {
		v, err := c.Get(ctx)
		if err == nil {
			return v, nil
		}
		if i > 0 {
			<-time.After(time.Second) // want `retry loop waits with <-time.After`
		}
	}
	return "", errors.New("gave up")
}

func handler(w http.ResponseWriter, r *http.Request, c *Client) {
	for i := 0; i < 3; i++ {
		if _, err := c.Get(r.Context()); err == nil {
			return
		}
		time.Sleep(time.Second) // want `cancelling r.Context\(\) does not interrupt`
	}
}

func timer(ctx context.Context, c *Client) (int, string, error) {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return i, "sent", nil
		}
		t.Reset(time.Second)
		<-t.C // want `retry loop waits with <-t.C`
	}
	return 0, "", errors.New("gave up")
}

func timers(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		select {
		case <-time.After(time.Second): // want `no case for ctx.Done\(\)`
		}
	}
	return errors.New("gave up")
}

// A context derived from the inherited one under the same name.
func derived(ctx context.Context, c *Client) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		switch i {
		case 0:
			time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
		default:
			time.Sleep(2 * time.Second)
		}
	}
	return errors.New("gave up")
}
