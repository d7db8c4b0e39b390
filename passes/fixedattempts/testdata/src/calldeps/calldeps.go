// Package calldeps calls one retry helper for five dependencies, two of
// which share a name: the related lines of the helper's finding name each
// call's dependency as the audit does, qualified by its owner where two
// share a name; a local variable by its own name, which is in scope on
// the line (two locals of one name in two functions are told apart by
// where they are).
package calldeps

import (
	"context"
	"time"
)

func retry(op func() error) error {
	var err error
	for i := 0; i < 3; i++ { // want `retry loop of retry helper retry makes up to 3 attempts with no retry budget: a failing dependency gets 3× its load, at each of its 5 calls`
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

type Client struct{}

func (c *Client) Do(ctx context.Context) error { return nil }

// Two services, each with a field named client.
type Orders struct{ client *Client }

type Tools struct{ client *Client }

func (o *Orders) Get(ctx context.Context) error {
	return retry(func() error { return o.client.Do(ctx) })
}

func (t *Tools) Get(ctx context.Context) error {
	return retry(func() error { return t.client.Do(ctx) })
}

// A dependency whose name no other shares keeps its short name.
type Ledger struct{ store *Client }

func (l *Ledger) Get(ctx context.Context) error {
	return retry(func() error { return l.store.Do(ctx) })
}

// Two functions, each with a local named conn: each call's line names its
// own.
func (l *Ledger) open() (*Client, error) { return l.store, nil }

func (l *Ledger) Put(ctx context.Context) error {
	return retry(func() error {
		conn, err := l.open()
		if err != nil {
			return err
		}
		return conn.Do(ctx)
	})
}

func (l *Ledger) Delete(ctx context.Context) error {
	return retry(func() error {
		conn, err := l.open()
		if err != nil {
			return err
		}
		return conn.Do(ctx)
	})
}
