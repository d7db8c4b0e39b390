package fixclient

import (
	"context"
	"net/http"

	resty "github.com/go-resty/resty/v2"
	"github.com/hashicorp/go-retryablehttp"
)

func charge(ctx context.Context, body []byte) error {
	rc := retryablehttp.NewClient()
	req, err := retryablehttp.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", body) // want `POST is retried by the retryablehttp client without an idempotency key`
	if err != nil {
		return err
	}
	resp, err := rc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

var api = resty.New().SetRetryCount(3)

func order(body any) error {
	_, err := api.R().SetBody(body).Post("https://api.example.com/orders") // want `POST is retried by resty without`
	return err
}

func patch(body any) error {
	r := api.R() // want `PATCH is retried by resty without`
	r.SetBody(body)
	_, err := r.Patch("https://api.example.com/orders/1")
	return err
}

// doRetry resends whatever it is given.
func doRetry(c *http.Client, req *http.Request) (*http.Response, error) { // want doRetry:`idemKey\(retries=\[1\]\)`
	var err error
	for i := 0; i < 3; i++ {
		var resp *http.Response
		if resp, err = c.Do(req); err == nil {
			return resp, nil
		}
	}
	return nil, err
}

func viaWrapper(ctx context.Context, c *http.Client) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.example.com/charges", nil) // want `POST is retried by doRetry without`
	if err != nil {
		return err
	}
	if _, err := doRetry(c, req); err != nil {
		return err
	}
	return nil
}
