package perdep

// The driver of rltest.Behave for the perdep package. Each case calls a
// healthy dependency and then the failing one: had the fixes given both
// one budget, the healthy calls' deposits would pay for the failing one's
// retries, and its attempts per call would reach 1 + twice the ratio.

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"syscall"

	"google.golang.org/grpc"

	"rlbehave"
)

// fake adapts a fake dependency to Store.
type fake struct{ d *rlbehave.Dep }

func (f fake) Put(ctx context.Context, v string) error { return f.d.Call() }
func (f fake) Ping(ctx context.Context) error          { return f.d.Call() }

// kvFake adapts a fake dependency to KV and Txn: Commit calls it.
type kvFake struct{ d *rlbehave.Dep }

func (f kvFake) Txn(ctx context.Context) Txn { return f }
func (f kvFake) If(cmp string) Txn           { return f }
func (f kvFake) Commit() error               { return f.d.Call() }

// healthy is the dependency that never fails.
var healthy = &rlbehave.Dep{Mode: rlbehave.Healthy}

func BehaveCases() []rlbehave.Case {
	ctx := context.Background()
	down := []rlbehave.Mode{rlbehave.Down}
	both := []rlbehave.Mode{rlbehave.Down, rlbehave.Status}
	response := func(resp *http.Response, err error) (string, error) {
		res := ""
		if resp != nil {
			res = resp.Status
			rlbehave.Close(resp)
		}
		return res, err
	}
	return []rlbehave.Case{
		{Name: "Reserve", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{inventory: fake{d}, payments: fake{healthy}, orders: fake{healthy}}
			if err := s.Charge(ctx, "1"); err != nil {
				return "", err
			}
			if err := s.Check(ctx); err != nil {
				return "", err
			}
			return "", s.Reserve(ctx, "x")
		}},
		{Name: "Open", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Stream{
				open:   func(context.Context) error { return d.Call() },
				resume: func(context.Context) error { return healthy.Call() },
			}
			if err := s.Resume(ctx); err != nil {
				return "", err
			}
			return "", s.Open(ctx)
		}},
		{Name: "Put", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			l := &Leases{kv: kvFake{d}, locks: kvFake{healthy}}
			if err := l.Lock(ctx, "k"); err != nil {
				return "", err
			}
			return "", l.Put(ctx, "k")
		}},
		{Name: "Check", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{inventory: fake{healthy}, orders: fake{d}}
			if err := s.Reserve(ctx, "x"); err != nil {
				return "", err
			}
			return "", s.Check(ctx)
		}},
		{Name: "Get", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			u := &Client{baseURL: "https://users.internal", hc: healthy.Client()}
			b := &Client{baseURL: "https://billing.internal", hc: d.Client()}
			if _, err := response(u.Get("/me")); err != nil {
				return "", err
			}
			return response(b.Get("/invoices"))
		}},
		{Name: "Delete", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			u := &Client{baseURL: "https://users.internal", hc: healthy.Client()}
			b := &Client{baseURL: "https://billing.internal", hc: d.Client()}
			if err := u.Delete("/me"); err != nil {
				return "", err
			}
			return "", b.Delete("/invoices/1")
		}},
		{Name: "Order", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			o := &OMS{OMSBaseURL: "https://oms.internal", hc: d.Client()}
			return "", o.Order("7")
		}},
		{Name: "Send", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			users, _ := http.NewRequest("GET", "https://users.internal/me", nil)
			billing, _ := http.NewRequest("GET", "https://billing.internal/invoices", nil)
			if _, err := response(Send(healthy.Client(), users)); err != nil {
				return "", err
			}
			return response(Send(d.Client(), billing))
		}},
		{Name: "Settle", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{audit: fake{healthy}, ledger: fake{d}}
			if err := s.Audit(ctx, "e"); err != nil {
				return "", err
			}
			return "", s.Settle(ctx, "e")
		}},
		{Name: "Restock", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{inventory: fake{healthy}}
			w := &Warehouse{inventory: fake{d}}
			if err := s.Reserve(ctx, "x"); err != nil {
				return "", err
			}
			return "", w.Restock(ctx, "x")
		}},
		{Name: "Refund", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{payments: fake{d}, shipments: fake{healthy}}
			if err := s.Ship(ctx, "p"); err != nil {
				return "", err
			}
			return "", s.Refund(ctx, "1")
		}},
		{Name: "Transfer", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			// The literal helper's first call reaches the healthy audit
			// log, its second the failing ledger: the audit log's
			// deposits must not pay for the ledger's retries.
			s := &Shop{audit: fake{healthy}, ledger: fake{d}}
			return "", s.Transfer(ctx, "1")
		}},
		{Name: "Ship", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Shop{shipments: fake{d}, ledger: fake{healthy}}
			if err := s.Settle(ctx, "e"); err != nil {
				return "", err
			}
			return "", s.Ship(ctx, "p")
		}},
		{Name: "SendVia", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			users, _ := http.NewRequest("GET", "https://users.internal/me", nil)
			billing, _ := http.NewRequest("GET", "https://billing.internal/invoices", nil)
			if err := SendVia(healthy.Client(), nil, users); err != nil {
				return "", err
			}
			return "", SendVia(d.Client(), nil, billing)
		}},
		{Name: "SendRetrying", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			users, _ := http.NewRequest("GET", "https://users.internal/me", nil)
			billing, _ := http.NewRequest("GET", "https://billing.internal/invoices", nil)
			if _, err := response(SendRetrying(healthy.Client(), users, 3)); err != nil {
				return "", err
			}
			return response(SendRetrying(d.Client(), billing, 3))
		}},
		{Name: "Exchange", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			users, _ := http.NewRequest("GET", "https://users.internal/me", nil)
			billing, _ := http.NewRequest("GET", "https://billing.internal/invoices", nil)
			if _, err := response(Exchange(ctx, healthy.Client(), users)); err != nil {
				return "", err
			}
			return response(Exchange(ctx, d.Client(), billing))
		}},
		{Name: "Execute", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			users, _ := http.NewRequest("GET", "https://users.internal/me", nil)
			billing, _ := http.NewRequest("GET", "https://billing.internal/invoices", nil)
			logged := func(next Sender) Sender { return next }
			u := &Call{Request: users, Client: healthy.Client(), Middlewares: []Middleware{logged}}
			b := &Call{Request: billing, Client: d.Client(), Middlewares: []Middleware{logged}}
			if err := u.Execute(); err != nil {
				return "", err
			}
			return "", b.Execute()
		}},
		{Name: "Retrying", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			// One interceptor serves two connections: the healthy
			// target's deposits must not pay for the failing one's
			// retries.
			users, _ := grpc.NewClient("users:443")
			billing, _ := grpc.NewClient("billing:443")
			intercept := Retrying()
			if err := intercept(ctx, "/Users/Get", nil, nil, users, invoker(d)); err != nil {
				return "", err
			}
			return "", intercept(ctx, "/Billing/Charge", nil, nil, billing, invoker(d))
		}},
		{Name: "RetryingStream", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			users, _ := grpc.NewClient("users:443")
			billing, _ := grpc.NewClient("billing:443")
			stream := RetryingStream()
			streamer := func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
				return nil, invoker(d)(ctx, method, nil, nil, cc, opts...)
			}
			if _, err := stream(ctx, &grpc.StreamDesc{}, users, "/Users/Watch", streamer); err != nil {
				return "", err
			}
			_, err := stream(ctx, &grpc.StreamDesc{}, billing, "/Billing/Watch", streamer)
			return "", err
		}},
		{Name: "Connect", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			ok, failing := listeners()
			dialer := dialerTo(failing, d)
			if err := dialed((&Agent{addr: ok, dialer: dialer}).Connect(ctx)); err != nil {
				return "", err
			}
			return "", dialed((&Agent{addr: failing, dialer: dialer}).Connect(ctx))
		}},
		{Name: "DialAny", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			ok, failing := listeners()
			dialer := dialerTo(failing, d)
			if err := dialed(DialAny(dialer, ok)); err != nil {
				return "", err
			}
			return "", dialed(DialAny(dialer, failing))
		}},
		{Name: "DialResolved", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			ok, failing := listeners()
			dialer := dialerTo(failing, d)
			okAddr, err := net.ResolveTCPAddr("tcp", ok)
			if err != nil {
				return "", err
			}
			failingAddr, err := net.ResolveTCPAddr("tcp", failing)
			if err != nil {
				return "", err
			}
			if err := dialed(DialResolved(dialer, okAddr)); err != nil {
				return "", err
			}
			return "", dialed(DialResolved(dialer, failingAddr))
		}},
	}
}

