package shapes

// The driver of rltest.Behave for the shapes package: each case calls
// one function of the package against a fake dependency.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/retrylint/retrylint/budget"

	"rlbehave"
)

// classified counts Classify's calls of the failing service whose retry
// was refused.
var classified int

// rejects answers every request with errRejected.
type rejects struct{}

func (rejects) RoundTrip(*http.Request) (*http.Response, error) { return nil, errRejected }

// fake adapts a fake dependency to Inventory.
type fake struct{ d *rlbehave.Dep }

func (f fake) Reserve() error       { return f.d.Call() }
func (f fake) Get() (string, error) { return f.d.Get() }

// upTo is a policy that allows n attempts.
type upTo int

func (u upTo) Retry(n int) bool { return n < int(u) }

// thrice is an Attempts policy that allows three attempts of a query.
type thrice struct{}

func (thrice) Attempt(q *Query) bool { return q.attempts < 3 }

// judge is a Judge that allows n attempts and says why it stops.
type judge int

func (j judge) Next(err error, n int) (bool, string) {
	if err == nil {
		return false, "done"
	}
	if n+1 >= int(j) {
		return false, "gave up"
	}
	return true, ""
}

// behaveInventoryBudget is the budget of inventory the service holds.
var behaveInventoryBudget = budget.New()

