package perdep

import (
	"context"
	"net/http"
	"time"
)

// Doer is anything that sends a request as a client's Do does: the client
// itself, or a decorator around one.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// Rewindable wraps the request a caller built so that each attempt sends
// it from the start.
type Rewindable struct {
	req *http.Request
}

// NewRewindable wraps r.
func NewRewindable(r *http.Request) *Rewindable { return &Rewindable{req: r} }

// Request returns the request to send.
func (rr *Rewindable) Request() *http.Request { return rr.req }

// SendRetrying retries through whatever Doer it is given: the Doer says
// nothing of the dependency, the request's host does, so each host gets
// its own budget from a registry keyed by it.
func SendRetrying(d Doer, r *http.Request, attempts int) (*http.Response, error) {
	rr := NewRewindable(r)
	var resp *http.Response
	var err error
	for attempt := 0; attempt < attempts; attempt++ { // want `up to attempts attempts`
		resp, err = d.Do(rr.Request())
		if err == nil {
			return resp, nil
		}
		time.Sleep(time.Millisecond)
	}
	return resp, err
}

// roundTrip sends the request it is handed.
func roundTrip(ctx context.Context, hc *http.Client, req *http.Request) (*http.Response, error) {
	return hc.Do(req.WithContext(ctx))
}

// Exchange retries a function of the package handed the request: it
// reaches the request's host, whose budget comes from the registry.
func Exchange(ctx context.Context, hc *http.Client, req *http.Request) (*http.Response, error) {
	var resp *http.Response
	var err error
	for i := 0; i <= 2; i++ { // want `up to 3 attempts`
		if resp, err = roundTrip(ctx, hc, req); err == nil {
			return resp, nil
		}
		time.Sleep(time.Millisecond)
	}
	return nil, err
}