var (
	listenOnce       sync.Once
	okAddr, downAddr string
)

// listeners returns the addresses of two local listeners that accept
// every connection: the dialer dialerTo makes lets the dials to the
// second reach them only when the fake dependency is healthy.
func listeners() (ok, failing string) {
	listenOnce.Do(func() {
		listen := func() string {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				panic(err)
			}
			go func() {
				for {
					c, err := l.Accept()
					if err != nil {
						return
					}
					c.Close()
				}
			}()
			return l.Addr().String()
		}
		okAddr, downAddr = listen(), listen()
	})
	return okAddr, downAddr
}

// dialerTo returns a dialer each of whose dials to failing is an attempt
// on d (a dial it fails fails with d's error); the others are the
// healthy dependency's.
func dialerTo(failing string, d *rlbehave.Dep) *net.Dialer {
	return &net.Dialer{Control: func(network, address string, _ syscall.RawConn) error {
		if address == failing {
			return d.Call()
		}
		return healthy.Call()
	}}
}

// dialed closes the connection a dial made and returns its error, as the
// fake dependency's (the dial's own names a port that differs from one
// run to the next).
func dialed(c net.Conn, err error) error {
	if c != nil {
		c.Close()
	}
	if errors.Is(err, rlbehave.ErrDown) {
		return rlbehave.ErrDown
	}
	return err
}

// invoker sends a call to the connection's target: billing is d, users
// always answers.
func invoker(d *rlbehave.Dep) grpc.UnaryInvoker {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, opts ...grpc.CallOption) error {
		if cc.Target() == "billing:443" {
			return d.Call()
		}
		return healthy.Call()
	}
}
