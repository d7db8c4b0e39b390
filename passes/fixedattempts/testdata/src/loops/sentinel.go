package loops

import "errors"

var ErrBusy = errors.New("busy")

type queue struct{ errs chan error }

func (q *queue) take() error { return <-q.errs }

// The look-alike of negative/assert.go that is a retry: a busy queue is
// tried again, anything else (a success too) returns.
func takeUnlessBusy(q *queue) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load`
		if err = q.take(); err != ErrBusy {
			return err
		}
	}
	return err
}