func BehaveCases() []rlbehave.Case {
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
	timeout := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 20*time.Millisecond)
	}
	return []rlbehave.Case{
		{Name: "Reserve", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{inventory: fake{d}, inventoryBudget: behaveInventoryBudget}
			return "", s.Reserve()
		}},
		{Name: "Restock", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{inventory: fake{d}, inventoryBudget: behaveInventoryBudget}
			return "", s.Restock()
		}},
		{Name: "Charge", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{payments: fake{d}, inventoryBudget: behaveInventoryBudget}
			return "", s.Charge()
		}},
		{Name: "Health", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			return "", Health(d.Client())
		}},
		{Name: "Fetch", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			return response(Fetch(d.Client()))
		}},
		{Name: "Check", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			code, err := Check(d.Client())
			return strconv.Itoa(code), err
		}},
		{Name: "Deliver", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			req, err := http.NewRequest("GET", "https://deliver.example/item", nil)
			if err != nil {
				return "", err
			}
			return Deliver(d.Client(), req)
		}},
		{Name: "Classify", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			// After every tenth failing call that made one attempt (its
			// retry refused: the budget is drained), a rejection asked
			// of the same service still returns the rejection; so few,
			// their deposits keep the attempts per call near 1 + the
			// ratio.
			before := d.Calls
			res, err := Classify(d.Client())
			if d.Calls-before > 1 {
				return res, err
			}
			if classified++; classified%10 == 0 {
				if _, rerr := Classify(&http.Client{Transport: rejects{}}); !errors.Is(rerr, errRejected) || strings.Contains(rerr.Error(), "gave up") {
					return "", fmt.Errorf("a rejection returned %v", rerr)
				}
			}
			return res, err
		}},
		{Name: "Rewind", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			req, err := http.NewRequest("PUT", "https://deliver.example/item", strings.NewReader("item"))
			if err != nil {
				return "", err
			}
			return Rewind(d.Client(), req)
		}},
		{Name: "Expire", Modes: both, Run: func(d *rlbehave.Dep) (string, error) {
			req, err := http.NewRequest("GET", "https://expire.example/item", nil)
			if err != nil {
				return "", err
			}
			return response(Expire(d.Client(), req, 20*time.Millisecond))
		}},
		{Name: "Consult", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{consult: fake{d}}
			return "", s.Consult(thrice{})
		}},
		{Name: "Appraise", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{appraisal: fake{d}}
			return "", s.Appraise(judge(3))
		}},
		{Name: "Lookup", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{orders: fake{d}}
			return s.Lookup()
		}},
		{Name: "Watch", Modes: down, Refused: map[rlbehave.Mode]string{rlbehave.Down: regexp.QuoteMeta(rlbehave.ErrDown.Error())},
			Run: func(d *rlbehave.Dep) (string, error) {
				ctx, cancel := timeout()
				defer cancel()
				s := &Service{stock: fake{d}}
				return "", s.Watch(ctx)
			}},
		{Name: "Poll", Modes: both,
			Refused: map[rlbehave.Mode]string{
				rlbehave.Down:   regexp.QuoteMeta(`Get "https://poll.example/state": ` + rlbehave.ErrDown.Error()),
				rlbehave.Status: regexp.QuoteMeta("unexpected status: 503 Service Unavailable"),
			},
			Run: func(d *rlbehave.Dep) (string, error) {
				ctx, cancel := timeout()
				defer cancel()
				return response(Poll(ctx, d.Client()))
			}},
		{Name: "ServeHTTP", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{shelf: fake{d}}
			w := httptest.NewRecorder()
			s.ServeHTTP(w, httptest.NewRequest("GET", "/", nil))
			return strconv.Itoa(w.Code), nil
		}},
		{Name: "Place", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{bins: fake{d}}
			return "", s.Place()
		}},
		{Name: "Recover", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{inventory: fake{d}, inventoryBudget: behaveInventoryBudget}
			return "", s.Recover(make(chan struct{}))
		}},
		{Name: "Activate", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{catalog: fake{d}}
			return "", s.Activate()
		}},
		{Name: "Archive", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{archive: fake{d}}
			return "", s.Archive(upTo(3))
		}},
		{Name: "Feed", Modes: down, Refused: map[rlbehave.Mode]string{rlbehave.Down: regexp.QuoteMeta(rlbehave.ErrDown.Error())},
			Run: func(d *rlbehave.Dep) (string, error) {
				ctx, cancel := timeout()
				defer cancel()
				s := &Service{feed: fake{d}}
				errc := make(chan error, 1)
				s.Feed(ctx, errc)
				return "", <-errc
			}},
		{Name: "Mirror", Modes: down, Refused: map[rlbehave.Mode]string{rlbehave.Down: regexp.QuoteMeta("mirror: " + rlbehave.ErrDown.Error())},
			Run: func(d *rlbehave.Dep) (string, error) {
				ctx, cancel := timeout()
				defer cancel()
				s := &Service{mirror: fake{d}}
				return s.Mirror(ctx)
			}},
		{Name: "Digest", Modes: down, Refused: map[rlbehave.Mode]string{rlbehave.Down: regexp.QuoteMeta(rlbehave.ErrDown.Error())},
			Run: func(d *rlbehave.Dep) (string, error) {
				ctx, cancel := timeout()
				defer cancel()
				s := &Service{digest: fake{d}}
				return s.Digest(ctx)
			}},
		{Name: "Send", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{outbox: fake{d}}
			return "", s.Send()
		}},
		{Name: "Relay", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{relay: fake{d}}
			return "", s.Relay()
		}},
		{Name: "Requeue", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{spool: fake{d}}
			return "", s.Requeue(1, 4)
		}},
		// It gives up only when its context ends; a refusal returns the
		// last attempt's error.
		{Name: "Acquire", Modes: down, Refused: map[rlbehave.Mode]string{rlbehave.Down: regexp.QuoteMeta(rlbehave.ErrDown.Error())}, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{leases: fake{d}}
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
			defer cancel()
			return s.Acquire(ctx)
		}},
		{Name: "Dial", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{dialer: fake{d}}
			return "", s.Dial()
		}},
		{Name: "Redial", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{redialer: fake{d}}
			return "", s.Redial()
		}},
		{Name: "Page", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{pager: fake{d}}
			return "", s.Page()
		}},
		{Name: "Drain", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{queue: fake{d}}
			return "", s.Drain(1, 4)
		}},
		{Name: "Settle", Modes: down, Run: func(d *rlbehave.Dep) (string, error) {
			s := &Service{ledger: fake{d}}
			return "", s.Settle()
		}},
	}
}
