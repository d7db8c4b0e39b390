package nested

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/hashicorp/go-retryablehttp"
)

// A client the package configures retries every request sent through
// it: a loop around a send is a second layer.
type api struct {
	hc *retryablehttp.Client
}

func newAPI() *api {
	a := &api{hc: retryablehttp.NewClient()}
	a.hc.RetryMax = 2
	return a
}

func (a *api) fetch(ctx context.Context) error {
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodGet, "https://orders.example.com/v1", nil)
	if err != nil {
		return err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// Reported: 2 attempts around a send that makes up to 3.
func (a *api) Fetch(ctx context.Context) error {
	var err error
	for i := 0; i < 2; i++ { // want `retries nest: up to 2 attempts here × 3 in nested.\(\*api\).fetch = 6 calls per request`
		if err = a.fetch(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

// Not reported: a client handed in is not known to retry here.
func fetchWith(ctx context.Context, hc *retryablehttp.Client, req *retryablehttp.Request) error {
	var err error
	for i := 0; i < 2; i++ {
		var resp *http.Response
		if resp, err = hc.Do(req); err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.Join(err, ctx.Err())
}
