package loops

import (
	"context"
	"errors"
	"strings"
	"time"
)

// ---- Redirects: the next node named by the attempt's own error ----

type shardNode struct{ c *Client }

type shardCluster struct{ nodes map[string]*shardNode }

func (s *shardCluster) owner(ctx context.Context, key string) (*shardNode, error) {
	return s.nodes[key], nil
}

func (s *shardCluster) nodeAt(addr string) (*shardNode, error) { return s.nodes[addr], nil }

// movedTo parses the address out of a "MOVED 3999 10.0.0.2:6379" reply.
func movedTo(err error) (addr string, ok bool) {
	s, ok := strings.CutPrefix(err.Error(), "MOVED ")
	return s, ok
}

// A redirect sends the same command to the node the failure names: the
// same operation, at another endpoint. The other failures go round to
// the same node after a wait.
func (s *shardCluster) set(ctx context.Context, key, v string) error {
	node, err := s.owner(ctx, key)
	if err != nil {
		return err
	}
	for attempt := 0; attempt < 4; attempt++ { // want `loop \[4 attempts\]`
		err = node.c.Put(ctx, key, v)
		if err == nil {
			return nil
		}
		if addr, moved := movedTo(err); moved {
			if node, err = s.nodeAt(addr); err != nil {
				return err
			}
			continue
		}
		time.Sleep(time.Second)
	}
	return err
}

type askError struct{ addr string }

func (e *askError) Error() string { return "ASK " + e.addr }

// The node read from the error unwrapped by errors.As, through a handle
// the loop makes from it.
func (s *shardCluster) get(ctx context.Context, key string) (string, error) {
	node, err := s.owner(ctx, key)
	if err != nil {
		return "", err
	}
	var lastErr error
	for attempt := 0; attempt < 4; attempt++ { // want `loop \[4 attempts\]`
		c := node.c
		v, err := c.Get(ctx, key)
		if err == nil {
			return v, nil
		}
		lastErr = err
		var ask *askError
		if errors.As(err, &ask) {
			node = s.nodes[ask.addr]
			continue
		}
		time.Sleep(time.Second)
	}
	return "", lastErr
}

// Look-alike: the next node is named by the answer of a success, which
// goes on to it: a walk, not a retry.
func (s *shardCluster) walk(ctx context.Context, key string) error {
	node, err := s.owner(ctx, key)
	if err != nil {
		return err
	}
	for node != nil {
		next, err := node.c.Get(ctx, key)
		if err != nil {
			return err
		}
		node = s.nodes[next]
	}
	return nil
}

// ---- The time left handed on ----

var errNoResponders = errors.New("no responders")

func (c *Client) request(ctx context.Context, subj string, timeout time.Duration) (string, error) {
	return "", nil
}

// The request is sent again, while nobody answers, with the time that is
// left: a duration is the attempt's time limit, not its work.
func (c *Client) publish(ctx context.Context, subj string, ttl, wait time.Duration) (string, error) {
	resp, err := c.request(ctx, subj, ttl)
	for r := 0; errors.Is(err, errNoResponders) && r < 3; r++ { // want `loop \[4 attempts\]`
		time.Sleep(wait)
		ttl -= wait
		if ttl <= 0 {
			return "", errGaveUp
		}
		resp, err = c.request(ctx, subj, ttl)
	}
	return resp, err
}

// The same with a limit that may be none (max < 0): the time left is no
// count of the attempts, whatever its test (ttl <= 0) looks like.
func (c *Client) publishUpTo(ctx context.Context, subj string, ttl, wait time.Duration, max int) (string, error) {
	resp, err := c.request(ctx, subj, ttl)
	for r := 0; errors.Is(err, errNoResponders) && (r < max || max < 0); r++ { // want `loop \[unknown bound\]`
		time.Sleep(wait)
		ttl -= wait
		if ttl <= 0 {
			return "", errGaveUp
		}
		resp, err = c.request(ctx, subj, ttl)
	}
	return resp, err
}

func (c *Client) fetch(ctx context.Context, subj string, max int) (string, error) { return "", nil }

// Look-alike: a count handed on and changed the same way asks for less
// each time: other work.
func (c *Client) fetchLess(ctx context.Context, subj string, max, step int) (string, error) {
	resp, err := c.fetch(ctx, subj, max)
	for r := 0; errors.Is(err, errNoResponders) && r < 3; r++ {
		time.Sleep(time.Second)
		max -= step
		if max <= 0 {
			return "", errGaveUp
		}
		resp, err = c.fetch(ctx, subj, max)
	}
	return resp, err
}

// ---- Failover through a picker ----

type metaBroker struct{ c *Client }

type metadata struct{ brokers []string }

func (b *metaBroker) metadata(ctx context.Context) (*metadata, error) { return nil, nil }

type brokerSet struct{ live []*metaBroker }

// leastLoaded picks a live broker, nil when none is left.
func (s *brokerSet) leastLoaded() *metaBroker {
	if len(s.live) == 0 {
		return nil
	}
	return s.live[0]
}

func (s *brokerSet) drop(b *metaBroker) { s.live = s.live[1:] }

// Failover: the loop asks the broker the picker hands out, drops it when
// it fails or has nothing, and asks the next, until none is left.
func (s *brokerSet) refresh(ctx context.Context) (*metadata, error) {
	b := s.leastLoaded()
	for ; b != nil; b = s.leastLoaded() { // want `loop \[unknown bound\] delay=none`
		md, err := b.metadata(ctx)
		if err == nil {
			if len(md.brokers) == 0 {
				s.drop(b)
				continue
			}
			return md, nil
		}
		s.drop(b)
	}
	return nil, errGaveUp
}

type task struct{ spec string }

type taskQueue struct{ tasks []*task }

func (q *taskQueue) next() *task {
	if len(q.tasks) == 0 {
		return nil
	}
	t := q.tasks[0]
	q.tasks = q.tasks[1:]
	return t
}

// Look-alike: the same shape over tasks, which are no endpoints: each is
// other work, and the first that succeeds ends the loop.
func (q *taskQueue) firstDone(ctx context.Context, c *Client) (string, error) {
	for t := q.next(); t != nil; t = q.next() {
		v, err := c.Get(ctx, t.spec)
		if err == nil {
			return v, nil
		}
	}
	return "", errGaveUp
}
