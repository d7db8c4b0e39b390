package fixpost

import (
	"bytes"
	"errors"
	"net/http"
	"time"
)

const jsonType = "application/json"

func notify(u string, body []byte) error {
	for i := 0; i < 3; i++ {
		resp, err := http.Post(u, "application/json", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func hook(c *http.Client, u string, body []byte) error {
	for i := 0; i < 3; i++ {
		_, err := c.Post(u, jsonType, bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// No fix: the content type is computed, and resp exists already.
func noFix(u string, body []byte, ct func() string) error {
	var resp *http.Response
	var err error
	for i := 0; i < 3; i++ {
		resp, err = http.Post(u, "text/plain", bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err == nil {
			return resp.Body.Close()
		}
		r2, err := http.Post(u, ct(), bytes.NewReader(body)) // want `POST is retried without an idempotency key`
		if err == nil {
			return r2.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return err
}
