// Package nofixdeps holds retry loops that are reported and get no fix:
// no fix could keep their behaviour, or name their dependency's budget.
// The package depends on the budget package, so that only these reasons
// keep the fixes away.
package nofixdeps

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"google.golang.org/grpc"

	"github.com/retrylint/retrylint/budget"
)

var _ = budget.New

// senders hold function values: the dependency one reaches is unknown.
var senders map[string]func(ctx context.Context) error

func viaValue(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = senders["mail"](ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Option is an option of Retry.
type Option func()

// Retry is exported and variadic already: an optional budget parameter
// cannot follow its options, and one before them would break its callers
// in other packages.
func Retry(ctx context.Context, op func(context.Context) error, opts ...Option) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Retrier.Do is a method of an exported type: an interface of another
// package may name it, which a new parameter would break.
type Retrier struct{}

func (Retrier) Do(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// attempt is a helper used as a value: that use could not pass a budget.
func attempt(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = op(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

var attempts = []func(context.Context, func(context.Context) error) error{attempt}

// twice is a helper whose caller forwards its own operation: that
// caller's dependency is each of its callers'.
func twice(ctx context.Context, op func(context.Context) error) error {
	var err error
	for i := 0; i < 2; i++ { // want `up to 2 attempts`
		if err = op(ctx); err == nil {
			return nil
		}
	}
	return err
}

func forward(ctx context.Context, op func(context.Context) error) error {
	return twice(ctx, op)
}

type Store interface {
	Put(ctx context.Context) error
}

type Service struct{ store Store }

// A loop with no result to return the failure in, bounded only by its
// context: a refusal could only give up silently.
func (s *Service) watch(ctx context.Context) {
	for { // want `bounded only by time`
		if err := s.store.Put(ctx); err == nil {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Millisecond):
		}
	}
}

// Two failure paths that meet only at the loop's head, with no error
// that holds the failure on both (the 5xx carries none) for a refusal
// to return.
func fetch(c *http.Client, req *http.Request) (*http.Response, error) {
	for { // want `retries without bound`
		resp, err := c.Do(req)
		if err != nil {
			time.Sleep(time.Millisecond)
			continue
		}
		if resp.StatusCode >= 500 {
			resp.Body.Close()
			time.Sleep(time.Millisecond)
			continue
		}
		return resp, nil
	}
}

// Look-alike of a helper held by a local: the variable is given another
// value, so its calls are not known to be the literal's; the loop is
// reported as the literal's own, with no fix.
func (s *Service) reassigned(ctx context.Context, once bool) error {
	exec := func(run func() error) error {
		var err error
		for i := 0; i < 3; i++ { // want `retry loop makes up to 3 attempts`
			if err = run(); err == nil {
				return nil
			}
			time.Sleep(time.Millisecond)
		}
		return err
	}
	if once {
		exec = func(run func() error) error { return run() }
	}
	return exec(func() error { return s.store.Put(ctx) })
}

// Look-alike: a literal returned is called by callers the package does
// not see.
func retrying(n int) func(run func() error) error {
	return func(run func() error) error {
		var err error
		for i := 0; i < n; i++ { // want `retry loop makes up to n attempts`
			if err = run(); err == nil {
				return nil
			}
			time.Sleep(time.Millisecond)
		}
		return err
	}
}

// Prober is a dependency.
type Prober interface{ Probe() error }

// The code after the loop tells success from giving up by the counter: a
// refusal that broke out would be taken for a success, and one that
// returned the failure would not return what giving up returns.
func probe(p Prober) error {
	var i int
	for i = 0; i < 3; i++ { // want `up to 3 attempts`
		if err := p.Probe(); err == nil {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if i == 3 {
		return errors.New("probe: unavailable")
	}
	return nil
}

// Look-alike of an interceptor's retries (perdep's Retrying): each attempt
// is made on the connection the picker hands out, so no one target is
// the dependency, and the invoker, gRPC's, takes no budget parameter.
func failingOver(pick func() *grpc.ClientConn) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		var err error
		for i := 0; i < 3; i++ { // want `up to 3 attempts`
			if err = invoker(ctx, method, req, reply, pick(), opts...); err == nil {
				return nil
			}
			time.Sleep(time.Millisecond)
		}
		return err
	}
}

// Caller sends requests with its client.
type Caller struct{ hc *http.Client }

// wrap returns a send that goes through a middleware.
func wrap(send func(*http.Request) (*http.Response, error)) func(*http.Request) (*http.Response, error) {
	return send
}

// Look-alike of a copied request whose host names the dependency
// (perdep's SendVia): each attempt's copy goes to the host the picker
// hands out, so no one host is the dependency.
func (c *Caller) spread(req *http.Request, pick func() string) error {
	send := wrap(c.hc.Do)
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		attempt := req.Clone(req.Context())
		attempt.URL.Host = pick()
		var resp *http.Response
		if resp, err = send(attempt); err == nil {
			resp.Body.Close()
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Look-alikes of perdep's dials: the address is picked again for each
// attempt, or changed on the way round, so no one address is the
// dependency.
func dialPicked(d *net.Dialer, pick func() string) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var c net.Conn
		if c, err = d.Dial("tcp", pick()); err == nil {
			return c, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

func dialNext(d *net.Dialer, addr string, next func(string) string) (net.Conn, error) {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var c net.Conn
		if c, err = d.Dial("tcp", addr); err == nil {
			return c, nil
		}
		addr = next(addr)
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// A probe that tries until the dependency answers or the pool closes,
// with no result to hand a failure on in: a refused retry could only
// stop the probing for good. fetch above, unbounded too, has results.
type Pool struct {
	dial   func(context.Context) (net.Conn, error)
	closed func() bool
	last   error
}

func (p *Pool) probe() {
	for { // want `as many attempts as p.closed allows`
		if p.closed() {
			return
		}
		c, err := p.dial(context.Background())
		if err != nil {
			p.last = err
			time.Sleep(time.Millisecond)
			continue
		}
		c.Close()
		return
	}
}

// An attempt made in a goroutine that reports over channels: the fixer
// places no guard in such a loop yet.
func (s *Service) putAsync(ctx context.Context) error {
	errs := make(chan error, 1)
	done := make(chan struct{}, 1)
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		go func() {
			if err := s.store.Put(ctx); err != nil {
				errs <- err
				return
			}
			done <- struct{}{}
		}()
		select {
		case <-done:
			return nil
		case <-errs:
			time.Sleep(time.Millisecond)
		}
	}
	return errors.New("put: unavailable")
}

// Counter is a dependency that answers how many of its nodes agreed.
type Counter interface {
	Acquire(ctx context.Context) (int, error)
}

// A lock taken on a quorum: the loop goes round on a shortfall (the lock
// held elsewhere, no failure) as well as on an error, where they meet;
// a budget there would refuse the waits for the lock too.
func lockQuorum(ctx context.Context, c Counter, quorum int) error {
	var err error
	for i := 0; i < 5; i++ { // want `up to 5 attempts`
		var n int
		if n, err = c.Acquire(ctx); n >= quorum {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// Look-alike of shapes' Place: the dependency is a parameter of an
// interface type, which each caller may fill with another; a budget named
// after the parameter would be one for all of them.
func placeVia(ctx context.Context, inv Store) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = inv.Put(ctx); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}

// A reconnect that only the pool's closing stops, tested after the wait,
// in a function with no result: a refusal joined to that test would stop
// the reconnecting for good, as a close does, where the loop keeps trying.
func (p *Pool) redial() {
	for { // want `as many attempts as p.closed allows`
		c, err := p.dial(context.Background())
		if err == nil {
			c.Close()
			return
		}
		p.last = err
		time.Sleep(time.Millisecond)
		if p.closed() {
			return
		}
	}
}

// rewound wraps the request it is given.
type rewound struct{ req *http.Request }

func (w *rewound) Request() *http.Request { return w.req }

type doer interface {
	Do(*http.Request) (*http.Response, error)
}

// sendRedirected sends what the wrapper holds after the loop itself
// points it at another host: the request's host before the loop is not
// the dependency of every attempt, so no budget is keyed by it.
func sendRedirected(d doer, r *http.Request, hosts []string) (*http.Response, error) {
	w := &rewound{req: r}
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		var resp *http.Response
		if resp, err = d.Do(w.Request()); err == nil {
			return resp, nil
		}
		r.URL.Host = hosts[i%len(hosts)]
		time.Sleep(time.Millisecond)
	}
	return nil, err
}

// mirror sends both requests it is handed, to two hosts.
func mirror(hc *http.Client, a, b *http.Request) error {
	if _, err := hc.Do(a); err != nil {
		return err
	}
	_, err := hc.Do(b)
	return err
}

// sendMirrored retries a function handed two requests: which host each
// attempt reaches is not one expression, so no budget is keyed by it.
func sendMirrored(hc *http.Client, a, b *http.Request) error {
	var err error
	for i := 0; i < 3; i++ { // want `up to 3 attempts`
		if err = mirror(hc, a, b); err == nil {
			return nil
		}
		time.Sleep(time.Millisecond)
	}
	return err
}
