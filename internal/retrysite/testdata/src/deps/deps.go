// Package deps checks the dependency model: each attempt's Dep (raw), the
// one the passes trust (trusted, sharedbudget's), and the one a fix names
// its budget after (budget, fixedattempts'), which is the trusted one
// whenever that is known.
package deps

import (
	"context"
	"net/http"
	"net/url"

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

// A local assigned again is no dependency the passes trust, nor one a
// fix names a budget after: each call may hold another value in it.
func (s *Service) reassigned(ctx context.Context, other *Inventory) error {
	inv := s.inventory
	if other != nil {
		inv = other
	}
	var err error
	for i := 0; i < 3; i++ { // want `raw=var:inv trusted=other: budget=other:$`
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

// Stub is a generated gRPC client, held by a field.
type Stub interface {
	Get(ctx context.Context, req string) (string, error)
	Put(ctx context.Context, req string) (string, error)
}

type RPCClient struct {
	stub   Stub
	backup Stub
	logger *Logger
}

type Logger struct{}

// executeRPC calls the operation it is handed: what it reaches is the
// operation's.
func executeRPC(ctx context.Context, op func(context.Context, string) (string, error), req string, l *Logger) (string, error) {
	return op(ctx, req)
}

// call holds only what it logs to and a name: it names no dependency.
func call(ctx context.Context, l *Logger, name string) error { return nil }

// either calls one of two operations.
func either(ctx context.Context, a, b func(context.Context, string) (string, error)) error {
	_, err := a(ctx, "")
	return err
}

// A function of this package handed a method value reaches the method's
// receiver.
func (c *RPCClient) passedOn(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=pkg:deps trusted=field:stub budget=field:stub`
		if _, err = executeRPC(ctx, c.stub.Get, "req", c.logger); err == nil {
			return nil
		}
	}
	return err
}

// Two methods of one receiver are one dependency.
func (c *RPCClient) passedOnTwice(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=pkg:deps trusted=field:stub budget=field:stub`
		if err = either(ctx, c.stub.Get, c.stub.Put); err == nil {
			return nil
		}
	}
	return err
}

// Look-alikes: a function of this package handed no operation and no
// request (a logger is no dependency), or two operations on different
// dependencies, reaches none the model can name.
func (c *RPCClient) notPassedOn(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=pkg:deps trusted=other: budget=other:`
		if err = call(ctx, c.logger, "get"); err == nil {
			return nil
		}
	}
	return err
}

func (c *RPCClient) twoPassedOn(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=pkg:deps trusted=other: budget=other:`
		if err = either(ctx, c.stub.Get, c.backup.Get); err == nil {
			return nil
		}
	}
	return err
}

type RESTClient struct {
	endpoint string
	hc       *http.Client
}

// send sends the request it is handed.
func send(ctx context.Context, hc *http.Client, req *http.Request) error {
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	return resp.Body.Close()
}

// A function of this package handed a request reaches the request's
// host: here the endpoint the URL was parsed from, whatever the path.
func (c *RESTClient) parsedURL(ctx context.Context) error {
	u, err := url.Parse(c.endpoint)
	if err != nil {
		return err
	}
	u.Path += "/v1/items"
	for i := 0; i < 3; i++ { // want `raw=pkg:deps trusted=field:endpoint budget=field:endpoint`
		req, err2 := http.NewRequest("GET", u.String(), nil)
		if err2 != nil {
			return err2
		}
		if err = send(ctx, c.hc, req); err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: a URL resolved against another (u.Parse) names its own
// host, which the model does not follow.
func (c *RESTClient) resolvedURL(ctx context.Context, ref string) error {
	base, err := url.Parse(c.endpoint)
	if err != nil {
		return err
	}
	u, err := base.Parse(ref)
	if err != nil {
		return err
	}
	for i := 0; i < 3; i++ { // want `raw=pkg:deps trusted=other: budget=other:`
		req, err2 := http.NewRequest("GET", u.String(), nil)
		if err2 != nil {
			return err2
		}
		if err = send(ctx, c.hc, req); err == nil {
			return nil
		}
	}
	return err
}

// A request built by a chain of methods, each returning one value: the
// dependency is the receiver the chain starts from.
type KV interface {
	Txn(ctx context.Context) Txn
}

type Txn interface {
	If(cmp string) Txn
	Commit() (string, error)
}

type Leases struct{ kv KV }

func (l *Leases) chain(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=field:kv trusted=field:kv budget=field:kv`
		if _, err = l.kv.Txn(ctx).If("x").Commit(); err == nil {
			return nil
		}
	}
	return err
}

// Look-alike: a chain that starts from a function of a package names no
// receiver: the dependency is not known.
func openTxn(ctx context.Context) Txn { return nil }

func (l *Leases) fromFunc(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=other: trusted=other: budget=other:`
		if _, err = openTxn(ctx).If("x").Commit(); err == nil {
			return nil
		}
	}
	return err
}

// A function value held in a field (a stream's open, set by its
// constructor) is the field's dependency, as a client in a field is.
type Stream struct {
	open func(ctx context.Context) error
}

func (s *Stream) funcField(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=other: trusted=field:open budget=field:open`
		if err = s.open(ctx); err == nil {
			return nil
		}
	}
	return err
}

// So is one held in a package variable.
var dial = func(ctx context.Context) error { return nil }

func funcVar(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=other: trusted=var:dial budget=var:dial`
		if err = dial(ctx); err == nil {
			return nil
		}
	}
	return err
}

// Look-alikes: a local function literal names nothing, and a parameter
// is each caller's operation.
func funcLocal(ctx context.Context) error {
	try := func() error { return nil }
	var err error
	for i := 0; i < 3; i++ { // want `raw=other: trusted=other: budget=other:`
		if err = try(); err == nil {
			return nil
		}
	}
	return err
}

func funcParam(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ { // want `raw=other: trusted=other: budget=other:`
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}
