package fixloop

import (
	"bytes"
	"context"
	"math/rand"
	"net/http"
	"time"
)

// The file imports math/rand as rand: crypto/rand gets another name.
func (p *payments) jittered(ctx context.Context, body []byte, idempotencyKey string) error {
	var err error
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.base+"/charges", bytes.NewReader(body)) // want `POST is retried without`
		var resp *http.Response
		if resp, err = p.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Duration(rand.Intn(1000)) * time.Millisecond)
	}
	return err
}
