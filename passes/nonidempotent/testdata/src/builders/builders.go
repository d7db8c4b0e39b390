// Package builders builds its POSTs with the request-building wrappers of
// package apiclient and of its own: the call of the wrapper with a POST
// or PATCH constant is the construction.
package builders

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"apiclient"
)

type Service struct {
	api *apiclient.Client
	hc  *http.Client
}

func (s *Service) Create(ctx context.Context, body io.Reader) error {
	for i := 0; i < 3; i++ {
		req, err := s.api.NewRequest(ctx, http.MethodPost, "/orders", body) // want `POST is retried without an idempotency key`
		if err != nil {
			return err
		}
		resp, err := s.api.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) Update(ctx context.Context, v any) error {
	for i := 0; i < 3; i++ {
		req, err := s.api.NewJSONRequest(ctx, "PATCH", "/orders/1", v) // want `PATCH is retried without an idempotency key`
		if err != nil {
			return err
		}
		resp, err := s.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// A wrapper of this package, built before the loop.
func (s *Service) newRequest(ctx context.Context, method, path string) (*http.Request, error) { // want newRequest:`idemKey\(builds=\[1\]\)`
	return s.api.NewRequest(ctx, method, path, nil)
}

func (s *Service) Cancel(ctx context.Context) error {
	req, err := s.newRequest(ctx, http.MethodPost, "/orders/1/cancel") // want `POST is retried without an idempotency key`
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ {
		resp, err := s.hc.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// The same wrappers with an idempotent method, a method the caller does
// not fix, a key set by the caller, and wrappers that say nothing.

func (s *Service) Get(ctx context.Context) error {
	for i := 0; i < 3; i++ {
		req, err := s.api.NewRequest(ctx, http.MethodGet, "/orders", nil)
		if err != nil {
			return err
		}
		resp, err := s.api.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) Replace(ctx context.Context, body io.Reader) error {
	for i := 0; i < 3; i++ {
		req, err := apiclient.Build(http.MethodPut, "https://api.example.com/orders/1")
		if err != nil {
			return err
		}
		resp, err := s.api.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) Any(ctx context.Context, method string) error { // want Any:`idemKey\(sendsMethod=\[1\]\)`
	for i := 0; i < 3; i++ {
		req, err := s.api.NewRequest(ctx, method, "/orders", nil)
		if err != nil {
			return err
		}
		resp, err := s.api.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

func (s *Service) Keyed(ctx context.Context, key string) error {
	for i := 0; i < 3; i++ {
		req, err := s.api.NewRequest(ctx, http.MethodPost, "/orders", nil)
		if err != nil {
			return err
		}
		req.Header.Set("Idempotency-Key", key)
		resp, err := s.api.Do(req)
		if err == nil {
			return resp.Body.Close()
		}
		time.Sleep(time.Second)
	}
	return errors.New("gave up")
}

// retry makes up to 3 attempts of op.
func retry(op func() error) error {
	var err error
	for i := 0; i < 3; i++ {
		if err = op(); err == nil {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

func (s *Service) send(req *http.Request) error {
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

func (s *Service) wrappers(ctx context.Context, p *apiclient.Pending) {
	retry(func() error {
		req, _ := s.api.NewKeyedRequest(ctx, http.MethodPost, "/a") // a key, though a new one each time: not followed
		return s.send(req)
	})
	retry(func() error {
		req, _ := s.api.NewExtraRequest(ctx, http.MethodPost, "/b") // want `POST is retried without an idempotency key`
		return s.send(req)
	})
	retry(func() error {
		req, _ := s.api.NewMadeRequest(ctx, http.MethodPost, "/b") // want `POST is retried without an idempotency key`
		return s.send(req)
	})
	retry(func() error {
		req, _ := s.api.NewKeyedExtraRequest(ctx, http.MethodPost, "/b")
		return s.send(req)
	})
	retry(func() error {
		req, _ := s.api.NewMadeKeyRequest(ctx, http.MethodPost, "/b", "k")
		return s.send(req)
	})
	retry(func() error {
		req, _ := s.api.NewParamRequest(ctx, http.MethodPost, "/b", nil)
		return s.send(req)
	})
	retry(func() error {
		req, _ := s.api.NewUpperRequest(ctx, "post", "/c")
		return s.send(req)
	})
	retry(func() error {
		req, _ := s.api.NewFixedRequest(ctx, "/d")
		return s.send(req)
	})
	retry(func() error {
		req, _ := p.Keep(http.MethodPost, "https://api.example.com/e")
		return s.send(req)
	})
}

// The positive beside them: the same helper, a wrapper with a fact.
func (s *Service) viaHelper(ctx context.Context) error {
	return retry(func() error {
		req, err := apiclient.Build(http.MethodPost, "https://api.example.com/f") // want `POST is retried without an idempotency key`
		if err != nil {
			return err
		}
		return s.send(req)
	})
}

// Not retried.
func (s *Service) Once(ctx context.Context) error {
	req, err := s.api.NewRequest(ctx, http.MethodPost, "/orders", nil)
	if err != nil {
		return err
	}
	resp, err := s.api.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A builder behind an interface: which one runs is not known.
type Builder interface {
	NewRequest(ctx context.Context, method, path string, body io.Reader) (*http.Request, error)
}

func (s *Service) viaInterface(ctx context.Context, b Builder) error {
	return retry(func() error {
		req, err := b.NewRequest(ctx, http.MethodPost, "/orders", nil)
		if err != nil {
			return err
		}
		return s.send(req)
	})
}
