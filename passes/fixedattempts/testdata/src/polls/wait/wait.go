// Package wait is a copy of a poll helper kept in a module (as many
// modules vendor k8s's util/wait): it calls a condition until the
// condition says it is done, waiting between calls.
package wait

import (
	"errors"
	"time"
)

// ErrWaitTimeout is returned when the condition never said done.
var ErrWaitTimeout = errors.New("timed out waiting for the condition")

// ConditionFunc says whether the wait is done, or that it failed.
type ConditionFunc func() (done bool, err error)

// Backoff says how long to wait between calls, and how many to make.
type Backoff struct {
	Duration time.Duration
	Factor   float64
	Steps    int
}

// Step returns the next wait and counts a step.
func (b *Backoff) Step() time.Duration {
	d := b.Duration
	b.Duration = time.Duration(float64(b.Duration) * b.Factor)
	b.Steps--
	return d
}

func runCondition(condition ConditionFunc) (bool, error) {
	return condition()
}

// ExponentialBackoff calls condition until it is done, an error, or the
// steps run out.
func ExponentialBackoff(backoff Backoff, condition ConditionFunc) error {
	for backoff.Steps > 0 {
		if ok, err := runCondition(condition); err != nil || ok {
			return err
		}
		if backoff.Steps == 1 {
			break
		}
		time.Sleep(backoff.Step())
	}
	return ErrWaitTimeout
}

// Poll calls condition up to n times, a fixed interval apart.
func Poll(interval time.Duration, n int, condition ConditionFunc) error {
	for i := 0; i < n; i++ {
		ok, err := condition()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		time.Sleep(interval)
	}
	return ErrWaitTimeout
}

// Each calls f for every element: a loop over work, which waits, but
// whose function is no condition.
func Each(items []string, f func(string) error) error {
	for _, it := range items {
		if err := f(it); err != nil {
			return err
		}
		time.Sleep(time.Millisecond)
	}
	return nil
}

// While calls condition again while it answers true: it leaves when the
// condition is not done, the opposite of a poll.
func While(interval time.Duration, condition ConditionFunc) error {
	for {
		more, err := condition()
		if err != nil {
			return err
		}
		if !more {
			return nil
		}
		time.Sleep(interval)
	}
}
