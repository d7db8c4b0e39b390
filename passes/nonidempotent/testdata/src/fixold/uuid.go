//go:build go1.22

package fixold

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/google/uuid"
)

var _ = uuid.New

type client struct {
	hc   *http.Client
	base string
}

// Before Go 1.24 there is no crypto/rand.Text: the file's uuid package
// makes the key.
func (c *client) charge(ctx context.Context, body []byte) error {
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
