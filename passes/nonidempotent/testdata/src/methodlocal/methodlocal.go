// Package methodlocal holds requests whose method is a local variable.
package methodlocal

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"time"
)

type client struct {
	hc   *http.Client
	base string
}

func (c *client) send(req *http.Request) error {
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A local assigned once from a constant is that constant.
func (c *client) patch(ctx context.Context, b []byte) error {
	method := http.MethodPatch
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, method, c.base+"/orders/1", bytes.NewReader(b)) // want `PATCH is retried without an idempotency key`
		if err != nil {
			return err
		}
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) post(ctx context.Context, b []byte) error {
	var method = "post"
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base+"/orders", bytes.NewReader(b)) // want `POST is retried without an idempotency key`
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// Look-alikes: the method from a parameter, from another request, a
// local assigned twice, declared without a value, changed through a
// pointer, or an idempotent constant.

func (c *client) param(ctx context.Context, method string, b []byte) error { // want param:`idemKey\(sendsMethod=\[1\]\)`
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base+"/orders", bytes.NewReader(b))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) proxy(ctx context.Context, in *http.Request) error {
	method := in.Method
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base+in.URL.Path, in.Body)
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) upsert(ctx context.Context, create bool, b []byte) error {
	method := http.MethodPut
	if create {
		method = http.MethodPost
	}
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base+"/orders", bytes.NewReader(b))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) later(ctx context.Context, b []byte) error {
	var method string
	method = http.MethodPost
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base+"/orders", bytes.NewReader(b))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func choose(m *string) { *m = http.MethodGet }

func (c *client) pointer(ctx context.Context, b []byte) error {
	method := http.MethodPost
	choose(&method)
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base+"/orders", bytes.NewReader(b))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (c *client) put(ctx context.Context, b []byte) error {
	method := http.MethodPut
	for i := 0; i < 3; i++ {
		req, _ := http.NewRequestWithContext(ctx, method, c.base+"/orders/1", bytes.NewReader(b))
		if err := c.send(req); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}
