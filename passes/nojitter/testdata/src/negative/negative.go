package negative

import (
	"context"
	crand "crypto/rand"
	"errors"
	"math/big"
	mrand "math/rand"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"
)

type Client struct {
	rng *mrand.Rand
}

func (c *Client) Send(ctx context.Context, msg string) error   { return nil }
func (c *Client) Do(req *http.Request) (*http.Response, error) { return nil, nil }
func (c *Client) Ping() error                                  { return nil }

type BackOff interface{ NextBackOff() time.Duration }

// Full jitter.
func fullJitter(ctx context.Context, c *Client) error {
	for attempt := 0; attempt < 4; attempt++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(rand.N(time.Duration(1<<attempt) * 100 * time.Millisecond))
	}
	return errors.New("gave up")
}

// Equal jitter through a variable, with math/rand.
func equalJitter(ctx context.Context, c *Client) error {
	d := time.Second
	for {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		wait := d/2 + time.Duration(mrand.Int63n(int64(d/2)))
		time.Sleep(wait)
		d *= 2
	}
}

// A random source kept in a field.
func (c *Client) field(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(time.Duration(c.rng.Int63n(1000)) * time.Millisecond)
	}
	return errors.New("gave up")
}

// crypto/rand.
func cryptoJitter(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		n, _ := crand.Int(crand.Reader, big.NewInt(1000))
		time.Sleep(time.Duration(n.Int64()) * time.Millisecond)
	}
	return errors.New("gave up")
}

// A jitter helper of the package.
func jitter(d time.Duration) time.Duration {
	return time.Duration(rand.Float64() * float64(d))
}

func viaHelper(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(jitter(time.Second))
	}
	return errors.New("gave up")
}

// Jitter on one path is jitter.
func somePath(ctx context.Context, c *Client, spread bool) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		d := time.Second
		if spread {
			d = rand.N(d)
		}
		time.Sleep(d)
	}
	return errors.New("gave up")
}

// The server says how long to wait.
func retryAfter(ctx context.Context, c *Client, req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := c.Do(req)
		if err == nil && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests {
			return resp, nil
		}
		wait := time.Second
		if resp != nil {
			if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
				wait = time.Duration(secs) * time.Second
			}
		}
		time.Sleep(wait)
	}
	return nil, errors.New("gave up")
}

// A backoff object the pass cannot see into.
func object(ctx context.Context, c *Client, b BackOff) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(b.NextBackOff())
	}
	return errors.New("gave up")
}

// No wait at all: a different problem.
func noWait(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// Waits outside the retries.
func outside(ctx context.Context, c *Client) error {
	time.Sleep(time.Second)
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			time.Sleep(time.Second)
			return nil
		}
	}
	return errors.New("gave up")
}

// No retry: a poll that leaves on every error.
func poll(ctx context.Context, c *Client) error {
	for {
		if err := c.Send(ctx, "tick"); err != nil {
			return err
		}
		time.Sleep(time.Second)
	}
}

// A wait in a goroutine is not the loop's.
func spawned(ctx context.Context, c *Client) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		go time.Sleep(time.Second)
		time.Sleep(rand.N(time.Second))
	}
	return errors.New("gave up")
}

// A value received per attempt is not seen into.
func received(ctx context.Context, c *Client, next <-chan time.Duration) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(<-next)
	}
	return errors.New("gave up")
}

// A duration set through a pointer is not followed.
func pointer(ctx context.Context, c *Client, set func(*time.Duration)) error {
	d := time.Second
	set(&d)
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		time.Sleep(d)
	}
	return errors.New("gave up")
}

// A call taking a context and a duration that does not say it waits.
func notSleep(ctx context.Context, c *Client, fetch func(context.Context, time.Duration) error) error {
	for i := 0; i < 3; i++ {
		if err := c.Send(ctx, "x"); err == nil {
			return nil
		}
		if err := fetch(ctx, time.Second); err != nil {
			return err
		}
		time.Sleep(rand.N(time.Second))
	}
	return errors.New("gave up")
}
