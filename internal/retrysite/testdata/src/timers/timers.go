package timers

import (
	"context"
	"iter"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context, key string) (string, error) { return "", nil }

type Service struct{ inventory *Client }

// retryTimer yields once per attempt, up to max times, waiting after each.
func retryTimer(ctx context.Context, max int, unit time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range max {
			if !yield(i) {
				return
			}
			select {
			case <-time.After(unit << i):
			case <-ctx.Done():
				return
			}
		}
	}
}

// A range over a retry timer: each yield is an attempt.
func (s *Service) timed(ctx context.Context, n int) (string, error) {
	var err error
	for range retryTimer(ctx, n, time.Second) { // want `loop \[n attempts\] delay=yes dep=inventory`
		var v string
		v, err = s.inventory.Get(ctx, "k")
		if err != nil {
			continue
		}
		return v, nil
	}
	return "", err
}

// pageNumbers yields page numbers without waiting: each one is different work.
func pageNumbers(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// A range over an iterator that does not wait: paging, not retrying.
func (s *Service) paged(ctx context.Context) error {
	for range pageNumbers(3) {
		if _, err := s.inventory.Get(ctx, "k"); err != nil {
			continue
		}
		return nil
	}
	return nil
}

// forever waits between yields, but counts nothing.
func forever(d time.Duration) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
			time.Sleep(d)
		}
	}
}

// A range over an uncounted timer is not read as one.
func (s *Service) uncounted(ctx context.Context) error {
	for range forever(time.Second) {
		if _, err := s.inventory.Get(ctx, "k"); err != nil {
			continue
		}
		return nil
	}
	return nil
}
