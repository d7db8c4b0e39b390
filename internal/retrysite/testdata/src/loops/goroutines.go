package loops

import (
	"context"
	"log"
	"time"
)

// Attempts made in a goroutine the body starts, which reports over
// channels the function holds (issue 30): a receive from the channel that
// carries only its non-nil errors is a failure, one from the other its
// answer.

// The attempt's failure comes back on errs and the loop goes round on it.
func viaGoroutine(ctx context.Context, c *Client) (string, error) {
	values := make(chan string, 1)
	errs := make(chan error, 1)
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\] delay=fixed dep=c`
		go func() {
			v, err := c.Get(ctx, "k")
			if err != nil {
				errs <- err
				return
			}
			values <- v
		}()
		select {
		case v := <-values:
			return v, nil
		case <-errs:
			time.Sleep(time.Second)
		}
	}
	return "", context.DeadlineExceeded
}

// A callback with two results decides whether the failure goes round,
// until the context ends.
func viaGoroutineCallback(ctx context.Context, c *Client, keepOn func(int, error) (bool, error)) (string, error) {
	values := make(chan string, 1)
	errs := make(chan error, 1)
	for i := 1; ; i++ { // want `loop \[time-bounded\] delay=none dep=c`
		go func() {
			v, err := c.Get(ctx, "k")
			if err != nil {
				errs <- err
				return
			}
			values <- v
		}()
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case v := <-values:
			return v, nil
		case err := <-errs:
			more, replacement := keepOn(i, err)
			if replacement != nil {
				err = replacement
			}
			if !more {
				return "", err
			}
			continue
		}
	}
}

// Look-alike: a server restarted whenever it stops, whatever it returned
// (nil too, sent as it is): a supervisor, not a retry.
func supervise(ctx context.Context, c *Client) {
	errs := make(chan error, 1)
	for ctx.Err() == nil {
		go func() {
			errs <- c.Put(ctx, "serve", "")
		}()
		if err := <-errs; err != nil {
			log.Print(err)
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: a worker whose answers go round too: each iteration fetches
// the next value and hands it on, a failure waits first.
func fetchEach(ctx context.Context, c *Client, out chan<- string) {
	values := make(chan string, 1)
	errs := make(chan error, 1)
	for ctx.Err() == nil {
		go func() {
			v, err := c.Get(ctx, "next")
			if err != nil {
				errs <- err
				return
			}
			values <- v
		}()
		select {
		case v := <-values:
			out <- v
		case <-errs:
			time.Sleep(time.Second)
		}
	}
}
