// Package sdkvalueuse retries the request values of package sdkvalue.
package sdkvalueuse

import (
	"context"
	"errors"
	"net/http"
	"time"

	"sdkvalue"
)

var errGaveUp = errors.New("gave up")

func Create(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	req := c.NewRequest(http.MethodPost, "/things") // want `POST is retried without an idempotency key`
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(&req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

func Update(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	for i := 0; i < 3; i++ {
		req, err := c.NewPointer(http.MethodPatch, "/things/1") // want `PATCH is retried without an idempotency key`
		if err != nil {
			return err
		}
		resp, err := hc.Do(req.WithContext(ctx))
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

// A literal of this package whose method is assigned after it.
func Cancel(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	req := &http.Request{URL: c.Base.JoinPath("/things/1/cancel"), Header: http.Header{}} // want `POST is retried without an idempotency key`
	req.Method = "POST"
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

// Look-alikes.

func List(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	req := c.NewRequest(http.MethodGet, "/things") // a GET
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(&req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

func CreateKeyed(ctx context.Context, c *sdkvalue.Client, hc *http.Client, key string) error {
	req := c.NewRequest(http.MethodPost, "/things") // the key is set on the value
	req.Header.Set("Idempotency-Key", key)
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(&req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

func CreateOnce(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	req := c.NewRequest(http.MethodPost, "/things") // sent once
	resp, err := hc.Do(&req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func CreateMoved(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	for i := 0; i < 3; i++ {
		req := c.NewMoved(http.MethodPost, "/things") // the builder may change the method
		resp, err := hc.Do(&req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

func CreateKeyedBuilder(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	for i := 0; i < 3; i++ {
		req := c.NewKeyed(http.MethodPost, "/things", "k") // the builder sets the key
		resp, err := hc.Do(&req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}

func CancelTwice(ctx context.Context, c *sdkvalue.Client, hc *http.Client) error {
	req := &http.Request{URL: c.Base, Header: http.Header{}} // the method is assigned twice
	req.Method = "POST"
	if c.Base == nil {
		req.Method = "GET"
	}
	for i := 0; i < 3; i++ {
		resp, err := hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errGaveUp
}
