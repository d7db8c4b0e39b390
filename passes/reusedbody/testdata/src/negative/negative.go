package negative

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

type Client struct {
	hc   *http.Client
	base string
}

// A request per attempt.
func (c *Client) rebuilt(ctx context.Context, payload []byte) error {
	for i := 0; i < 3; i++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(payload))
		if err != nil {
			return err
		}
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// No body.
func (c *Client) get(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base, nil)
	if err != nil {
		return err
	}
	req2, _ := http.NewRequest(http.MethodDelete, c.base, http.NoBody)
	empty, _ := http.NewRequest(http.MethodPost, c.base, strings.NewReader(""))
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			resp.Body.Close()
			c.hc.Do(req2)
			c.hc.Do(empty)
			return nil
		}
	}
	return errors.New("gave up")
}

// The body is reset from GetBody before each send.
func (c *Client) getBody(ctx context.Context, payload []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if i > 0 {
			body, err := req.GetBody()
			if err != nil {
				return err
			}
			req.Body = body
		}
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// A new body set per attempt.
func (c *Client) setBody(payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		req.Body = io.NopCloser(bytes.NewReader(payload))
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// The reader is rewound.
func (c *Client) rewind(payload []byte) error {
	rd := bytes.NewReader(payload)
	req, err := http.NewRequest(http.MethodPost, c.base, rd)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		rd.Seek(0, io.SeekStart)
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// Handed to code that may reset it.
func (c *Client) signed(payload []byte, sign func(*http.Request)) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		sign(req)
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// go-retryablehttp replays bodies itself.
func (c *Client) retryable(rc *retryablehttp.Client, payload []byte) error {
	req, err := retryablehttp.NewRequest(http.MethodPost, c.base, payload)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if resp, err := rc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// A body the pass cannot see into.
func (c *Client) given(body io.Reader) error {
	req, err := http.NewRequest(http.MethodPost, c.base, body)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// A request parameter: its body is the caller's to know.
func (c *Client) param(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		if resp, err := c.hc.Do(req); err == nil {
			return resp, nil
		}
	}
	return nil, errors.New("gave up")
}

// Sent once: no retry around it.
func (c *Client) once(payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

type replayer struct{ hc *http.Client }

// Do of a concrete client of other code may replay the body itself.
func (r *replayer) Do(req *http.Request) (*http.Response, error) { return r.hc.Do(req) }

func (c *Client) viaReplayer(r *replayer, payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		if resp, err := r.Do(req); err == nil {
			return resp.Body.Close()
		}
	}
	return errors.New("gave up")
}

// Sent in a goroutine, not by the attempt.
func (c *Client) spawned(payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload))
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		go c.hc.Do(req)
		if err := c.ping(); err == nil {
			return nil
		}
	}
	return errors.New("gave up")
}

func (c *Client) ping() error { return nil }
