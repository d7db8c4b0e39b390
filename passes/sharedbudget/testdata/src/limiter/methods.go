package limiter

import (
	"context"
	"net/http"
	"time"

	"golang.org/x/time/rate"
)

// One limiter before the retries of two clients, one loop calling the
// client inline and the other through a method of its own: the method's
// body reaches one host, which is the attempt's dependency.
var hostLimiter = rate.NewLimiter(10, 10) // want `rate limiter hostLimiter guards retries to billing.example and track.example`

type Tracker struct{ hc *http.Client }

func (c *Tracker) track(ctx context.Context) error {
	resp, err := c.hc.Get("https://track.example/v1")
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (c *Tracker) Track(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 && !hostLimiter.Allow() {
			return err
		}
		if err = c.track(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

func (c *Tracker) Bill(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ {
		if i > 0 && !hostLimiter.Allow() {
			return err
		}
		var resp *http.Response
		if resp, err = c.hc.Get("https://billing.example/v1"); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Millisecond)
	}
	return err
}
