package waits

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"
)

type Client struct {
	hc    *http.Client
	url   string
	quota interface{ TryRetry() bool }
}

// One retry loop, three findings: a fixed wait (nojitter) that
// cancellation does not interrupt (blindsleep), and a request body sent
// only once (reusedbody). The budget keeps fixedattempts quiet.
func (c *Client) put(ctx context.Context, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		if !c.quota.TryRetry() {
			return err
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
