package fix

import (
	"bytes"
	"context"
	"errors"
	"net/http"
)

func upload(ctx context.Context, hc *http.Client, url string, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, url, bytes.NewReader(payload)) // want `req is built once with a body`
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/octet-stream")
	for attempt := 0; attempt < 3; attempt++ {
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode < 500 {
				return nil
			}
		}
	}
	return errors.New("gave up")
}
