// Package httpsend sends HTTP requests whose paths are constants after
// the base, and some that are not.
package httpsend

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

type Client struct {
	base string
	hc   *http.Client
	rt   *http.Client
}

type rt struct{}

func (rt) RoundTrip(r *http.Request) (*http.Response, error) { return nil, nil }

func New(base string) *Client {
	return &Client{base: base, hc: &http.Client{}, rt: &http.Client{Transport: rt{}}}
}

// Constant paths after the base, sent by net/http: GETs are replayed.
func (c *Client) Gets(ctx context.Context, id string) { // want Gets:`sends\(http GET \$1\)`
	http.Get(c.base + "/v1/items")                 // want `link http GET /v1/items ×2`
	http.Get("http://inventory:8080/v1/stock?x=1") // want `link http GET /v1/stock ×2`
	http.Get(fmt.Sprintf("%s/v1/notify", c.base))  // want `link http GET /v1/notify ×2`
	u, _ := url.JoinPath(c.base, "v1", "join")
	c.hc.Get(u)                                     // want `link http GET /v1/join ×2`
	c.hc.Get(c.base + "/kv/" + strings.ToLower(id)) // want `link http GET /kv/… ×2`
	c.rt.Get(c.base + "/v1/custom")                 // want `link http GET /v1/custom$`
	http.Get(c.base + "/users/" + id + "/profile")  // a value in the middle: no link
	http.Get(c.base)                                // no path: no link
	http.Get("http://" + c.base)                    // the value is the host: no link
	http.Get(c.base + "/" + strings.ToLower(id))    // no constant segment: no link
	http.Get(id)                                    // the parameter: a send of Gets
}

// Requests built with NewRequest and sent with Do.
func (c *Client) Posts(ctx context.Context) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.base+"/v1/orders", strings.NewReader("x"))
	if err != nil {
		return err
	}
	_, err = c.hc.Do(req) // want `link http POST /v1/orders$`
	if err != nil {
		return err
	}
	keyed, _ := http.NewRequestWithContext(ctx, "POST", c.base+"/v1/charges", nil)
	keyed.Header.Set("Idempotency-Key", "k")
	_, err = http.DefaultClient.Do(keyed) // want `link http POST /v1/charges ×2`
	return err
}

// get sends a GET of a path its caller passes: a SendFact.
func (c *Client) get(ctx context.Context, path string) error { // want get:`sends\(http GET \$1\)`
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	_, err = c.hc.Do(req)
	return err
}

// do sends the request its caller builds: a SendFact.
func (c *Client) do(req *http.Request) error { // want do:`sends\(http req\$0\)`
	_, err := c.hc.Do(req)
	return err
}

// post passes its own parameter on: a SendFact of its own.
func (c *Client) post(ctx context.Context, method, path string) error { // want post:`sends\(http \$1 \$2\)`
	req, _ := http.NewRequestWithContext(ctx, method, c.base+path, nil)
	return c.do(req)
}

func (c *Client) Calls(ctx context.Context, key string) { // want Calls:`sends\(http GET \$1\)`
	c.get(ctx, "/v1/wrapped")     // want `link http GET /v1/wrapped ×2`
	c.get(ctx, key)               // the parameter: a send of Calls
	c.post(ctx, "PUT", "/v1/put") // want `link http PUT /v1/put$`
}
