//go:build go1.22

package fixold

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"
)

// Neither crypto/rand.Text nor a uuid package: reported without a fix.
func (c *client) refund(ctx context.Context, body []byte) error {
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(body)) // want `POST is retried without`
		resp, err := c.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
