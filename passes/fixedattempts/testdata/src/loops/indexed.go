package loops

import (
	"context"
	"time"
)

// A failover by index: each replica once, as a range over them.
func putIndexed(ctx context.Context, replicas []*Client) error {
	var err error
	for i := 0; i < len(replicas); i++ { // want `retry loop tries each of the len\(replicas\) endpoints of replicas in turn, with no retry budget: when all fail, one request makes len\(replicas\) calls`
		if err = replicas[i].Get(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: the index comes round to each replica again, a retry of
// each, counted by the loop.
func putRoundRobin(ctx context.Context, replicas []*Client) error {
	var err error
	for i := 0; i < 6; i++ { // want `retry loop makes up to 6 attempts with no retry budget: a failing dependency gets 6× its load`
		if err = replicas[i%len(replicas)].Get(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}
