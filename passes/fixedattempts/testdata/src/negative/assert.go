package negative

import (
	"errors"
	"testing"
)

var errLimit = errors.New("limit")

type queue struct{ errs chan error }

func (q *queue) take() error { return <-q.errs }

// A test asserting the same error on every iteration (to catch a select
// that picks a case at random): a mismatch, a success too, aborts with
// t.Fatalf, and the expected error goes on to the next iteration. No
// success leaves the loop, so it is no retry.
func assertEveryIteration(t *testing.T) {
	for i := 0; i < 200; i++ {
		q := &queue{errs: make(chan error, 1)}
		q.errs <- errLimit
		if err := q.take(); err != errLimit {
			t.Fatalf("iteration %d: got %v", i, err)
		}
	}
}

// The same with a panic.
func mustFailEveryTime(q *queue) {
	for i := 0; i < 10; i++ {
		if err := q.take(); err == nil {
			panic("took from a closed queue")
		}
	}
}
