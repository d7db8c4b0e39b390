package loops

import (
	"context"
	"errors"
	"net/http"
	"time"
)

type Client struct{}

func (c *Client) Send(ctx context.Context, msg string) error   { return nil }
func (c *Client) Get(ctx context.Context) (string, error)      { return "", nil }
func (c *Client) Do(req *http.Request) (*http.Response, error) { return nil, nil }

func backoff(i int) time.Duration { return time.Duration(i+1) * 100 * time.Millisecond }

// The classic: time.Sleep between attempts.
func send(ctx context.Context, c *Client, msg string) error {
	var err error
	for attempt := 0; attempt < 5; attempt++ {
		if err = c.Send(ctx, msg); err == nil {
			return nil
		}
		time.Sleep(backoff(attempt)) // want `retry loop waits with time.Sleep, which cancelling ctx does not interrupt: a request its caller gave up on keeps making attempts`
	}
	return err
}

// A bare receive from time.After is a sleep.
func get(ctx context.Context, c *Client) (string, error) {
	for {
		v, err := c.Get(ctx)
		if err == nil {
			return v, nil
		}
		<-time.After(time.Second) // want `retry loop waits with <-time.After, which cancelling ctx does not interrupt`
	}
}

// So is a timer's channel.
func timer(ctx context.Context, c *Client) error {
	t := time.NewTimer(time.Second)
	defer t.Stop()
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		t.Reset(time.Second)
		<-t.C // want `retry loop waits with <-t.C, which`
	}
	return errors.New("gave up")
}

// Several waits of one loop: one diagnostic, the others related.
func twoWaits(ctx context.Context, c *Client, busy bool) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if busy {
			time.Sleep(2 * time.Second) // want `retry loop waits with time.Sleep`
			continue
		}
		<-time.After(time.Second)
	}
	return errors.New("gave up")
}

// A handler inherits its request's context.
func handler(w http.ResponseWriter, r *http.Request, c *Client) {
	for i := 0; i < 3; i++ {
		if _, err := c.Get(r.Context()); err == nil {
			return
		}
		time.Sleep(time.Second) // want `cancelling r.Context\(\) does not interrupt`
	}
}

// The loop checks the context before each attempt: no more attempts, but
// the wait still runs to its end.
func checked(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(10 * time.Second) // want `a request its caller gave up on still waits out the backoff`
	}
	return errors.New("gave up")
}

// A literal run during the call inherits the function's context.
func literal(ctx context.Context, c *Client) error {
	run := func() error {
		for i := 0; i < 3; i++ {
			if err := c.Send(ctx, "x"); err == nil {
				return nil
			}
			time.Sleep(time.Second) // want `cancelling ctx does not interrupt`
		}
		return errors.New("gave up")
	}
	return run()
}

// A wait at the top of the body runs before every retry.
func top(ctx context.Context, c *Client) error {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 {
			time.Sleep(time.Second) // want `retry loop waits with time.Sleep`
		}
		if err = c.Send(ctx, "x"); err == nil {
			return nil
		}
	}
	return err
}

// An unnamed context: reported, with no fix (nothing can name it).
func unnamed(_ context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(context.TODO(), "x"); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `cancelling the blank context.Context parameter does not interrupt`
	}
	return errors.New("gave up")
}

type stream interface {
	Context() context.Context
	Send(string) error
}

// A server stream carries its context.
func push(s stream) error {
	for i := 0; i < 3; i++ {
		if err := s.Send("x"); err == nil {
			return nil
		}
		time.Sleep(time.Second) // want `cancelling s.Context\(\) does not interrupt`
	}
	return errors.New("gave up")
}
