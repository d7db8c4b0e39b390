package timers

import (
	"context"
	"math/rand"
)

type node struct{ c *Client }

func dial(addr string) (*node, error) { return &node{}, nil }

// Failover over the endpoints in random order: a permutation of indices.
func firstOf(ctx context.Context, addrs []string) (string, error) {
	var firstErr error
	for _, i := range rand.Perm(len(addrs)) { // want `loop \[len\(addrs\) attempts\] delay=none`
		n, err := dial(addrs[i])
		if err != nil {
			firstErr = err
			continue
		}
		v, err := n.c.Get(ctx, "k")
		if err != nil {
			firstErr = err
			continue
		}
		return v, nil
	}
	return "", firstErr
}

// The same through a local permutation.
func firstOfLocal(ctx context.Context, addrs []string) (string, error) {
	var firstErr error
	perm := rand.Perm(len(addrs))
	for _, i := range perm { // want `loop \[len\(perm\) attempts\] delay=none`
		n, err := dial(addrs[i])
		if err != nil {
			firstErr = err
			continue
		}
		v, err := n.c.Get(ctx, "k")
		if err != nil {
			firstErr = err
			continue
		}
		return v, nil
	}
	return "", firstErr
}

// A permutation of items that are no endpoints: each is different work.
func eachOf(ctx context.Context, c *Client, keys []string) (string, error) {
	var firstErr error
	for _, i := range rand.Perm(len(keys)) {
		v, err := c.Get(ctx, keys[i])
		if err != nil {
			firstErr = err
			continue
		}
		return v, nil
	}
	return "", firstErr
}
