package switchedoff

import (
	"context"
	"time"
)

type Client struct{}

func (c *Client) Get(ctx context.Context) error { return nil }

func f(ctx context.Context, c *Client) error {
	//lint:ignore freshtimeout the pass is off: not judged
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	//lint:ignore retrylint not every pass runs: not judged
	_ = ctx
	//lint:ignore fixedattempts,freshtimeout one of them is off: not judged
	_ = c
	//lint:ignore fixedattempts it runs, and nothing is below // want `silences nothing`
	_ = c
	/* want `gives no reason` */ //lint:ignore freshtimeout
	return nil
}
