package timers

import (
	"net/http"
	"slices"
	"time"
)

// hasStatus tests the answer's status against a list its caller gives.
func hasStatus(resp *http.Response, codes ...int) bool {
	return resp != nil && slices.Contains(codes, resp.StatusCode)
}

// The statuses to retry are the caller's list, checked by a helper; an
// error goes round too, and only a nil error with another status leaves.
func (s *sender) retryCodes(req *http.Request, attempts int, codes ...int) (resp *http.Response, err error) {
	for attempt := 0; attempt < attempts+1; { // want `loop \[attempts\+1 attempts\] delay=fixed`
		resp, err = s.hc.Do(req)
		if err == nil && !hasStatus(resp, codes...) {
			return resp, nil
		}
		time.Sleep(time.Second)
		attempt++
	}
	return resp, err
}

// Look-alike: a poll while the status is one of the caller's (202
// Accepted, say); any error ends it, so no failure goes round.
func (s *sender) pollCodes(req *http.Request, codes ...int) (*http.Response, error) {
	resp, err := s.hc.Do(req)
	for err == nil && hasStatus(resp, codes...) {
		resp.Body.Close()
		time.Sleep(time.Second)
		resp, err = s.hc.Do(req)
	}
	return resp, err
}

// sized tests something else of the answer against the list.
func sized(resp *http.Response, sizes ...int64) bool {
	return slices.Contains(sizes, resp.ContentLength)
}

// Look-alike: the same loop with a helper whose list is not of statuses:
// a nil error that goes round may be a success (the answer is not yet the
// size wanted), and a loop whose success goes round is no retry by the
// definition.
func (s *sender) retrySized(req *http.Request, sizes ...int64) (resp *http.Response, err error) {
	for attempt := 0; attempt < 3; {
		resp, err = s.hc.Do(req)
		if err == nil && !sized(resp, sizes...) {
			return resp, nil
		}
		time.Sleep(time.Second)
		attempt++
	}
	return resp, err
}
