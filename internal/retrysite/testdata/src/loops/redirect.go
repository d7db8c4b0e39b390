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

