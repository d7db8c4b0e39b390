// Package deps checks the dependency model: each attempt's Dep (raw), the
// one the passes trust (trusted, sharedbudget's), and the one a fix names
// its budget after (budget, fixedattempts'), which is the trusted one
// whenever that is known.
package deps

import (
	"context"
	"net/http"

	"deps/gh"
)

type Inventory struct{}

func (*Inventory) Reserve(ctx context.Context) error { return nil }

type Service struct {
	inventory *Inventory
	gh        *gh.Client
}

var shared = &Inventory{}

func (s *Service) field(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=field:inventory trusted=field:inventory budget=field:inventory`
		if err = s.inventory.Reserve(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A chain through another package's client is that client's field.
func (s *Service) chain(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=field:Repositories trusted=field:gh budget=field:gh`
		if err = s.gh.Repositories.Get(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A local declared with a field and never assigned again is the field.
func (s *Service) alias(ctx context.Context) error {
	inv := s.inventory
	var err error
	for i := 0; i < 3; i++ { // want `raw=var:inv trusted=field:inventory budget=field:inventory`
		if err = inv.Reserve(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A local assigned again is no dependency the passes trust; a fix still
// names a budget after it.
func (s *Service) reassigned(ctx context.Context, other *Inventory) error {
	inv := s.inventory
	if other != nil {
		inv = other
	}
	var err error
	for i := 0; i < 3; i++ { // want `raw=var:inv trusted=other: budget=var:inv`
		if err = inv.Reserve(ctx); err == nil {
			return nil
		}
	}
	return err
}

// A parameter: each caller may pass another; a fix keys it by its type.
func param(ctx context.Context, inv *Inventory) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=var:inv trusted=other: budget=type:Inventory`
		if err = inv.Reserve(ctx); err == nil {
			return nil
		}
	}
	return err
}

func pkgVar(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=var:shared trusted=var:shared budget=var:shared`
		if err = shared.Reserve(ctx); err == nil {
			return nil
		}
	}
	return err
}

func pkgFunc(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=pkg:gh trusted=pkg:gh budget=pkg:gh`
		if err = gh.Fetch(ctx); err == nil {
			return nil
		}
	}
	return err
}

func host(ctx context.Context, c *http.Client) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=host:api.example.com trusted=host:api.example.com budget=host:api.example.com`
		var resp *http.Response
		if resp, err = c.Get("https://api.example.com/v1"); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}

// An HTTP client with no known URL reaches every host: the raw Dep names
// the client, the passes trust none.
func anyHost(ctx context.Context, c *http.Client, url string) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=var:c trusted=other: budget=other:`
		var resp *http.Response
		if resp, err = c.Get(url); err == nil {
			resp.Body.Close()
			return nil
		}
	}
	return err
}
