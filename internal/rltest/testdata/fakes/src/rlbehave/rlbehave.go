// Package rlbehave is the runtime side of rltest.Behave: a fake dependency
// that counts the calls made to it and the response bodies it hands out,
// and a main loop that calls the functions under test many times against
// it and prints what they returned.
package rlbehave

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
)

// Mode is how a fake dependency behaves.
type Mode string

const (
	Healthy Mode = "healthy" // every call succeeds (200 OK)
	Down    Mode = "down"    // every call fails with ErrDown
	Status  Mode = "status"  // every call answers 503 Service Unavailable
)

// ErrDown is the error of every call to a dependency that is down.
var ErrDown = errors.New("dependency down")

// Dep is a fake dependency.
type Dep struct {
	Mode           Mode
	Calls          int // attempts made
	Opened, Closed int // response bodies handed out, and closed
}

// Call is an attempt that returns only an error.
func (d *Dep) Call() error {
	d.Calls++
	if d.Mode != Healthy {
		return ErrDown
	}
	return nil
}

// Get is an attempt that returns a value.
func (d *Dep) Get() (string, error) {
	if err := d.Call(); err != nil {
		return "", err
	}
	return "ok", nil
}

// Client returns an HTTP client whose every request reaches d.
func (d *Dep) Client() *http.Client { return &http.Client{Transport: d} }

// RoundTrip answers a request as the mode says.
func (d *Dep) RoundTrip(req *http.Request) (*http.Response, error) {
	d.Calls++
	switch d.Mode {
	case Down:
		return nil, ErrDown
	case Status:
		return d.Response(req, http.StatusServiceUnavailable), nil
	}
	return d.Response(req, http.StatusOK), nil
}

// Response returns a response with a body that counts its closing.
func (d *Dep) Response(req *http.Request, code int) *http.Response {
	d.Opened++
	return &http.Response{
		StatusCode: code,
		Status:     fmt.Sprintf("%d %s", code, http.StatusText(code)),
		Body:       &body{r: strings.NewReader(http.StatusText(code)), d: d},
		Header:     http.Header{},
		Request:    req,
	}
}

type body struct {
	r      io.Reader
	d      *Dep
	closed bool
}

func (b *body) Read(p []byte) (int, error) { return b.r.Read(p) }

func (b *body) Close() error {
	if !b.closed {
		b.closed = true
		b.d.Closed++
	}
	return nil
}

// Close closes a response's body, if there is one (the caller's duty).
func Close(resp *http.Response) {
	if resp != nil && resp.Body != nil {
		resp.Body.Close()
	}
}

// Case is a function under test: Run calls it once against d and renders
// what it returned (its error apart).
type Case struct {
	Name  string
	Modes []Mode // the failing modes it is run in; Healthy is always run
	Run   func(d *Dep) (result string, err error)
	// Refused is a regular expression of the error message a refused
	// retry returns in each failing mode, where it differs from what the original returns after
	// its last attempt: a loop that gives up only when its context ends
	// (the original returns the context's error; a refusal, the last
	// attempt's), or a library whose error lists the attempts made.
	Refused map[Mode]string
}

// Report is what one case did in one mode over all calls.
type Report struct {
	Case     string         `json:"case"`
	Mode     Mode           `json:"mode"`
	Calls    int            `json:"calls"`
	Attempts int            `json:"attempts"`
	Opened   int            `json:"opened"`
	Closed   int            `json:"closed"`
	Outcomes map[string]int `json:"outcomes"` // "result\x00error" (error "<nil>" when nil) by count
	Refused  string         `json:"refused,omitempty"`
}

// Main runs every case (or the one -case names) in each of its modes that
// -modes lists (all when it is empty) -calls times against one fake
// dependency per case and mode, and prints one JSON report per line. A
// budget the code keeps in a package variable lives as long as the
// process: run one case and mode per process for each to start from a new
// budget.
func Main(cases []Case) {
	calls := flag.Int("calls", 1, "calls per case and mode")
	modes := flag.String("modes", "", "comma-separated modes to run (default all)")
	only := flag.String("case", "", "the case to run (default all)")
	flag.Parse()
	want := map[Mode]bool{}
	for _, m := range strings.Split(*modes, ",") {
		if m != "" {
			want[Mode(m)] = true
		}
	}
	enc := json.NewEncoder(os.Stdout)
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	for _, c := range cases {
		if *only != "" && c.Name != *only {
			continue
		}
		for _, m := range append([]Mode{Healthy}, c.Modes...) {
			if len(want) > 0 && !want[m] {
				continue
			}
			d := &Dep{Mode: m}
			r := Report{Case: c.Name, Mode: m, Calls: *calls, Outcomes: map[string]int{}, Refused: c.Refused[m]}
			for i := 0; i < *calls; i++ {
				res, err := c.Run(d)
				msg := "<nil>"
				if err != nil {
					msg = err.Error()
				}
				r.Outcomes[res+"\x00"+msg]++
			}
			r.Attempts, r.Opened, r.Closed = d.Calls, d.Opened, d.Closed
			if err := enc.Encode(r); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
		}
	}
}
