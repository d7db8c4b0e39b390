package directives

import (
	"context"
	"errors"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

// Silenced, with reasons: nothing to report.
func silenced(ctx context.Context, c *Client) error {
	//lint:ignore fixedattempts startup probe, bounded by the deploy
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	for i := 0; i < 3; i++ { //retrylint:ignore fixedattempts warm-up only
		if c.Get(ctx) == nil {
			return nil
		}
	}
	//lint:ignore retrylint every pass, with a reason
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
	}
	//lint:ignore fixedattempts,freshtimeout one of two is enough
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
	}
	// nolint:retrylint // golangci-lint's form, with a space
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// Directives of other tools are theirs to judge.
func others(ctx context.Context, c *Client) error {
	//lint:ignore SA1019 staticcheck's, unused here
	_ = ctx
	//lint:ignore SA1019
	_ = c
	//nolint:errcheck // nolintlint judges unused //nolint
	return nil
}

// No reason: the loop stays reported, and the directive is.
func noReason(ctx context.Context, c *Client) error {
	/* want `//lint:ignore fixedattempts gives no reason, so it silences nothing: say why after the pass name` */ //lint:ignore fixedattempts
	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
	}
	for i := 0; i < 3; i++ { /* want `//retrylint:ignore names no pass and gives no reason, so it silences nothing` */ //retrylint:ignore
		if c.Get(ctx) == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

// Unused: nothing below is reported by the pass named.
func unused(ctx context.Context) error {
	//lint:ignore fixedattempts no retry loop here // want `//lint:ignore fixedattempts silences nothing: no fixedattempts diagnostic in the line or statement below it; remove it`
	time.Sleep(time.Second)
	//lint:ignore retrylint nothing here either // want `//lint:ignore retrylint silences nothing: no retrylint diagnostic`
	_ = ctx
	//lint:ignore freshtimeout,SA1019 the timeout inherits ctx // want `//lint:ignore freshtimeout silences nothing: no freshtimeout diagnostic`
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return ctx.Err()
}

// A directive two lines above is too far.
func tooFar(ctx context.Context, c *Client) error {
	//lint:ignore fixedattempts too far from the loop // want `silences nothing`

	for i := 0; i < 3; i++ {
		if c.Get(ctx) == nil {
			return nil
		}
	}
	return errors.New("gave up")
}
