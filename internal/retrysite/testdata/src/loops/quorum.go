package loops

import (
	"context"
	"time"
)

// Answers that must reach a number (issue 30): a lock taken on a quorum of
// nodes. Short of the number the answer is no success; an error on that
// path is a failure that goes round.

type lockNode interface {
	Acquire(ctx context.Context, value string) (bool, error)
}

type quorumLock struct {
	nodes  []lockNode
	quorum int
}

// acquireAll asks every node at once and gathers the answers its own
// goroutines send: a fan-out of one attempt, not a queue it drains.
func (m *quorumLock) acquireAll(ctx context.Context, value string) (int, error) {
	type result struct {
		ok  bool
		err error
	}
	ch := make(chan result, len(m.nodes))
	for _, node := range m.nodes {
		go func(node lockNode) {
			var r result
			r.ok, r.err = node.Acquire(ctx, value)
			ch <- r
		}(node)
	}
	n := 0
	var err error
	for range m.nodes {
		if r := <-ch; r.ok {
			n++
		} else if r.err != nil {
			err = r.err
		}
	}
	return n, err
}

// The lock is taken when a quorum of nodes said yes in time; a node that
// is down answers an error, which goes round with the shortfall.
func (m *quorumLock) lock(ctx context.Context, value string, tries int) error {
	for i := range tries { // want `loop \[tries attempts\] delay=fixed$`
		if i != 0 {
			time.Sleep(50 * time.Millisecond)
		}
		until := time.Now().Add(time.Second)
		n, err := func() (int, error) {
			ctx, cancel := context.WithTimeout(ctx, time.Second)
			defer cancel()
			return m.acquireAll(ctx, value)
		}()
		if n >= m.quorum && time.Now().Before(until) {
			return nil
		}
		if i == tries-1 && err != nil {
			return err
		}
	}
	return context.DeadlineExceeded
}

// Look-alike: a poll for a count to be reached, leaving on every error:
// only the shortfall goes round, which is no outage's failure.
func (m *quorumLock) waitFor(ctx context.Context, value string) error {
	for {
		n, err := m.acquireAll(ctx, value)
		if err != nil {
			return err
		}
		if n >= m.quorum {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// The same test alone, the attempt made directly.
func (m *quorumLock) lockDirect(ctx context.Context, value string) error {
	var err error
	for i := 0; i < 5; i++ { // want `loop \[5 attempts\] delay=fixed dep=m`
		var n int
		if n, err = m.acquireAll(ctx, value); n >= m.quorum {
			return nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	return err
}
