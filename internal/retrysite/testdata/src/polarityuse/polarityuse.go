// Package polarityuse retries by predicates of another package whose
// names say nothing: their PolarityFacts say what they hold for, each loop
// beside a look-alike whose predicate says the opposite.
package polarityuse

import (
	"context"
	"net/http"
	"time"

	"polarity"
)

type Client struct{ hc *http.Client }

func (c *Client) send(ctx context.Context) (*http.Response, error) { return nil, nil }
func (c *Client) put(ctx context.Context) error                    { return nil }

func (c *Client) untilSettled(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		err = c.put(ctx)
		if polarity.Settled(err) {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (c *Client) untilAccepted(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		resp, err := c.send(ctx)
		if err == nil {
			resp.Body.Close()
			if polarity.Accepted(resp) {
				return nil
			}
		}
		time.Sleep(time.Second)
	}
	return nil
}

// whileOverloaded leaves when the server is overloaded and goes round
// on a 2xx: it polls, it does not retry.
func (c *Client) whileOverloaded(ctx context.Context) error {
	for {
		resp, err := c.send(ctx)
		if err != nil {
			return err
		}
		resp.Body.Close()
		if polarity.Overloaded(resp) {
			return nil
		}
		time.Sleep(time.Second)
	}
}
