package loops

import (
	"context"
	"net/http"
	"time"
)

// A status handed back as a bare integer: the helper returns the
// response's status, and the caller tests it.

type statusAPI struct{ hc *http.Client }

// get returns the status of its response, or 0 with the error.
func (a *statusAPI) get(ctx context.Context) (int, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", "https://status.example/v1", nil)
	if err != nil {
		return 0, err
	}
	resp, err := a.hc.Do(req)
	if err != nil {
		return 0, err
	}
	resp.Body.Close()
	return resp.StatusCode, nil
}

// count returns how many bytes it read: a count, not a status.
func (a *statusAPI) count(ctx context.Context) (int, error) {
	resp, err := a.hc.Get("https://status.example/v1/items")
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	return int(resp.ContentLength), nil
}

// Success needs a nil error and a 200: any other status goes round.
func (a *statusAPI) untilOK(ctx context.Context) error {
	var err error
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		var code int
		code, err = a.get(ctx)
		if err == nil && code == http.StatusOK {
			return nil
		}
		time.Sleep(time.Second)
	}
	return err
}

var retryOnCodes = map[int]bool{http.StatusBadGateway: true, http.StatusServiceUnavailable: true}

// Errors leave; the statuses a map of booleans holds go round.
func (a *statusAPI) retryCodes(ctx context.Context) error {
	for i := 0; i < 3; i++ { // want `loop \[3 attempts\]`
		code, err := a.get(ctx)
		if err != nil {
			return err
		}
		if !retryOnCodes[code] {
			return nil
		}
		time.Sleep(time.Second)
	}
	return nil
}

// Look-alike: errors leave and only a 404 goes round: waiting for
// something to appear, not a retry.
func (a *statusAPI) awaitCreated(ctx context.Context) error {
	for {
		code, err := a.get(ctx)
		if err != nil {
			return err
		}
		if code != http.StatusNotFound {
			return nil
		}
		time.Sleep(time.Second)
	}
}

// Look-alike: the integer is a count, so a nil error is success, and a
// short answer that goes round polls for more.
func (a *statusAPI) awaitItems(ctx context.Context) error {
	for {
		n, err := a.count(ctx)
		if err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		time.Sleep(time.Second)
	}
}
