package loops

import (
	"context"
	"log"
	"time"
)

// A verdict the loop states (issue 30): a callback that returns only a
// boolean and an error, whose name says nothing, means what the loop
// does with it. The value that leaves wants no retry; the other goes
// round.

// A retry helper: f says whether it wants another go; true goes round.
func retryWith(f func(int) (bool, error), attempts int, cancel <-chan struct{}) error {
	var err error
	var shouldContinue bool
	interval := time.Second
	for i := 0; ; i++ { // want `loop \[attempts attempts\] delay=exponential`
		shouldContinue, err = f(i)
		if !shouldContinue {
			return err
		}
		if attempts > 0 && i >= attempts-1 {
			break
		}
		select {
		case <-cancel:
			return nil
		case <-time.After(interval):
		}
		interval *= 2
	}
	return err
}

// Its call: the closure says true with its failure.
func (s *Service) recreate(ctx context.Context) error {
	return retryWith(func(int) (bool, error) { // want `helper retryWith \[5 attempts\] delay=exponential dep=payments`
		if err := s.payments.Put(ctx, "k", "v"); err != nil {
			return true, err
		}
		return false, nil
	}, 5, nil)
}

// The same read the other way round: the loop leaves when the value is
// true, so true is what wants no retry.
func untilStop(f func() (bool, error), d time.Duration) error {
	for n := 0; n < 4; n++ { // want `loop \[4 attempts\] delay=fixed`
		stop, err := f()
		if stop {
			return err
		}
		time.Sleep(d)
	}
	return nil
}

// Look-alike: a worker whose callback says whether it did work; neither
// value leaves, it idles when there was none.
func workLoop(handle func() (bool, error), stop <-chan struct{}) {
	for {
		worked, err := handle()
		if !worked {
			select {
			case <-stop:
				return
			case <-time.After(time.Second):
			}
		}
		if err != nil {
			log.Print(err)
		}
	}
}

// Look-alike: the steps of a job, each other work; a failure leaves
// before the verdict is read.
func runSteps(step func(int) (bool, error)) error {
	for i := 0; ; i++ {
		more, err := step(i)
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
	}
}

type cursor struct{ c *Client }

func (c *cursor) advance(ctx context.Context) (bool, error) {
	_, err := c.c.Get(ctx, "next")
	return err == nil, err
}

// Look-alike: a method takes the next value; what its verdict means is
// its body's to say, not the loop's.
func (c *cursor) drain(ctx context.Context, use func()) error {
	for {
		more, err := c.advance(ctx)
		if !more {
			return err
		}
		use()
	}
}
