package timers

import (
	"errors"
	"net/http"
	"time"
)

var errGaveUp = errors.New("gave up")

type sender struct {
	hc      *http.Client
	retryOn map[int]bool
}

// The statuses to retry are data: a map of them.
func (s *sender) statusSet(req *http.Request) (*http.Response, error) {
	for i := 0; ; i++ { // want `loop \[4 attempts\] delay=fixed`
		resp, err := s.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if !s.retryOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		if i >= 3 {
			return nil, errGaveUp
		}
		time.Sleep(time.Second)
	}
}

// The same test, but every status leaves: no retry.
func (s *sender) statusSetOnce(req *http.Request) (*http.Response, error) {
	for i := 0; i < 3; i++ {
		resp, err := s.hc.Do(req)
		if err != nil {
			return nil, err
		}
		if !s.retryOn[resp.StatusCode] {
			return resp, nil
		}
		resp.Body.Close()
		return nil, errGaveUp
	}
	return nil, errGaveUp
}
