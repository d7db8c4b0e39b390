// Package restyv3 holds resty v3 (resty.dev/v3) clients: the same rules
// as resty v2.
package restyv3

import (
	"resty.dev/v3"
)

// resty v3 retries every method once SetRetryCount is set.
func chain(body any) error {
	client := resty.New().SetRetryCount(3)
	_, err := client.R().SetBody(body).Post("https://api.example.com/charges") // want `POST is retried by resty without an idempotency key`
	return err
}

type shop struct {
	http *resty.Client
}

func newShop() *shop {
	s := &shop{http: resty.New()}
	s.http.SetRetryCount(2)
	return s
}

func (s *shop) order(body any) error {
	req := s.http.R().SetBody(body) // want `PATCH is retried by resty without`
	_, err := req.Execute("PATCH", "https://api.example.com/orders/1")
	return err
}

// Negative: no SetRetryCount, no retries.
func plain(body any) error {
	_, err := resty.New().R().SetBody(body).Post("https://api.example.com/charges")
	return err
}

// Negative: a count of 0 switches the retries off.
func zero(body any) error {
	client := resty.New().SetRetryCount(0)
	_, err := client.R().SetBody(body).Post("https://api.example.com/charges")
	return err
}

// Negative: an idempotency key on the request.
func keyed(body any) error {
	client := resty.New().SetRetryCount(3)
	_, err := client.R().SetHeader("Idempotency-Key", "k-1").SetBody(body).Post("https://api.example.com/charges")
	return err
}

// Negative: a GET is safe to retry.
func read() error {
	client := resty.New().SetRetryCount(3)
	_, err := client.R().Get("https://api.example.com/charges")
	return err
}
