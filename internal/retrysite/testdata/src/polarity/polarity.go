// Package polarity has predicates of an attempt's outcome whose names say
// nothing: what their bodies return says what they hold for
// (PolarityFact); package polarityuse retries by them.
package polarity

import "net/http"

// Settled holds for a nil error: the attempt succeeded.
func Settled(err error) bool { return err == nil } // want Settled:`holds\(success\)`

// Accepted holds for a 2xx status.
func Accepted(resp *http.Response) bool { // want Accepted:`holds\(success\)`
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return true
	}
	return false
}

// Overloaded holds for a failure status.
func Overloaded(resp *http.Response) bool { return resp.StatusCode == 429 || resp.StatusCode >= 500 } // want Overloaded:`holds\(failure\)`

// vague's body says nothing the reading knows: no fact.
func vague(err error) bool { return len(err.Error()) > 3 }
