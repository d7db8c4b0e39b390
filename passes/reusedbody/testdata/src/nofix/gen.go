// Code generated for a test. DO NOT EDIT.

package nofix

import (
	"bytes"
	"errors"
	"net/http"
)

func (c *Client) generated(payload []byte) error {
	req, err := http.NewRequest(http.MethodPost, c.base, bytes.NewReader(payload)) // want `req is built once with a body`
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
