package libs

import (
	"context"
	"net/http"

	"github.com/hashicorp/go-retryablehttp"
)

// A client the package configures: each send through it is a site, with
// the attempts the configuration allows; the configuration is not.
type api struct {
	hc    *retryablehttp.Client
	plain *http.Client
}

func newAPI() *api {
	a := &api{hc: retryablehttp.NewClient()}
	a.hc.RetryMax = 2
	a.plain = a.hc.StandardClient()
	return a
}

func (a *api) fetch(ctx context.Context) {
	req, _ := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "https://orders.example.com/v1", nil)
	a.hc.Do(req)                                 // want `library retryablehttp.Client.Do \[3 attempts\]`
	a.hc.Get("https://orders.example.com/v1")    // want `library retryablehttp.Client.Get \[3 attempts\]`
	a.plain.Get("https://orders.example.com/v1") // want `library http.Client.Get of a retryablehttp client \[3 attempts\]`
}

// A plain client whose transport is a RoundTripper of a configured
// client retries every request too; one with another transport does not.
type viaTransport struct {
	hc    *http.Client
	plain *http.Client
}

func newViaTransport() *viaTransport {
	rc := retryablehttp.NewClient()
	rt := &retryablehttp.RoundTripper{Client: rc}
	return &viaTransport{
		hc:    &http.Client{Transport: rt},
		plain: &http.Client{Transport: http.DefaultTransport},
	}
}

func (v *viaTransport) fetch(req *http.Request) {
	v.hc.Do(req) // want `library http.Client.Do of a retryablehttp client \[5 attempts\]`
	v.plain.Do(req)
}

// A client made by a function of the package: its sends are the sites.
func build() *retryablehttp.Client {
	c := retryablehttp.NewClient()
	return c
}

func useBuilt(req *retryablehttp.Request) {
	build().Do(req) // want `library retryablehttp.Client.Do \[5 attempts\]`
}

// A client handed in: the package does not configure it, so its sends
// are not sites here (its maker reports it).
func sendWith(c *retryablehttp.Client, req *retryablehttp.Request) {
	c.Do(req)
	c.StandardClient().Get("https://orders.example.com/v1")
}

// A client with retries switched off, and a literal without RetryMax: no
// retries, no site at the client or its sends.
func noRetry(req *retryablehttp.Request) {
	c := retryablehttp.NewClient()
	c.RetryMax = 0
	c.Do(req)
	z := &retryablehttp.Client{}
	z.Do(req)
}

// A plain net/http client is not a retrying client.
func plainHTTP(req *http.Request) {
	http.DefaultClient.Do(req)
	(&http.Client{}).Get("https://orders.example.com/v1")
}

// A configuration no send of the package reaches stays the site.
func NewShared() *retryablehttp.Client {
	return &retryablehttp.Client{RetryMax: 1} // want `library retryablehttp.Client \[2 attempts\]`
}
